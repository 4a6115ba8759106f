/*
 * The recorder's Recorder (GET /record, page module record.js): the game-agnostic frame — setup form, draft in localStorage,
 * undo/redo, offline queue, live check, table drawn by the replay renderers, running scores, step
 * notes, end screen with claims, saving/continuing, what-if branches.
 *
 * THE PER-GAME PANEL CONTRACT (the full text, with the engine and API sides: docs/recorder.md,
 * section "Contracts for game panels")
 * ---------------------------------------------------------------------------------------------
 * A game's entry panel is an ES module of its kit (popreplay/games/<g>/static/<g>.record.js, the
 * kit's `record_script`), named by the page (<link rel="modulepreload" data-game data-part="panel">,
 * games.js) beside its renderer. It exports:
 *
 *   export function renderPanel(container, rec)          // required: draw the entry panel
 *   export function reset()                              // optional: drop any half-built entry
 *   export function start(setup) -> log                  // optional: the empty draft for this setup
 *   export function setupForm(container, setup, helpers) // optional: the game's options in the setup form
 *   export var recordsHands = false                      // optional: no "Record hands" in the setup
 *   export var narrowsOffline = true                     // optional: it narrows its own offers offline
 *   export var oneRecorder = true                        // optional: at a table, one phone records
 *   export function forOneSeat(draft, choices, player)   // optional: at a table, the draft a seat's
 *                                                        //   panel starts from before its hand is dealt
 *   export function slotName(slot), entryName(kind, g), drawGathered(box, view, helpers)
 *                                                        // optional: a table's gathered slots (table.js)
 *
 * setup = {game, mode, players: [names], options: {}, recordHands: bool, meta: {}}
 *
 * rec (fresh for each renderPanel call):
 *   game, mode, players, recordHands   from the setup
 *   draft        deep copy of the current draft log
 *   choices      the engine's `choices` answer for the draft ({over, next, ...}), null unchecked
 *   result       the last result object (no steps), or null
 *   steps        the last steps ("tail": all notes, the last two steps whole), or []
 *   offline      true while the network is down (entries queued, checked when it is back)
 *   waiting      entries made offline since the last check (choices are then narrowed by them)
 *   commit(mutate, label) -> Promise<bool>
 *                mutate(log) edits a deep copy of the draft in place (or returns a new log);
 *                the frame checks it; refused (engine message shown, draft unchanged) -> false
 *   ask(pending) -> Promise<choices answer | null offline>   (POST /api/v1/record/check, steps "none")
 *   refresh()    re-render the panel now
 *   helpers      {el(tag, attrs, ...children), clear(node), buildEntry, placeEntry} (dom.js, record-lib.js)
 *
 * Shared classes (static/record.css): rp-box rp-head rp-sub rp-hint rp-row rp-big rp-key rp-toggle
 * rp-on rp-check rp-done rp-error. Buttons carry data-act for tests and a text or aria-label.
 */

import { clear, el } from "./dom.js";
import { nt, t, tn } from "./i18n.js";
import { lastStage, runningScores } from "./last-step.js";
import { API, buildEntry, clone, hasHands, isNetwork, narrowed, placeEntry, post, refusal } from "./record-lib.js";
import { endScreen } from "./record-end.js";
import { groupLine } from "./record-group.js";
import { setupForm } from "./record-setup.js";
import { autosave, continueForm, handoff, saveDraft } from "./record-share.js";
import { statusWord } from "./words.js";

var STORE = "popreplay-recorder";
var RETRY_MS = 3000;

// ---------------------------------------------------------------------------------------------
// the draft: setup, log, undo/redo, saved game; kept in localStorage

// `games`: {renderers, panels}, each {game: its kit's module} (games.js)
export function Recorder(root, page, games) {
  this.root = root;
  this.page = page;
  this.panels = games.panels;
  this.renderers = games.renderers;
  this.games = {};
  var self = this;
  page.games.forEach(function (g) { self.games[g.name] = g; });
  this.state = null; // {setup, draft, undo, redo, saved, branchOf, checked}
  this.answer = null; // {result, steps, choices} for the current draft
  this.offline = false;
  this.error = null;
  this.busy = false;
  this.retry = null;
  this.status = document.getElementById("rec-status");
  window.addEventListener("online", function () { self.recheck(); });
  document.addEventListener("keydown", function (ev) {
    if (!self.state || ev.altKey || !(ev.ctrlKey || ev.metaKey)) return;
    var key = ev.key.toLowerCase();
    if (key === "z" && !ev.shiftKey) { ev.preventDefault(); self.undo(); }
    else if (key === "y" || (key === "z" && ev.shiftKey)) { ev.preventDefault(); self.redo(); }
  });
}

// a mode in the page's language (the kit's words, page data `mode_words`)
Recorder.prototype.modeWord = function (game, mode) {
  return ((this.games[game] || {}).mode_words || {})[mode] || mode;
};

Recorder.prototype.load = function () {
  try { return JSON.parse(window.localStorage.getItem(STORE) || "null"); } catch (e) { return null; }
};
Recorder.prototype.save = function () {
  try {
    if (this.state) window.localStorage.setItem(STORE, JSON.stringify(this.state));
    else window.localStorage.removeItem(STORE);
  } catch (e) { this.say(t("This browser does not keep the draft (storage is full or off)."), true); }
};

Recorder.prototype.say = function (text, bad) {
  this.status.textContent = text || "";
  this.status.className = "rp-status" + (bad && text ? " rp-error" : "");
};

Recorder.prototype.start = function () {
  var params = new URLSearchParams(window.location.search);
  var self = this;
  if (params.get("from") && params.get("step") !== null) {
    var kept = this.load();  // a what-if link over a draft asks first, as "New" does
    if (kept && kept.draft && !window.confirm(t("Drop the draft in progress and try this what-if branch instead?"))) {
      window.history.replaceState(null, "", "/record");
      this.state = kept; this.render(); this.recheck();
      return;
    }
    this.say(t("Cutting the game at step {step}…", { step: params.get("step") }));
    fetch(API + "/cut?from=" + encodeURIComponent(params.get("from")) + "&step=" + encodeURIComponent(params.get("step")))
      .then(function (r) { return r.json().then(function (d) { if (!r.ok) throw new Error(d.message); return d; }); })
      .then(function (data) {
        var log = data.log;
        self.begin({ game: log.game, mode: log.mode, players: log.players, options: log.options || {},
          recordHands: hasHands(log), meta: log.meta || {} }, log, data.branch_of);
        window.history.replaceState(null, "", "/record");
      })
      .catch(function (e) { self.say(t("No branch: {why}", { why: e.message }), true); self.setupForm(); });
    return;
  }
  if (params.get("continue")) { this.continueForm(params.get("continue")); return; }
  this.state = this.load();
  if (this.state && this.state.draft) { this.render(); this.recheck(); }
  else { this.state = null; this.setupForm(); }
};

Recorder.prototype.begin = function (setup, draft, branchOf, saved) {
  this.state = { setup: setup, draft: draft, undo: [], redo: [], saved: saved || null,
    branchOf: branchOf || null, checked: false };
  this.answer = null;
  this.error = null;
  var panel = this.panels[setup.game];
  if (panel && panel.reset) panel.reset();
  this.save();
  this.render();
  this.recheck();
};

// ---------------------------------------------------------------------------------------------
// checking

Recorder.prototype.check = function (log, pending, steps) {
  return post(API + "/check", { log: log, pending: pending || null, steps: steps || "tail" });
};

// Check the current draft (after a reload, or when the network is back).
Recorder.prototype.recheck = function () {
  var self = this;
  if (!this.state) return;
  window.clearTimeout(this.retry);
  var draft = this.state.draft;
  this.check(draft).then(function (answer) {
    if (self.state.draft !== draft) return;
    var was = self.offline;
    self.offline = false;
    self.answer = answer;
    self.state.checked = true;
    self.state.checkedEntries = self.state.undo.length;
    var bad = refusal(answer);
    self.error = bad;
    self.save();
    self.render();
    if (bad) self.say(was ? t("Back online: an entry made offline breaks a rule.") : "", true);
    else if (was) self.say(t("Back online: every entry is checked."));
    self.autosave();
  }).catch(function (e) {
    if (isNetwork(e)) { self.goOffline(); return; }
    self.say(e.message, true);
  });
};

Recorder.prototype.goOffline = function () {
  var self = this;
  this.offline = true;
  this.say(t("Offline: entries are kept in this browser and checked when the network is back."), true);
  this.render();
  window.clearTimeout(this.retry);
  this.retry = window.setTimeout(function () { self.recheck(); }, RETRY_MS);
};

// An entry: check the new draft; keep it only if the engine does.
Recorder.prototype.commit = function (mutate, label) {
  var self = this;
  var next = clone(this.state.draft);
  var changed = mutate(next);
  if (changed && typeof changed === "object") next = changed;
  var panel = this.panels[this.state.setup.game];
  function keep(answer) {
    self.state.undo.push({ draft: self.state.draft, label: label });
    self.state.redo = [];
    self.state.draft = next;
    self.state.checked = Boolean(answer);
    if (answer) self.state.checkedEntries = self.state.undo.length;
    self.answer = answer || self.answer;
    self.error = null;
    self.refused = null;
    if (panel && panel.reset) panel.reset();
    self.save();
    self.render();
    self.say(answer ? label : t("Not checked yet (offline): {entry}", { entry: label }));
    if (answer) self.autosave();
    return true;
  }
  if (this.offline) return Promise.resolve(keep(null));
  this.busy = true;
  return this.check(next).then(function (answer) {
    self.busy = false;
    self.offline = false;
    var bad = refusal(answer);
    if (bad) {
      self.refused = bad;
      self.render();
      self.say("");
      return false;
    }
    return keep(answer);
  }).catch(function (e) {
    self.busy = false;
    if (isNetwork(e)) { var kept = keep(null); self.goOffline(); return kept; }
    self.say(e.message, true);
    return false;
  });
};

Recorder.prototype.ask = function (pending) {
  var self = this;
  if (this.offline) return Promise.resolve(null);
  return this.check(this.state.draft, pending, "none").then(function (answer) {
    return answer.choices;
  }).catch(function (e) {
    if (isNetwork(e)) { self.goOffline(); return null; }
    return { error: { message: e.message, path: "" }, next: {} };
  });
};

Recorder.prototype.move = function (from, to, what) {
  var stack = this.state[from];
  if (!stack.length) return;
  var entry = stack.pop();
  this.state[to].push({ draft: this.state.draft, label: entry.label });
  this.state.draft = entry.draft;
  this.state.checked = false;
  var panel = this.panels[this.state.setup.game];
  if (panel && panel.reset) panel.reset();
  this.save();
  this.render();
  this.say(t("{what}: {entry}", { what: what, entry: entry.label }));
  this.recheck();
};
Recorder.prototype.undo = function () { if (this.state) this.move("undo", "redo", t("Undone")); };
Recorder.prototype.redo = function () { if (this.state) this.move("redo", "undo", t("Redone")); };

Recorder.prototype.mainNode = function () {
  var main = this.root.querySelector(".rp-main");
  if (!main) { main = el("div", { class: "rp-main" }); this.root.appendChild(main); }
  return main;
};

// ---------------------------------------------------------------------------------------------
// the recording screen: toolbar, table, scores, notes, panel

Recorder.prototype.render = function () {
  var self = this;
  var st = this.state;
  var main = this.mainNode();
  clear(main);
  if (!st) return;
  this.root.dataset.entries = String(st.undo.length);
  this.root.dataset.checked = st.checked && !this.offline ? "1" : "0";
  var setup = st.setup;
  var game = this.games[setup.game] || { title: setup.game };
  document.getElementById("rec-title").textContent = t("Recording: {game} {mode}", { game: game.title, mode: this.modeWord(setup.game, setup.mode) });
  var answer = this.answer || {};
  var result = answer.result;
  var choices = answer.choices || null;
  var over = Boolean(choices && choices.over);
  // "Finish and store" is the next thing to do only once nothing is left to enter but optional
  // extras: not while the Bloops reveal waits (it is offered until it is in the draft)
  var finishNow = over && !(choices.next && choices.next.reveal && !st.draft.reveal);
  var toolbar = el("div", { class: "rp-toolbar", role: "toolbar", "aria-label": t("Draft") },
    el("button", { type: "button", dataset: { act: "undo" }, disabled: !st.undo.length, title: t("Undo (Ctrl+Z)"),
      "aria-label": st.undo.length ? t("Undo: {entry}", { entry: st.undo[st.undo.length - 1].label }) : t("Undo"), on: { click: function () { self.undo(); } } }, "↶ " + t("Undo")),
    el("button", { type: "button", dataset: { act: "redo" }, disabled: !st.redo.length, title: t("Redo (Ctrl+Y)"),
      "aria-label": st.redo.length ? t("Redo: {entry}", { entry: st.redo[st.redo.length - 1].label }) : t("Redo"), on: { click: function () { self.redo(); } } }, "↷ " + t("Redo")),
    el("button", { type: "button", dataset: { act: "save" }, disabled: this.offline, on: { click: function () { self.saveDraft().catch(function () {}); } } },
      st.saved ? t("Saved") + " ✓" : t("Save")),
    el("button", { type: "button", class: finishNow ? "primary" : null, dataset: { act: "finish" }, on: { click: function () { self.endScreen(); } } }, over ? t("Finish and store") : t("End here")),
    el("button", { type: "button", dataset: { act: "new" }, on: { click: function () {
      if (window.confirm(t("Drop this draft and start a new game?"))) { self.state = null; self.save(); self.setupForm(); }
    } } }, t("New")));
  main.appendChild(toolbar);
  var facts = [];
  if (setup.group) facts.push(groupLine(setup.group));
  if (st.saved) {
    facts.push(el("span", null, tn("Saved as {game} — owner token {token}", {
      game: el("a", { href: "/r/" + st.saved.slug, text: st.saved.slug }),
      token: el("code", { class: "rp-token", text: st.saved.token }) })));
    facts.push(this.handoff(st.saved));
  }
  if (st.branchOf) facts.push(el("span", null, tn("What if: a branch of {game} from step {step}", {
    game: el("a", { href: "/r/" + st.branchOf.slug + "#step=" + st.branchOf.step, text: st.branchOf.slug }), step: st.branchOf.step })));
  var waiting = this.offline ? st.undo.length - (st.checkedEntries || 0) : 0;
  // offline, the last answer's offers less what the entries made since took out (`spent`);
  // POP!'s panel narrows its own (`narrowsOffline`)
  var checkedDraft = waiting > 0 && st.undo[st.checkedEntries || 0] ? st.undo[st.checkedEntries || 0].draft : null;
  var narrows = Boolean(choices && choices.spent && checkedDraft && !(this.panels[setup.game] || {}).narrowsOffline);
  if (narrows) choices = narrowed(choices, checkedDraft, st.draft);
  if (this.offline) {
    facts.push(el("strong", { class: "rp-offline", text: t("Offline — entries are kept in this browser and checked when the network is back.") }));
    if (waiting > 0) facts.push(el("span", { class: "rp-waiting", text: nt("{n} entry is waiting to be checked.", "{n} entries are waiting to be checked.", waiting) }));
    if (narrows) {
      facts.push(el("span", { class: "rp-narrowed", text: t("The cards and values below leave out those entered since; who plays next is as before these entries: enter what happened, it is checked when the network is back.") }));
    } else if (waiting > 0 && !(this.panels[setup.game] || {}).narrowsOffline) {
      facts.push(el("span", { class: "rp-stale", text: t("The choices below are the ones from before these entries: enter what happened, it is checked when the network is back.") }));
    }
  }
  if (facts.length) main.appendChild(el("p", { class: "rp-sub rp-facts" }, facts));
  if (this.error) main.appendChild(this.errorNode(t("This draft breaks a rule:"), this.error, true));
  else if (this.refused) main.appendChild(this.errorNode(t("Refused:"), this.refused, false));
  this.refused = null;  // said once; the next render is the next entry's

  var panelBox = el("section", { class: "rp-panel", "aria-label": t("Entry") });
  var panel = this.panels[setup.game];
  var rec = {
    game: setup.game, mode: setup.mode, players: clone(setup.players), recordHands: Boolean(setup.recordHands),
    draft: clone(st.draft), choices: choices ? clone(choices) : null, result: result || null,
    steps: answer.steps || [], offline: this.offline, waiting: waiting,
    commit: function (mutate, label) { return self.commit(mutate, label); },
    ask: function (pending) { return self.ask(pending); },
    refresh: function () { self.renderPanel(self.panelBox, self.rec); }, // the box shown now
    helpers: { el: el, clear: clear, buildEntry: buildEntry, placeEntry: placeEntry },
  };
  this.panelBox = panelBox;
  this.rec = rec;
  this.renderPanel(panelBox, rec);
  var layout = el("div", { class: "rp-layout" });
  layout.appendChild(panelBox);
  var side = el("div", { class: "rp-side" });
  side.appendChild(this.tableBox(setup, answer));
  side.appendChild(this.notesBox(answer.steps || []));
  layout.appendChild(side);
  main.appendChild(layout);
};

// One message, once, in words (the server's: "Round 2, turn 3 — Bruno: …", 1-based), with
// "Undo" beside it when the draft itself breaks the rule; the code and the JSON Pointer only in
// the details.
Recorder.prototype.errorNode = function (prefix, error, undo) {
  var self = this;
  var line = error.words ? error.words.line : error.message;
  return el("div", { class: "rp-error rp-error-box", role: "alert" },
    el("p", null, el("strong", { text: prefix }), " ", el("span", { class: "rp-error-line", text: line }),
      undo && this.state.undo.length ? [" ", el("button", { type: "button", dataset: { act: "undo-error" },
        on: { click: function () { self.undo(); } } }, "↶ " + t("Undo"))] : null),
    el("details", { class: "error-details" }, el("summary", { text: t("Details") }),
      el("code", { text: error.code || "" }), " ", el("code", { text: error.path || "/" })));
};

Recorder.prototype.renderPanel = function (box, rec) {
  clear(box);
  var panel = this.panels[rec.game];
  if (!panel) { box.appendChild(el("p", { class: "rp-error", text: t("No entry panel for {game}.", { game: rec.game }) })); return; }
  if (!rec.choices && !rec.offline) { box.appendChild(el("p", { class: "rp-hint", text: t("Checking the draft…") })); return; }
  try { panel.renderPanel(box, rec); }
  catch (e) { if (window.console) window.console.error(e); box.appendChild(el("p", { class: "rp-error", text: t("The entry panel failed: {why}", { why: e.message }) })); }
};

Recorder.prototype.tableBox = function (setup, answer) {
  var box = el("section", { class: "rp-table", "aria-label": t("The table as checked") });
  var steps = answer.steps || [];
  var result = answer.result;
  if (result) {
    box.appendChild(el("p", { class: "rp-sub" }, el("span", { class: "badge status-" + result.status, text: statusWord(result.status) }),
      " · " + nt("{n} step", "{n} steps", steps.length)));
  }
  var renderer = this.renderers[setup.game];
  var stage = lastStage(renderer, steps, result, setup.players);
  if (stage) box.appendChild(stage);
  var scores = runningScores(renderer, steps, result, setup.players);
  if (scores) box.appendChild(scores);
  return box;
};

Recorder.prototype.notesBox = function (steps) {
  var list = el("ol", { class: "rp-notes", reversed: true });
  // a violation is said once, in words, above the panel
  steps.filter(function (s) { return s.kind !== "violation"; }).slice(-8).reverse().forEach(function (s) {
    list.appendChild(el("li", { value: String(s.index), class: "note kind-" + s.kind }, s.note));
  });
  return el("section", { class: "rp-box", "aria-label": t("Step notes") }, el("h3", { class: "rp-head", text: t("Latest steps") }), list);
};

// ---------------------------------------------------------------------------------------------

// the parts in their own modules (record-share.js, record-setup.js, record-end.js)
Object.assign(Recorder.prototype, { setupForm: setupForm, endScreen: endScreen, saveDraft: saveDraft,
  autosave: autosave, handoff: handoff, continueForm: continueForm });
