/*
 * The table page's entry panel and checked table (docs/table.md): for a game whose drafts the
 * engine offers `choices` for, the recorder's own entry panel (the kit's panel module, its contract
 * in recorder.js) is drawn with the draft as this seat sees it; what it commits is turned into
 * `place` entries (table-diff.js) and sent (table-send.js); the checked table is drawn by the
 * game's renderer module from /api/v1/record/check's latest steps.
 */
import { clear, el } from "./dom.js";
import { lang, t } from "./i18n.js";
import { lastStage, runningScores } from "./last-step.js";
import { clone, dealt, diff, withDeal } from "./table-diff.js";
import { send } from "./table-send.js";
import { S, status } from "./table-state.js";
import { keepsHere } from "./table-keeper.js";

var games = { panels: {}, renderers: {} };  // the kits' modules (games.js), set by table.js

export function useGames(found) { games = found; }

// the game's replay renderer module (null: none)
export function rendererOf(game) { return games.renderers[game] || null; }

// the game's panel module ({}: none)
export function panelOf(game) { return games.panels[game] || {}; }

// Whose move it is: the engine's `current` player (cube, Bloops), else none.
export function mover(choices) { return (choices && choices.current) || null; }

// a game whose panel says `oneRecorder` (no turns: every phone sees the same flips) is recorded by
// one phone, the table's keeper (table-keeper.js: the host names it, a seat takes over); the
// others watch
export function oneRecorder(game) { return !!(games.panels[game] || {}).oneRecorder; }

var panelBox = null, panelRec = null, openFold = false;

export function panelSection() {
  var me = S.view.you.player;
  var panel = games.panels[S.view.game];
  var box = el("section", { class: "rp-box tb-panel", dataset: { act: "panel", game: S.view.game }, "aria-labelledby": "tb-panel-h" });
  if (!panel) return null;
  if (!me && S.view.you.role !== "host") return null;  // a spectator enters nothing
  var now = mover(S.view.choices);
  var one = oneRecorder(S.view.game);
  var theirs = !!(now && me && now !== me && !S.view.over && !one);
  if (one && !keepsHere()) return null;  // another phone records: the keeper's box says which
  var title = S.view.over ? t("The game is over.") : one ? t("This phone records the game (the others watch).")
    : theirs ? t("{name} to play: waiting", { name: now }) : t("Your move");
  box.appendChild(el("h2", { id: "tb-panel-h", class: "rp-head", text: title }));
  var inner = el("div", { class: "tb-panel-body" });
  var draft = clone(S.view.log), choices = clone(S.view.choices) || {};
  if (me && S.view.private && !dealt(S.view.log, me)) {
    // the seat's own hand only: the panel's deal asks for this player alone
    if (choices.next && choices.next.deal) choices.next.deal.players = [me];
    if (panel.forOneSeat) panel.forOneSeat(draft, choices, me);
  }
  panelRec = {
    game: S.view.game, mode: S.view.mode, players: me && S.view.private ? [me] : clone(S.view.players),
    recordHands: !!S.view.hands_recorded || S.view.private, draft: draft, choices: choices,
    result: S.view.result, steps: (S.checked && S.checked.steps) || [], offline: false,
    commit: function (mutate, label) { return commit(panel, draft, mutate, label); },
    ask: function (pending) { return askPending(pending); },
    refresh: function () { drawPanel(panel, inner, panelRec); },
    helpers: { el: el, clear: clear },
  };
  panelBox = inner;
  drawPanel(panel, inner, panelRec);
  // another player's move is that seat's to enter (its cards stay its own): the panel is folded,
  // open for what anyone may enter out of turn (a counter-discard, an F.M.C. show, a rearrangement)
  if (theirs) {
    var fold = el("details", { class: "tb-other", open: !!openFold || null,
      on: { toggle: function () { openFold = fold.open; } } },
      el("summary", { dataset: { act: "out-of-turn" }, text: t("Enter a move out of turn (or for {name})", { name: now }) }), inner);
    box.appendChild(fold);
    box.dataset.theirs = "1";
  } else box.appendChild(inner);
  return box;
}

function drawPanel(panel, node, rec) {
  clear(node);
  try { panel.renderPanel(node, rec); }
  catch (e) { node.appendChild(el("p", { class: "rp-error", text: t("The entry panel failed: {why}", { why: e.message }) })); }
}

function commit(panel, draft, mutate, label) {
  var next = clone(draft);
  var changed = mutate(next);
  if (changed && typeof changed === "object") next = changed;
  var entries = withDeal(diff(S.view.log, next, "", []), S.view.players);
  if (!entries.length) return Promise.resolve(true);
  return new Promise(function (resolve) {
    var left = entries.length, ok = true;
    entries.forEach(function (entry, i) {
      send(entry, "panel:" + S.view.seq + ":" + i, function (kept) {
        ok = ok && kept;
        if (--left === 0) {
          if (ok) { if (panel.reset) panel.reset(); openFold = false; said(label); }
          resolve(ok);
        }
      });
    });
  });
}

// what was just sent, said for three seconds (never left as a stale line under the title)
function said(label) {
  var text = label ? t("Sent: {what}", { what: label }) : "";
  status(text);
  if (text) setTimeout(function () { var line = document.getElementById("tb-status"); if (line.textContent === text) status(""); }, 3000);
}

function askPending(pending) {
  return fetch("/api/v1/record/check", { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json", "Accept-Language": lang },
    body: JSON.stringify({ log: S.view.log, pending: pending || null, steps: "none" }) })
    .then(function (r) { return r.json(); })
    .then(function (a) { return a.choices || { error: { message: a.message || "", path: "" }, next: {} }; })
    .catch(function () { return null; });
}

// the checked table, drawn by the game's replay renderer from the latest steps
export function checkedBox() {
  var box = el("section", { class: "rp-box tb-checked", dataset: { act: "checked" }, "aria-labelledby": "tb-now-h" },
    el("h2", { id: "tb-now-h", class: "rp-head", text: t("The table") }));
  var renderer = games.renderers[S.view.game];
  var steps = (S.checked && S.checked.steps) || [];
  var result = (S.checked && S.checked.result) || S.view.result;
  var stage = lastStage(renderer, steps, result, S.view.players);
  var step = steps[steps.length - 1];
  if (stage) {
    box.appendChild(stage);
    if (step.note) box.appendChild(el("p", { class: "rp-sub tb-note", dataset: { act: "note" }, text: step.note }));
  } else box.appendChild(el("p", { class: "rp-hint", text: t("Nothing entered yet.") }));
  var scores = runningScores(renderer, steps, result, S.view.players);
  if (scores) box.appendChild(scores);
  if (S.view.over) box.appendChild(el("p", { class: "rp-done", text: t("The game is over.") }));
  return box;
}
