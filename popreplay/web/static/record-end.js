/*
 * The recorder's end screen: the score sheet's claims, store, open the replay.
 * Methods of recorder.js's Recorder (its header has the panel contract).
 */

import { clear, el } from "./dom.js";
import { claimForm } from "./claims.js";
import { lang, t } from "./i18n.js";
import { groupLine, joinGroup } from "./record-group.js";
import { API, clone, post } from "./record-lib.js";
import { groupVisibility } from "./record-share.js";

// ---------------------------------------------------------------------------------------------
// the end: claims, store, open the replay

export function endScreen() {
  var self = this;
  var st = this.state;
  var main = this.mainNode();
  clear(main);
  var result = (this.answer || {}).result || {};
  var outcome = result.outcome || {};
  var form = el("form", { class: "rp-box rp-end", "aria-labelledby": "rec-end-h" });
  form.appendChild(el("h2", { id: "rec-end-h", class: "rp-head", text: t("What does the score sheet say? (optional)") }));
  form.appendChild(el("p", { class: "rp-hint", text: t("Leave a box empty (no player ticked) to claim nothing for it. The replay compares each claim with the computed result.") }));
  var fields = ((this.games[st.setup.game] || {}).claims || {})[st.setup.mode] || [];
  var read = claimForm(form, fields, outcome, st.setup.players);
  var visibility = el("select", { id: "rec-visibility" },
    el("option", { value: "public", text: t("public (listed on the home page)") }),
    el("option", { value: "unlisted", text: t("unlisted (only people with the link)") }));
  if (st.branchOf || groupVisibility(st.setup)) visibility.value = "unlisted";
  if (st.setup.group) form.appendChild(el("p", { class: "rp-sub" }, groupLine(st.setup.group)));
  if (!st.saved && !groupVisibility(st.setup)) form.appendChild(el("div", { class: "rp-field" }, el("label", { for: "rec-visibility", text: t("Visibility") }), visibility));
  form.appendChild(el("div", { class: "rp-row" },
    el("button", { type: "submit", class: "rp-big primary", dataset: { act: "store" } }, t("Store and open the replay")),
    el("button", { type: "button", dataset: { act: "back" }, on: { click: function () { self.render(); } } }, t("Back to recording"))));
  form.addEventListener("submit", function (ev) {
    ev.preventDefault();
    var log = clone(st.draft);
    var claimed = read();
    if (Object.keys(claimed).length) log.claimed = claimed;
    var request = st.saved
      ? post(API + "/games/" + encodeURIComponent(st.saved.slug), { log: log }, "PUT", st.saved.token)
      : post(API + "/games", { log: log, visibility: visibility.value,
          branch_of: st.branchOf ? { slug: st.branchOf.slug, step: st.branchOf.step } : null });
    request.then(function (game) {
      var slug = st.saved ? st.saved.slug : game.slug;
      if (game.owner_token) { try { window.localStorage.setItem("popreplay-owner:" + slug, game.owner_token); } catch (e) { /* ignore */ } }
      if (!st.saved) { st.saved = { slug: slug, token: game.owner_token }; self.save(); }  // a retry updates it
      return joinGroup(st.setup, st.saved).then(function () { return slug; });
    }).then(function (slug) {
      self.state = null;
      self.save();
      window.location.assign("/r/" + slug + (lang === "fr" ? "?lang=fr" : ""));
    }).catch(function (e) { self.say(e.joining ? e.message : t("Not stored: {why}", { why: e.message }), true); });
  });
  main.appendChild(form);
  this.say("");
}
