/*
 * The recorder's saving the draft on the server, "continue on
 * another phone", continuing a saved draft.
 * Methods of recorder.js's Recorder (its header has the panel contract).
 */

import { clear, el } from "./dom.js";
import { lang, t } from "./i18n.js";
import { joinGroup } from "./record-group.js";
import { API, hasHands, isNetwork, post } from "./record-lib.js";

// ---------------------------------------------------------------------------------------------
// saving, continuing, storing

export function saveDraft() {
  var self = this;
  var st = this.state;
  var body = { log: st.draft };
  var request = st.saved
    ? post(API + "/games/" + encodeURIComponent(st.saved.slug), body, "PUT", st.saved.token)
    : post(API + "/games", { log: st.draft, visibility: groupVisibility(st.setup),
      branch_of: st.branchOf ? { slug: st.branchOf.slug, step: st.branchOf.step } : null });
  return request.then(function (game) {
    if (!st.saved) {
      st.saved = { slug: game.slug, token: game.owner_token };
      try { window.localStorage.setItem("popreplay-owner:" + game.slug, game.owner_token); } catch (e) { /* ignore */ }
    }
    return joinGroup(st.setup, st.saved).then(function () { return game; });
  }).then(function (game) {
    st.savedAt = JSON.stringify(st.draft).length + ":" + st.undo.length;
    self.save();
    self.render();
    self.say(t("Saved as game {slug}.", { slug: game.slug }));
    return game;
  }).catch(function (e) {
    self.say(isNetwork(e) ? t("Offline: saved in this browser only.") : e.joining ? e.message : t("Not saved: {why}", { why: e.message }), true);
    throw e;
  });
}

// A game of a private group is unlisted from the start (it joins the group right after).
export function groupVisibility(setup) {
  return setup.group && setup.group["private"] ? "unlisted" : undefined;
}

// Once saved on the server, every checked entry updates that game.
export function autosave() {
  if (this.state && this.state.saved && !this.offline && !this.error) this.saveDraft().catch(function () { /* shown */ });
}

// "Continue on another phone": a link and its QR code (drawn by the server) that carry the
// draft's owner token in the fragment (never sent to a server), so nothing is typed.
export function handoff(saved) {
  var self = this;
  var url = window.location.origin + "/record?continue=" + encodeURIComponent(saved.slug)
    + (lang === "fr" ? "&lang=fr" : "") + "#token=" + encodeURIComponent(saved.token);
  var img = el("img", { class: "rp-qr", width: "148", height: "148", alt: t("QR code: continue this game on another phone") });
  if (this.qr && this.qr.url === url) img.src = this.qr.src;
  else {
    fetch("/record/qr", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ text: url }) })
      .then(function (r) { if (!r.ok) throw new Error(String(r.status)); return r.text(); })
      .then(function (svg) {
        self.qr = { url: url, src: "data:image/svg+xml;base64," + window.btoa(svg) };
        img.src = self.qr.src;
      }).catch(function () { img.hidden = true; });
  }
  return el("span", { class: "rp-handoff" },
    el("a", { href: url, dataset: { act: "handoff" } }, t("Continue on another phone")), " ",
    el("span", { class: "rp-hint", text: t("(open this link there, or scan the code: it carries the owner token)") }), img);
}

export function continueForm(slug) {
  var self = this;
  clear(this.root.querySelector(".rp-main") || this.mainNode());
  var main = this.mainNode();
  var known = null;
  try { known = window.localStorage.getItem("popreplay-owner:" + slug); } catch (e) { known = null; }
  var input = el("input", { id: "rec-token", type: "text", autocomplete: "off", spellcheck: "false", value: known || "" });
  var form = el("form", { class: "rp-box", "aria-labelledby": "rec-continue-h", on: { submit: function (ev) {
    ev.preventDefault();
    var token = input.value.trim();
    fetch(API + "/games/" + encodeURIComponent(slug), { headers: { Authorization: "Bearer " + token } })
      .then(function (r) { return r.json().then(function (d) { if (!r.ok) throw new Error(d.message); return d; }); })
      .then(function (data) {
        var log = data.log;
        delete log.claimed;
        window.history.replaceState(null, "", "/record");
        self.begin({ game: log.game, mode: log.mode, players: log.players, options: log.options || {},
          recordHands: hasHands(log), meta: log.meta || {} }, log, data.branch_of, { slug: slug, token: token });
        self.say(t("Continuing game {slug}.", { slug: slug }));
      })
      .catch(function (e) { self.say(t("Cannot continue: {why}", { why: e.message }), true); });
  } } },
    el("h2", { id: "rec-continue-h", class: "rp-head", text: t("Continue the saved game {slug}", { slug: slug }) }),
    el("label", { for: "rec-token" }, t("Owner token (shown when the draft was saved)")), input,
    el("div", { class: "rp-row" }, el("button", { type: "submit", class: "rp-big primary", dataset: { act: "continue" } }, t("Continue"))));
  main.appendChild(form);
  input.focus();
  // a "continue on another phone" link carries the token: continue without typing
  var carried = /(?:^#|&)token=([^&]+)/.exec(window.location.hash);
  if (carried) {
    input.value = decodeURIComponent(carried[1]);
    window.history.replaceState(null, "", window.location.pathname + window.location.search);
    form.requestSubmit();
  }
}
