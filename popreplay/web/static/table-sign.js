/*
 * The table page's corrections and sign-off (docs/table.md "Corrections", "Sign-off").
 *
 * It follows the table through table.js's "popreplay:table" event (the view after each render)
 * and asks the tables API for everything else: the entries this phone may correct and the
 * corrections so far (GET .../corrections), the result beside the score sheet's fields
 * (GET .../signoff). It writes no rule: a correction is sent as typed and the engine's answer
 * (a refusal naming the later entry it breaks, with a fix offered) is shown as it comes.
 * The tokens are table.js's (localStorage "popreplay-table:<id>").
 */

import { claimForm } from "./claims.js";
import { el, whenReady } from "./dom.js";
import { lang, t } from "./i18n.js";
import { turnPicker, turnWords } from "./table-dispute.js";

var box, data, api, view = null, known = { corrections: -1, seq: -1, status: null };
var correctable = [], history = [], sign = null, refusal = null, busy = false;

function tokens() {
  try { return JSON.parse(localStorage.getItem("popreplay-table:" + data.table) || "{}") || {}; } catch (e) { return {}; }
}

function token() { var s = tokens(); return s.seat || s.key || s.host; }

function call(method, path, body) {
  var headers = { Accept: "application/json", "Accept-Language": lang, Authorization: "Bearer " + token() };
  if (body) headers["Content-Type"] = "application/json";
  return fetch(api + path + (path.indexOf("?") < 0 ? "?" : "&") + "lang=" + lang,
    { method: method, headers: headers, body: body ? JSON.stringify(body) : undefined })
    .then(function (r) { return r.json().then(function (b) { return { status: r.status, body: b }; }); });
}

function words(value) {
  if (Array.isArray(value)) return value.map(words).join(" ");
  return value === null || value === undefined ? "—" : String(value);
}

// "17 21" -> [17, 21] when the value was a list; numbers stay numbers
function parse(text, like) {
  var items = text.trim().split(/[\s,]+/).filter(Boolean).map(function (s) { return /^-?\d+$/.test(s) ? Number(s) : s; });
  return Array.isArray(like) ? items : items[0];
}

function newId() { return (tokens().player || "host") + "-fix-" + Date.now().toString(36) + Math.random().toString(36).slice(2, 6); }

// --- loading --------------------------------------------------------------------------------

function refresh() {
  if (!view) return;
  var jobs = [];
  if (view.you.role !== "watch" || (view.corrections || []).length) {
    jobs.push(call("GET", "/corrections").then(function (a) {
      if (a.status !== 200) return;
      correctable = a.body.correctable || [];
      history = a.body.corrections || [];
    }));
  }
  if (view.over || view.status === "stored") {
    jobs.push(call("GET", "/signoff").then(function (a) { if (a.status === 200) sign = a.body; }));
  }
  Promise.all(jobs).then(render);
}

function take(next) {
  view = next;
  var n = (view.corrections || []).length;
  var end = view.over || view.status === "stored";  // a sign-off changes no sequence number
  if (end || n !== known.corrections || view.seq !== known.seq || view.status !== known.status) {
    known = { corrections: n, seq: view.seq, status: view.status };
    refresh();
  }
}

// --- corrections ----------------------------------------------------------------------------

function sendCorrection(seq, set, fixes, out) {
  if (busy) return;
  busy = true;
  var body = { id: newId(), seen: view.seq, seq: seq, set: set };
  if (fixes) body.fixes = fixes;
  call("POST", "/corrections", body).then(function (a) {
    busy = false;
    if (a.status === 201 || a.status === 200) {
      refusal = null;
      out.textContent = t("Corrected.");
      refresh();
      return;
    }
    var first = (a.body.errors || [])[0] || {};
    var where = first.words && first.words.where;
    refusal = first.seq ? { seq: seq, set: set, later: first.seq, where: where, message: first.words ? first.words.text : first.message } : null;
    out.textContent = first.seq
      ? t("Refused: this makes entry {n} illegal ({where}): {message}", { n: first.seq, where: where || "?", message: first.words ? first.words.text : first.message })
      : t("Refused: {message}", { message: (first.words && first.words.line) || first.message || a.body.message });
    render();
  }).catch(function () { busy = false; out.textContent = t("Not sent: no network."); });
}

function fieldRow(item, field, onSend) {
  var input = el("input", { type: "text", inputmode: "numeric", value: words(field.value), "aria-label": field.where });
  var out = el("span", { class: "tb-sign-out", role: "status" });
  return el("div", { class: "tb-fix", dataset: { seq: String(item.seq), path: field.path } },
    el("span", { class: "tb-fix-where", text: field.where + ": " + words(field.value) + " → " }), input,
    el("button", { type: "button", dataset: { act: "correct" }, on: { click: function () {
      onSend(parse(input.value, field.value), out);
    } } }, t("Correct")), out);
}

function correctionsBox() {
  var sec = el("section", { class: "rp-box tb-corrections", dataset: { act: "corrections" } },
    el("h2", { class: "rp-head", text: t("Corrections") }));
  if (history.length) {
    sec.appendChild(el.apply(null, ["ul", { class: "tb-history" }].concat(history.map(function (c) {
      return el("li", { text: c.text });
    }))));
  }
  if (refusal) {
    var later = correctable.filter(function (c) { return c.seq === refusal.later; })[0];
    var fix = el("div", { class: "tb-refusal" },
      el("p", { class: "rp-error", text: t("Entry {n} ({where}) would be illegal: {message}", { n: refusal.later, where: refusal.where || "?", message: refusal.message }) }));
    if (later) {
      fix.appendChild(el("p", { text: t("Fix it in the same correction:") }));
      later.fields.forEach(function (f) {
        fix.appendChild(fieldRow(later, f, function (value, out) {
          var set = {}; set[f.path] = value;
          sendCorrection(refusal.seq, refusal.set, [{ seq: later.seq, set: set }], out);
        }));
      });
    } else {
      fix.appendChild(el("p", { text: t("That entry is not yours to fix: ask its seat or the host.") }));
    }
    sec.appendChild(fix);
  }
  if (view.status === "live" && correctable.length) {
    var list = el("details", { class: "tb-correctable" }, el("summary", { text: t("Correct an entry") }));
    correctable.slice(0, 12).forEach(function (item) {
      item.fields.forEach(function (f) {
        list.appendChild(fieldRow(item, f, function (value, out) {
          var set = {}; set[f.path] = value;
          sendCorrection(item.seq, set, null, out);
        }));
      });
    });
    sec.appendChild(list);
  }
  return history.length || refusal || (view.status === "live" && correctable.length) ? sec : null;
}

// --- sign-off -------------------------------------------------------------------------------

function resultLines(result) {
  var outcome = (result && result.outcome) || {};
  var lines = [];
  ["totals", "scores", "cards", "stars"].forEach(function (key) {
    if (outcome[key] && typeof outcome[key] === "object" && !Array.isArray(outcome[key])) {
      lines.push(Object.keys(outcome[key]).map(function (p) { return p + " " + words(outcome[key][p]); }).join(" · "));
    }
  });
  if (Array.isArray(outcome.winners)) lines.push(t("Won: {names}", { names: outcome.winners.join(", ") || "—" }));
  return lines;
}

function signBox() {
  if (!sign || !sign.open) return null;
  var picker = turnPicker(view, sign.step_max, render);  // the turns in words, for every phone
  var sec = el("section", { class: "rp-box tb-signoff", dataset: { act: "signoff" } },
    el("h2", { class: "rp-head", text: t("Sign off the result") }));
  var res = el("div", { class: "tb-result" }, el("h3", { text: t("The result") }));
  resultLines(sign.result).forEach(function (line) { res.appendChild(el("p", { text: line })); });
  sec.appendChild(res);
  sec.appendChild(el("p", { class: "tb-sign-summary", dataset: { act: "summary" }, text: sign.signoff.text }));
  sign.signoff.disputes.forEach(function (d) {
    var said = d.step === null || d.step === undefined ? t("{player} disputes the result: {sentence}", { player: d.player, sentence: d.sentence || "—" })
      : t("{player} disputes {turn}: {sentence}", { player: d.player, turn: turnWords(d.step), sentence: d.sentence || "—" });
    var line = el("p", { class: "rp-error", dataset: { act: "disputed" }, text: said });
    if (view.stored && d.step !== null && d.step !== undefined) {  // the replay opens at that turn
      line.appendChild(document.createTextNode(" "));
      line.appendChild(el("a", { href: "/r/" + encodeURIComponent(view.stored) + "#step=" + d.step, dataset: { act: "disputed-step" }, text: t("See {turn} in the replay", { turn: turnWords(d.step) }) }));
    }
    sec.appendChild(line);
  });
  if (sign.yours && sign.yours.current) {
    sec.appendChild(el("p", { dataset: { act: "yours" }, text: sign.yours.verdict === "confirm" ? t("You confirmed this result.") : t("You dispute {turn}.", { turn: turnWords(sign.yours.step) }) }));
  }
  if (sign.claims) {
    sec.appendChild(el("p", { dataset: { act: "claims" }, text: sign.claims.match ? t("Your score sheet matches the result.")
      : t("Your score sheet differs: {list}", { list: sign.claims.differences.map(function (d) { return d.path + " " + words(d.claimed) + " ≠ " + words(d.computed); }).join("; ") }) }));
  }
  if (!view.you.player) return sec;
  var form = el("form", { class: "tb-sign-form" });
  form.appendChild(el("h3", { text: t("What does your score sheet say? (optional)") }));
  var read = claimForm(form, sign.claimable || [], (sign.result || {}).outcome || {}, view.players);
  var out = el("p", { class: "tb-sign-out", role: "status" });
  var post = function (body) {
    var claims = read();
    if (Object.keys(claims).length) body.claims = claims;
    call("POST", "/signoff", body).then(function (a) {
      if (a.status === 201) { sign = a.body; render(); return; }
      var first = (a.body.errors || [])[0];
      out.textContent = t("Refused: {message}", { message: first ? first.message : a.body.message });
    }).catch(function () { out.textContent = t("Not sent: no network."); });
  };
  var step = picker.input;
  var why = el("input", { type: "text", id: "tb-dispute-why", maxlength: "500" });
  form.appendChild(el("div", { class: "rp-row" },
    el("button", { type: "button", class: "rp-big primary", dataset: { act: "confirm" }, on: { click: function () { post({ verdict: "confirm" }); } } }, t("Confirm"))));
  form.appendChild(el("fieldset", { class: "tb-dispute" }, el("legend", { text: t("Dispute") }),
    el("div", { class: "rp-field" }, el("label", { for: "tb-dispute-step", text: picker.label }), step),
    el("div", { class: "rp-field" }, el("label", { for: "tb-dispute-why", text: t("What went wrong, in a sentence") }), why),
    el("button", { type: "button", dataset: { act: "dispute" }, on: { click: function () {
      post({ verdict: "dispute", step: step.value === "" ? null : Number(step.value), sentence: why.value });
    } } }, t("Dispute"))));
  form.appendChild(out);
  sec.appendChild(form);
  return sec;
}

function render() {
  if (!box || !view) return;
  var active = document.activeElement;
  if (active && (active.tagName === "INPUT" || active.tagName === "SELECT") && box.contains(active)) return;  // typing: wait
  while (box.firstChild) box.removeChild(box.firstChild);
  [signBox(), correctionsBox()].forEach(function (s) { if (s) box.appendChild(s); });
}

function boot() {
  box = document.getElementById("table-sign");
  var node = document.getElementById("table-data");
  if (!box || !node) return;
  data = JSON.parse(node.textContent);
  api = data.api;
  if (view) { known.seq = -1; take(view); return; }
  // table.js may have drawn (and told) before this script ran: ask for the table once
  if (token()) call("GET", "").then(function (a) { if (a.status === 200 && !view) take(a.body); });
}

window.addEventListener("popreplay:table", function (ev) { if (api) take(ev.detail); else view = ev.detail; });

whenReady(boot);
