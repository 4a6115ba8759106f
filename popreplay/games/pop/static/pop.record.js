/*
 * POP! entry panel for the recorder (contract: see the top of static/record.js and
 * docs/recorder.md).
 *
 * What can be entered comes from the engine (`choices` of the draft, popreplay/engine/games/pop/
 * choices.py): the next entry (a round's layout and hands, a turn, the kept cards), its slots in
 * tapping order (whose card, how many, where it goes in the entry) and, asked again after every
 * tap with the cards tapped so far as `pending`, the cards the current slot can take. The panel
 * greys out every other card and never decides a rule.
 *   - a turn: one tap per revealed card, player after player, then the Multicolour Chief's cards
 *     (and the draws of the 2-player variant and of solo); the entry is stored at its last tap:
 *     no confirmation. With hands recorded, a player's slot shows that player's hand.
 *   - a round: the layout row by row (a puzzle: rows chosen with − / +, "gap" for an empty
 *     place), then each hand when hands are recorded.
 *   - the kept cards at the end of a battle round without hands (optional, for the tie-break).
 */
import { nt, t } from "../i18n.js"; // the page's language

// display only: colour = number mod 5, each with a symbol so colour is never the only cue
var COLOURS = [
  { name: "purple", symbol: "◆" }, { name: "red", symbol: "●" }, { name: "yellow", symbol: "▲" },
  { name: "green", symbol: "■" }, { name: "blue", symbol: "★" },
];
var QUEUES = ["A", "B", "C", "D", "E"];

var ui = null; // {kind, cards: [], answer, rows, asking}

function reset() { ui = null; }

function start(setup) {
  var log = { format: "popreplay/1", game: "pop", mode: setup.mode, players: setup.players };
  if (Object.keys(setup.options || {}).length) log.options = setup.options;
  if (setup.meta && Object.keys(setup.meta).length) log.meta = setup.meta;
  log.rounds = [];
  return log;
}

function setupForm(container, setup, h) {
  if (setup.mode === "solo") {
    setup.options.difficulty = 1;
    var select = h.el("select", { id: "pop-difficulty", on: { change: function (ev) { setup.options.difficulty = Number(ev.target.value); } } },
      [1, 2, 3, 4].map(function (d) { return h.el("option", { value: String(d), text: d + " (" + nt("{n} starting row", "{n} starting rows", d) + ")" }); }));
    container.appendChild(h.el("div", { class: "rp-field" }, h.el("label", { for: "pop-difficulty", text: t("Difficulty") }), select));
  }
  if (setup.mode === "battle") {
    container.appendChild(h.el("label", { class: "rp-check" },
      h.el("input", { type: "checkbox", id: "pop-variant", on: { change: function (ev) {
        if (ev.target.checked) setup.options.two_player_variant = true; else delete setup.options.two_player_variant;
      } } }), " " + t("2-player variant (each player draws 1 and plays 2 a turn)")));
  }
}

function slotTitle(slot) {
  var n = slot.count;
  var p = { player: slot.player };
  switch (slot.role) {
    case "layout": return nt("Layout, row {row} ({n} card, queue A to E)", "Layout, row {row} ({n} cards, queue A to E)", n, { row: Number(slot.path.split("/").pop()) + 1 });
    case "hand": return nt("{player}’s hand ({n} card)", "{player}’s hand ({n} cards)", n, p);
    case "play": return nt("{player} reveals {n} card", "{player} reveals {n} cards", n, p);
    case "chief": return nt("The Multicolour Chief reveals {n} card", "The Multicolour Chief reveals {n} cards", n);
    case "draw": return nt("{player} draws {n} card", "{player} draws {n} cards", n, p);
    case "kept": return t("{player} keeps", p);
    default: return slot.role;
  }
}

// Where tap number k of the entry goes: slot index and place in it (counting, from the plan).
function locate(plan, k) {
  for (var i = 0; i < plan.slots.length; i++) {
    if (k < plan.slots[i].count) return { slot: i, at: k };
    k -= plan.slots[i].count;
  }
  return null;
}

function cardKey(h, n, enabled, onTap, extra) {
  var colour = COLOURS[n % 5];
  return h.el("button", { type: "button", class: "rp-key pr-key card c" + (n % 5) + (extra || ""), disabled: !enabled,
    "aria-label": n + " " + t(colour.name) + (enabled ? "" : " (" + t("not possible") + ")"), dataset: { act: "card", card: String(n) },
    on: { click: function () { onTap(n); } } },
    h.el("span", { class: "pr-sym", "aria-hidden": "true", text: colour.symbol }), String(n));
}

function entryPlan(rec, kind) {
  if (ui && ui.kind === kind && ui.answer && ui.answer.next && ui.answer.next[kind]) return ui.answer.next[kind];
  var plan = rec.choices && rec.choices.next ? rec.choices.next[kind] : null;
  return rec.offline && plan ? offlinePlan(rec, kind, plan) : plan;
}

// Offline: the turn the engine last offered (its slots and, per slot, the cards it could take:
// `may`), moved on by the turns the draft has entered since and narrowed by their cards — the
// engine's sets, less what was entered; no rule here. Past the round's last turn: null (the
// round's end is checked when the network is back).
function offlinePlan(rec, kind, plan) {
  if (kind !== "turn" || !plan.may) return plan;
  var r = Number(plan.at.split("/")[2]);
  var turns = ((rec.draft.rounds || [])[r] || {}).turns || [];
  var since = turns.slice(plan.turn - 1);
  if (!since.length) return plan;
  if (plan.turn + since.length > plan.last_turn) return null;
  var entered = {};
  since.forEach(function (turn) {
    ["plays", "draws"].forEach(function (key) {
      Object.keys(turn[key] || {}).forEach(function (name) { (turn[key][name] || []).forEach(function (c) { entered[c] = true; }); });
    });
    (turn.chief || []).forEach(function (c) { entered[c] = true; });
  });
  var played = {};  // what left a hand (or the pile) into the layout: plays and the Chief's cards
  since.forEach(function (turn) {
    Object.keys(turn.plays || {}).forEach(function (name) { (turn.plays[name] || []).forEach(function (c) { played[c] = true; }); });
    (turn.chief || []).forEach(function (c) { played[c] = true; });
  });
  return Object.assign({}, plan, { turn: plan.turn + since.length, filled: 0,
    may: plan.may.map(function (cards, i) {
      // a slot the engine says a draw joins (`joins`: the 2-player variant's card drawn before
      // the plays) also offers the cards those draws brought since, unless played since
      var joined = [];
      (plan.slots[i].joins || []).forEach(function (j) {
        since.forEach(function (turn) { joined = joined.concat(at(turn, plan.slots[j].path)); });
      });
      return sortedNumbers(cards.filter(function (c) { return !entered[c]; })
        .concat(joined.filter(function (c) { return !played[c]; })));
    }) });
}

function at(doc, path) {  // the list at a slot's path ("/draws/Alice") in a turn, or []
  var node = doc;
  path.split("/").slice(1).forEach(function (k) { node = node === undefined || node === null ? undefined : node[k]; });
  return Array.isArray(node) ? node : [];
}

function sortedNumbers(list) {
  var seen = {};
  return list.filter(function (c) { if (seen[c]) return false; seen[c] = true; return true; })
    .sort(function (x, y) { return x - y; });
}

// The cards tapped so far in the slots `indices` of this entry.
function slotCards(plan, cards, indices) {
  var out = [];
  var k = 0;
  plan.slots.forEach(function (s, i) {
    if (indices.indexOf(i) >= 0) out = out.concat(cards.slice(k, k + s.count));
    k += s.count;
  });
  return out;
}

// A turn's cards said slot by slot, in the order they were tapped: "Alice draws 19, Bruno draws
// 37; Alice plays 19, 49 …" (a card drawn then played in the 2-player variant shows twice, each
// time with what happened to it).
function turnWords(plan, cards) {
  var k = 0;
  var parts = [];
  plan.slots.forEach(function (slot) {
    var taken = cards.slice(k, k + slot.count);
    k += slot.count;
    if (!taken.length) return;
    var p = { player: slot.player, cards: taken.join(", ") };
    parts.push(slot.role === "draw" ? t("{player} draws {cards}", p) : slot.role === "chief" ? t("the Chief {cards}", p)
      : slot.role === "play" ? t("{player} {cards}", p) : taken.join(", "));
  });
  return parts.join(" · ");
}

function pending(rec, kind) {
  var p = { entry: kind, cards: ui.cards.slice() };
  if (kind === "round") { p.hands = rec.recordHands; if (ui.rows) p.rows = ui.rows; }
  return p;
}

function finish(rec, kind, plan) {
  var cards = ui.cards.slice();
  var entry = rec.helpers.buildEntry(plan, cards);
  var label = kind === "turn" ? t("Round {round}, turn {turn}:", plan) + " " + turnWords(plan, cards)
    : kind === "round" ? t("Round {round} dealt", plan) : t("Kept cards of round {round}", plan);
  ui.asking = true;
  rec.refresh();
  rec.commit(function (log) { return rec.helpers.placeEntry(log, plan, entry); }, label).then(function (kept) {
    if (!kept && ui) { ui.asking = false; ui.cards.pop(); ask(rec, kind); }
  });
}

function ask(rec, kind) {
  var mine = ui;
  mine.asking = true;
  rec.refresh();
  return rec.ask(pending(rec, kind)).then(function (answer) {
    if (ui !== mine) return;
    mine.asking = false;
    if (answer && answer.error) {
      mine.error = answer.error.message;
      mine.cards.pop();
      return ask(rec, kind);
    }
    mine.answer = answer; // null offline: the last plan stands, every card is offered
    var plan = answer ? answer.next[kind] : mine.plan || entryPlan(rec, kind);
    if (plan) mine.plan = plan;
    if (plan && (answer ? plan.done : mine.cards.length >= plan.total)) { finish(rec, kind, plan); return; }
    rec.refresh();
  });
}

function tap(rec, kind, card) {
  if (!ui || ui.kind !== kind) ui = { kind: kind, cards: [], answer: null, rows: ui && ui.kind === kind ? ui.rows : null };
  ui.error = null;
  var plan = freshPlan(rec, kind);
  ui.cards.push(card);
  // the engine's plan for the cards before this tap already had this card and this many slots:
  // the entry is whole, the check of the commit judges it (one request less at the last tap)
  if (plan && plan.total === ui.cards.length && plan.cards.indexOf(card) >= 0) { ui.plan = plan; finish(rec, kind, plan); return; }
  ask(rec, kind);
}

// The engine's plan for exactly the cards tapped so far, or null.
function freshPlan(rec, kind) {
  var plan = entryPlan(rec, kind);
  var filled = ui ? ui.cards.length : 0;
  return plan && !rec.offline && plan.filled === filled ? plan : null;
}

function entryBox(h, rec, kind, heading) {
  var building = ui && ui.kind === kind ? ui : null;
  var plan = building && building.plan ? building.plan : entryPlan(rec, kind);
  if (building && building.answer && building.answer.next[kind]) plan = building.answer.next[kind];
  if (!plan) return null;
  var cards = building ? building.cards : [];
  var box = h.el("section", { class: "rp-box pr-entry pr-" + kind, "aria-label": heading,
    dataset: { entry: kind, filled: String(cards.length) } });
  box.appendChild(h.el("h3", { class: "rp-head", text: heading }));
  if (plan.rows !== undefined) {
    var rows = building && building.rows ? building.rows : plan.rows;
    box.appendChild(h.el("div", { class: "rp-row pr-rows", role: "group", "aria-label": t("Rows in the puzzle layout") },
      h.el("span", { text: t("Layout rows: {n}", { n: rows }) }),
      h.el("button", { type: "button", dataset: { act: "rows-less" }, disabled: rows <= 1 || cards.length > 0, "aria-label": t("One row less"),
        on: { click: function () { ui = { kind: kind, cards: [], answer: null, rows: rows - 1 }; ask(rec, kind); } } }, "−"),
      h.el("button", { type: "button", dataset: { act: "rows-more" }, disabled: rows >= plan.max_rows || cards.length > 0, "aria-label": t("One row more"),
        on: { click: function () { ui = { kind: kind, cards: [], answer: null, rows: rows + 1 }; ask(rec, kind); } } }, "+")));
  }
  var where = locate(plan, cards.length);
  // the slots so far, with their cards
  var k = 0;
  var progress = h.el("ol", { class: "pr-slots" });
  plan.slots.forEach(function (slot, i) {
    var mine = cards.slice(k, k + slot.count);
    k += slot.count;
    var current = where && where.slot === i;
    progress.appendChild(h.el("li", { class: "pr-slot" + (current ? " rp-on" : ""), "aria-current": current ? "step" : null },
      h.el("span", { class: "pr-who", text: slotTitle(slot) }), " ",
      h.el("span", { class: "pr-got", text: mine.map(function (c) { return c === null ? t("gap") : String(c); }).join(" ") || (current ? "…" : "") })));
  });
  box.appendChild(progress);
  if (building && building.error) box.appendChild(h.el("p", { class: "rp-error", role: "alert", text: building.error }));
  if (!where) { box.appendChild(h.el("p", { class: "rp-hint", text: t("Checking the entry…") })); return box; }
  var slot = plan.slots[where.slot];
  var fresh = building && building.answer && building.answer.next[kind] && building.answer.next[kind].filled === cards.length;
  var offered = {};
  var known = !rec.offline && (fresh || cards.length === 0);
  var taken = {};
  cards.forEach(function (c) { taken[c] = true; });
  var list = known ? plan.cards : null;
  if (rec.offline && plan.may && plan.may[where.slot]) {  // what the engine last offered, narrowed
    var joins = slot.joins || [];  // a card drawn in this entry that this slot may take (the engine says so)
    var joined = slotCards(plan, cards, joins);
    var elsewhere = {};
    slotCards(plan, cards, plan.slots.map(function (_, i) { return i; }).filter(function (i) { return joins.indexOf(i) < 0; }))
      .forEach(function (c) { elsewhere[c] = true; });
    list = sortedNumbers(plan.may[where.slot].filter(function (c) { return !taken[c]; }).concat(joined))
      .filter(function (c) { return !elsewhere[c]; });
    known = true;
  }
  (list || []).forEach(function (c) { offered[c] = true; });
  var waiting = building && building.asking;
  box.dataset.ready = waiting ? "0" : "1";
  var title = slotTitle(slot) + (slot.count > 1 ? " — " + t("card {n} of {count}", { n: where.at + 1, count: slot.count }) : "");
  box.appendChild(h.el("p", { class: "pr-now", "aria-live": "polite" }, h.el("strong", { text: title })));
  function onTap(n) { tap(rec, kind, n); }
  var grid;
  if (slot.source === "hand" && known) {
    grid = h.el("div", { class: "rp-row pr-hand", role: "group", "aria-label": t("{player}’s hand", { player: slot.player }) },
      list.map(function (n) { return cardKey(h, n, !waiting, onTap, " pr-big"); }));
  } else {
    grid = h.el("div", { class: "pr-grid", role: "group", "aria-label": t("Cards 1 to 50") });
    for (var n = 1; n <= 50; n++) {
      var ok = !waiting && !taken[n] && (known ? Boolean(offered[n]) : true);
      grid.appendChild(cardKey(h, n, ok, onTap, ""));
    }
  }
  box.appendChild(grid);
  var row = h.el("div", { class: "rp-row" });
  if (slot.gaps) row.appendChild(h.el("button", { type: "button", class: "rp-big", dataset: { act: "gap" }, disabled: waiting,
    on: { click: function () { tap(rec, kind, null); } } }, t("Gap (no card here)")));
  if (cards.length) row.appendChild(h.el("button", { type: "button", dataset: { act: "back" }, disabled: waiting,
    on: { click: function () { ui.cards.pop(); ui.error = null; ask(rec, kind); } } }, "⌫ " + t("Back one card")));
  if (row.childNodes.length) box.appendChild(row);
  if (kind === "round" && slot.role === "layout") box.appendChild(h.el("p", { class: "rp-hint", text: t("Tap the layout from queue A (left) to E (right), top row first.") }));
  return box;
}

function renderPanel(container, rec) {
  var h = rec.helpers;
  var answer = rec.choices || {};
  var next = answer.next || {};
  if (answer.error && !rec.offline) return;  // the frame says it once, with "Undo" beside it
  if (rec.offline && !rec.choices) {
    container.appendChild(h.el("p", { class: "rp-hint", text: t("Offline before the first check: wait for the network to start this game.") }));
    return;
  }
  if (ui && ui.kind === "kept" && next.kept) { container.appendChild(entryBox(h, rec, "kept", t("Kept cards of round {round}", next.kept))); return; }
  // the kept cards belong to the round that ends: offered above the next round's deal
  if (next.kept && !rec.offline) {
    container.appendChild(h.el("div", { class: "rp-row" }, h.el("button", { type: "button", dataset: { act: "kept" },
      on: { click: function () { ui = { kind: "kept", cards: [], answer: null }; rec.refresh(); } } },
      t("Record the card each player kept (for a tie-break)"))));
  }
  var turnPlan = next.turn ? entryPlan(rec, "turn") : null;
  if (next.turn && !turnPlan) container.appendChild(h.el("p", { class: "rp-hint", text: t("The round's last turn is entered: the next round is offered once the entries are checked.") }));
  else if (next.turn) container.appendChild(entryBox(h, rec, "turn", t("Round {round}, turn {turn}", turnPlan)));
  else if (next.round) container.appendChild(entryBox(h, rec, "round", t("Round {round}: the deal", next.round)));
  if (answer.over) container.appendChild(h.el("p", { class: "rp-done", role: "status", text: t("The game is over: tap “Finish and store”.") }));
}

// At a table (docs/table.md) the server gathers POP!'s entries slot by slot (`view.gathering`, the
// kit's table.py): each slot and entry in words, and the table as entered so far.
export function slotName(slot) {
  if (slot.role === "layout") return t("Layout, row {row}", { row: slot.index + 1 });
  if (slot.role === "hand") return t("{name}'s hand", { name: slot.player });
  if (slot.role === "chief") return t("The Multicolour Chief");
  if (slot.role === "draw") return t("{name} draws", { name: slot.player });
  if (slot.role === "kept") return t("The card {name} kept", { name: slot.player });
  return t("{name} reveals", { name: slot.player });
}

// what nobody holds at a table, entered by its keeper (docs/table.md "Who may make which entry")
export function keptWords() { return t("the layout and the Multicolour Chief's cards"); }

export function entryName(kind, g) {
  if (kind === "round") return t("Round {round}: the deal", { round: g.round });
  if (kind === "turn") return t("Round {round}, turn {turn}", { round: g.round, turn: g.turn });
  return t("Round {round}: the cards kept", { round: g.round });
}

export function drawGathered(box, view, h) {
  var rounds = (view.log && view.log.rounds) || [];
  var rnd = rounds[rounds.length - 1];
  if (rnd) {
    box.appendChild(h.el("p", { class: "rp-sub", text: t("Round {round}: the layout", { round: rounds.length }) }));
    (rnd.layout || []).forEach(function (row) { box.appendChild(h.cards(row)); });
    var turn = (rnd.turns || [])[rnd.turns.length - 1];
    if (turn) {
      box.appendChild(h.el("p", { class: "rp-sub", text: t("Turn {turn} revealed", { turn: rnd.turns.length }) }));
      var list = h.el("ul", { class: "tb-revealed", dataset: { turn: String(rnd.turns.length) } });
      view.players.forEach(function (name) {
        list.appendChild(h.el("li", {}, name + ": " + ((turn.plays || {})[name] || []).join(", ")));
      });
      if (turn.chief) list.appendChild(h.el("li", {}, t("Chief: {cards}", { cards: turn.chief.join(", ") })));
      box.appendChild(list);
    }
  } else box.appendChild(h.el("p", { class: "rp-hint", text: t("Nothing dealt yet.") }));
}

export { renderPanel, reset, start, setupForm };
export var narrowsOffline = true;  // offline, the offers follow the entries (offlinePlan)
