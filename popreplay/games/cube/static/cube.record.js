/*
 * cube entry panel for the recorder (contract: see the top of static/record.js).
 *
 * What can be entered comes from the engine (`choices` of the draft, popreplay/engine/games/cube/
 * choices.py), asked again with `pending` while an entry is being built (each drawn card, so that
 * a reshuffle is the engine's business, and the lay once the draw is whole):
 *   - the deal: 5 cards per player, each a kind button or "unseen" ("rest unseen" fills a hand);
 *   - a turn: its draw card by card; the CUBE cards it lays are the engine's answer (no tap when
 *     the hand is known; with unseen cards, the recorder taps what was laid, then "Done");
 *   - a card played: the card (kind buttons of the current hand), then what the engine says it
 *     needs — the step, the target, the card taken, the colour given — a field with one possible
 *     value is filled in without a tap;
 *   - the surplus discard at the end of a turn, and the F.M.C. show.
 * Copies of a kind are interchangeable: a kind button enters its first free copy. "Copy numbers"
 * shows one button per copy instead, for a log that tracks them. F.M.C.-marked copies always have a
 * button of their own (the engine groups them apart).
 */
import { nt, t } from "../i18n.js"; // the page's language

var NAMES = { "LOOK-AHEAD": "Look Ahead", "ONE-HAND": "One Hand", "BLIND-SOLVE": "Blind Solve",
  "CORNER-TWIST": "Corner Twist", POP: "Pop", SCRAMBLE: "Scramble", PB: "Personal Best",
  WR: "World Record", DNF: "DNF", SKIP: t("skip") };
var CUBE = { CROSS: 1, F2L: 1, OLL: 1, PLL: 1 };
var COLOUR = { WHITE: 1, YELLOW: 1, ORANGE: 1, GREEN: 1, RED: 1, BLUE: 1, SKIP: 1 };
var GAME = { "LOOK-AHEAD": 1, "ONE-HAND": 1, "BLIND-SOLVE": 1, "CORNER-TWIST": 1, POP: 1, SCRAMBLE: 1 };
var DEAL = 5;

var ui = null; // the entry being built
var copies = false; // one button per copy instead of per kind

function reset() { ui = null; }

function kindOf(card) { return card.replace(/-\d+$/, ""); }

function cardClass(key) {
  var kind = kindOf(key);
  if (CUBE[key] || CUBE[kind]) return "cb-cube";
  if (COLOUR[key] || COLOUR[kind]) return "cb-colour cb-" + (COLOUR[key] ? key : kind).toLowerCase();
  if (GAME[key] || GAME[kind]) return "cb-game";
  return "cb-timer";
}

function label(key) { return NAMES[key] || (NAMES[kindOf(key)] ? NAMES[kindOf(key)] + " " + key.slice(kindOf(key).length + 1) : key); }

function box(h, cls, title) {
  return h.el("section", { class: "rp-box " + cls, "aria-label": title }, h.el("h3", { class: "rp-head", text: title }));
}

// Kind buttons (or copy buttons) for a {key: [ids]} group from the engine. `taken`: ids already
// tapped for this entry (not offered again).
function cardGrid(h, groups, act, onPick, taken) {
  var grid = h.el("div", { class: "rp-row cr-cards", role: "group", "aria-label": t("Cards") });
  taken = taken || [];
  Object.keys(groups).forEach(function (key) {
    var ids = groups[key].filter(function (id) { return taken.indexOf(id) < 0; });
    var list = copies && ids.length > 1 ? ids.map(function (id) { return [id, [id]]; }) : [[key, ids]];
    list.forEach(function (entry) {
      var free = entry[1];
      grid.appendChild(h.el("button", { type: "button", class: "rp-key cr-card cb-card " + cardClass(entry[0]),
        disabled: !free.length, dataset: { act: act, kind: entry[0], card: free[0] || "" },
        "aria-label": label(entry[0]) + (free.length > 1 ? ", " + nt("{n} copy", "{n} copies", free.length) : ""),
        on: { click: function () { onPick(free[0]); } } },
        label(entry[0]), free.length > 1 ? h.el("span", { class: "cr-n", text: "×" + free.length }) : null));
    });
  });
  return grid;
}

function unseenButton(h, act, onPick, text) {
  return h.el("button", { type: "button", class: "rp-key cr-unseen", dataset: { act: act },
    on: { click: function () { onPick(null); } } }, text || t("unseen"));
}

function lastTurnEvents(log) {
  var turn = log.turns[log.turns.length - 1];
  turn.events = turn.events || [];
  return turn.events;
}

// --- the deal ----------------------------------------------------------------------------------

function dealBox(h, rec, deal) {
  ui = ui && ui.mode === "deal" ? ui : { mode: "deal", hands: {} };
  var hands = ui.hands;
  var who = null;
  deal.players.forEach(function (name) { if (!who && (hands[name] || []).length < deal.count) who = name; });
  var taken = [];
  Object.keys(hands).forEach(function (n) { hands[n].forEach(function (c) { if (c) taken.push(c); }); });
  var b = box(h, "cr-deal", who ? t("The deal: {player}’s card {n} of {count}", { player: who, n: (hands[who] || []).length + 1, count: deal.count }) : t("The deal"));
  b.appendChild(h.el("dl", { class: "kv cr-dealt" }, deal.players.map(function (name) {
    return [h.el("dt", { text: name }), h.el("dd", { text: (hands[name] || []).map(function (c) { return c || t("unseen"); }).join(", ") || "—" })];
  })));
  function after() {
    var full = deal.players.every(function (name) { return (hands[name] || []).length >= deal.count; });
    if (!full) { rec.refresh(); return; }
    reset();
    rec.commit(function (log) { log.deal = hands; log.turns = log.turns || []; }, t("The deal"));
  }
  function add(card) { hands[who] = (hands[who] || []).concat([card]); after(); }
  b.appendChild(cardGrid(h, deal.cards, "deal", add, taken));
  b.appendChild(h.el("div", { class: "rp-row" }, unseenButton(h, "deal-unseen", add),
    h.el("button", { type: "button", class: "rp-key cr-rest", dataset: { act: "deal-rest" },
      on: { click: function () {
        var hand = hands[who] || [];
        while (hand.length < DEAL) hand = hand.concat([null]);
        hands[who] = hand; after();
      } } }, t("rest of {player}’s hand unseen", { player: who }))));
  return b;
}

// --- a turn's start: the draw, then the lay ----------------------------------------------------

function commitTurn(rec, building, cards) {
  var entry = { player: building.player };
  if (building.draw.length) entry.draw = building.draw;
  if (cards.length) entry.lay = cards;
  reset();
  rec.commit(function (log) { log.turns.push(entry); }, entry.lay
    ? t("{player}’s turn: lays {cards}", { player: entry.player, cards: entry.lay.join(", ") }) : t("{player}’s turn", entry));
}

// Each drawn card goes to the engine with the draw so far: it answers the next card's choices,
// or, the draw being whole, the lay (entered at once when no unseen card could be a CUBE card).
function drawn(rec, building, card) {
  if (card !== undefined) building.draw = building.draw.concat([card]);
  building.answer = null;
  ui = building;
  rec.refresh();
  rec.ask({ player: building.player, draw: building.draw }).then(function (answer) {
    if (ui !== building) return;
    building.unasked = !answer;  // offline: asked again when the network is back
    var lay = answer && answer.next && answer.next.lay;
    if (lay && !lay.hidden) { commitTurn(rec, building, lay.cards); return; }
    building.answer = answer;
    rec.refresh();
  });
}

// A draw built card by card needs the engine's answer for its next card: offline there is none,
// so the panel says it waits, and asks again once the network is back (the frame re-renders).
function waiting(h, rec, entry, again) {
  if (entry.unasked && !rec.offline) { entry.unasked = false; window.setTimeout(again, 0); }
  return h.el("p", { class: "rp-hint cr-wait", text: entry.unasked
    ? t("Offline: the rest of this draw is offered when the network is back.") : t("Checking…") });
}

function turnBox(h, rec, turn) {
  var building = ui && ui.mode === "turn" ? ui : null;
  var b = box(h, "cr-turn", t("{player}’s turn: draws {count}", turn));
  if (!building) {
    var start = function (card) { drawn(rec, { mode: "turn", player: turn.player, draw: [] }, card); };
    if (turn.count === 0) {
      b.appendChild(h.el("button", { type: "button", class: "rp-big", dataset: { act: "turn-start" },
        on: { click: function () { start(); } } }, t("Start {player}’s turn (nothing to draw)", turn)));
    } else {
      b.appendChild(cardGrid(h, turn.cards, "draw", start));
      b.appendChild(h.el("div", { class: "rp-row" }, unseenButton(h, "draw-unseen", start)));
    }
    return b;
  }
  var answer = building.answer;
  b.appendChild(h.el("p", { class: "rp-sub", text: t("Drawn: {cards}", { cards: building.draw.map(function (c) { return c || t("unseen"); }).join(", ") || "—" }) }));
  if (!answer) { b.appendChild(waiting(h, rec, building, function () { drawn(rec, building); })); return b; }
  if (answer.error) { b.appendChild(h.el("p", { class: "rp-error", text: answer.error.message })); return b; }
  var next = answer.next || {};
  if (next.draw) {
    var add = function (card) { drawn(rec, building, card); };
    b.appendChild(cardGrid(h, next.draw.cards, "draw", add));
    b.appendChild(h.el("div", { class: "rp-row" }, unseenButton(h, "draw-unseen", add)));
    return b;
  }
  var lay = next.lay;
  building.laid = building.laid || [];
  var noKnown = t("no known card"), noneLaid = t("none"); // (pybabel skips a t() inside a t())
  b.appendChild(h.el("p", { class: "rp-hint", text: t("{player} lays {cards}. Also laid from the unseen cards:", { player: turn.player, cards: lay.cards.join(", ") || noKnown }) }));
  b.appendChild(cardGrid(h, lay.may, "lay", function (card) { building.laid = building.laid.concat([card]); rec.refresh(); }, building.laid));
  b.appendChild(h.el("p", { class: "rp-sub", text: t("Laid from unseen: {cards}", { cards: building.laid.join(", ") || noneLaid }) }));
  b.appendChild(h.el("button", { type: "button", class: "rp-big primary", dataset: { act: "lay-done" },
    on: { click: function () { commitTurn(rec, building, lay.cards.concat(building.laid)); } } }, t("Done")));
  return b;
}

// --- a card played -----------------------------------------------------------------------------

function playEvent(rec, event, text) {
  reset();
  rec.commit(function (log) { lastTurnEvents(log).push(event); }, text);
}

function choiceRow(h, items, act, onPick) {
  var row = h.el("div", { class: "rp-row cr-choices", role: "group" });
  items.forEach(function (item) {
    row.appendChild(h.el("button", { type: "button", class: "rp-key cr-choice",
      dataset: { act: act, value: item.value === null ? "" : String(item.value) },
      on: { click: function () { onPick(item.value); } } }, item.text));
  });
  return row;
}

function items(list) { return list.map(function (v) { return { value: v, text: v }; }); }

// The next field of a card being played, from the engine's options for it: {act, title, items,
// apply(value)}, or null when the event is whole.
function nextField(e, option) {
  var ev = e.event, kind = kindOf(e.card);
  if (option.steps && !option.targets) {
    if (ev.step !== undefined) return null;
    return { act: "step", title: t("On which step?"), items: items(option.steps), apply: function (v) { ev.step = v; } };
  }
  if (option.give && ev.give === undefined) {
    var gives = [];
    Object.keys(option.give).forEach(function (k) {
      (copies ? option.give[k] : option.give[k].slice(0, 1)).forEach(function (id) {
        gives.push({ value: id, text: copies ? id : label(k) });
      });
    });
    return { act: "give", title: t("Which COLOUR card is given?"), items: gives, apply: function (v) { ev.give = v; } };
  }
  if (ev.target === undefined) {
    return { act: "target", title: t("Which opponent?"), items: items(Object.keys(option.targets)), apply: function (v) { ev.target = v; } };
  }
  var tg = option.targets[ev.target];
  if (kind === "DNF" || kind === "POP") {
    if (ev.step !== undefined) return null;
    return { act: "step", title: t("{player}’s step:", { player: ev.target }), items: items(tg.steps), apply: function (v) { ev.step = v; } };
  }
  if (kind === "CORNER-TWIST") {
    if (ev.take !== undefined) return null;
    var twists = [];
    Object.keys(tg.colours).forEach(function (st) {
      tg.colours[st].forEach(function (c) { twists.push({ value: st + "|" + c, text: st + ": " + c }); });
    });
    return { act: "twist", title: t("Which colour, from which step?"), items: twists,
      apply: function (v) { ev.step = v.split("|")[0]; ev.take = [v.split("|")[1]]; } };
  }
  if (ev.take !== undefined) return null;
  if (kind === "SCRAMBLE") {  // every colour they hold: the known ones, and how many unseen
    var counts = [];
    var colours = tg.known.join(", ") || t("no known colour");
    for (var n = tg.known.length; n <= tg.known.length + tg.hidden; n++) counts.push({ value: n, text: t("{n} in all", { n: n }) });
    return { act: "scramble-count", title: (tg.hidden ? t("Takes {colours}, and unseen ones: how many colours in all?", { colours: colours })
      : t("Takes {colours}", { colours: colours })),
      items: counts, apply: function (v) { ev.take = tg.known.concat(new Array(v - tg.known.length).fill(null)); } };
  }
  // One Hand (any card) and Blind Solve (a COLOUR card): what was taken, if anything.
  var takes = items(tg.known);
  if (tg.hidden) takes.push({ value: null, text: t("an unseen card") });
  Object.keys(tg.may || {}).forEach(function (k) {  // a card from an unseen slot, named
    (copies ? tg.may[k] : tg.may[k].slice(0, 1)).forEach(function (id) {
      takes.push({ value: id, text: copies ? id : label(k) });
    });
  });
  if (kind === "BLIND-SOLVE" && !tg.known.length) takes.push({ value: "none", text: t("no colour") });
  if (!takes.length) takes.push({ value: "none", text: t("nothing (empty hand)") });
  return { act: "take", title: t("What was taken?"), items: takes,
    apply: function (v) { ev.take = v === "none" ? [] : [v]; } };
}

// After a tap: fill every field that has one possible value, then commit or show the next field.
function advance(rec, e, option, play) {
  var field = nextField(e, option);
  while (field && field.items.length === 1) { field.apply(field.items[0].value); field = nextField(e, option); }
  if (!field) {
    var ev = e.event;
    var what = { player: play.player, card: e.card, target: ev.target, step: ev.step };
    playEvent(rec, ev, ev.target ? (ev.step ? t("{player} plays {card} on {target}’s {step}", what) : t("{player} plays {card} on {target}", what))
      : ev.step ? t("{player} plays {card} on {step}", what) : t("{player} plays {card}", what));
    return;
  }
  rec.refresh();
}

function playBox(h, rec, play) {
  var b = box(h, "cr-play", t("{player} plays a card", play));
  var e = ui && ui.mode === "play" ? ui : null;
  if (!e) {
    var groups = {};
    Object.keys(play.cards).forEach(function (key) { groups[key] = play.cards[key].cards; });
    b.appendChild(cardGrid(h, groups, "play", function (card) {
      var key = Object.keys(play.cards).filter(function (k) { return play.cards[k].cards.indexOf(card) >= 0; })[0];
      var option = play.cards[key];
      ui = { mode: "play", card: card, key: key, event: { play: card } };
      if (option.draw !== undefined) { ui.drawn = []; lookMore(rec, ui, option, play); return; }
      advance(rec, ui, option, play);
    }));
    if (!Object.keys(play.cards).length) b.appendChild(h.el("p", { class: "rp-hint", text: t("No card in hand can be played now.") }));
    return b;
  }
  var option = play.cards[e.key];
  b.appendChild(h.el("p", { class: "rp-sub" }, t("Card: {card}", e) + " ",
    h.el("button", { type: "button", class: "link", dataset: { act: "play-cancel" },
      on: { click: function () { reset(); rec.refresh(); } } }, t("change"))));
  if (option.draw !== undefined) return lookAhead(h, rec, b, e, option, play);
  var field = nextField(e, option);
  if (!field) return b;
  b.appendChild(h.el("div", { class: "rp-sub", text: field.title }));
  b.appendChild(choiceRow(h, field.items, field.act, function (v) { field.apply(v); advance(rec, e, option, play); }));
  return b;
}

// Look Ahead's draw, card by card through the engine (a reshuffle may come in between).
function lookMore(rec, e, option, play, card) {
  if (card !== undefined) e.drawn = e.drawn.concat([card]);
  if (e.drawn.length >= option.draw) {
    e.event.draw = e.drawn;
    playEvent(rec, e.event, t("{player} plays {card}", { player: play.player, card: e.card }));
    return;
  }
  e.answer = null;
  rec.refresh();
  rec.ask({ play: e.card, draw: e.drawn }).then(function (answer) {
    if (ui !== e) return;
    e.unasked = !answer;  // offline: asked again when the network is back
    e.answer = answer;
    rec.refresh();
  });
}

function lookAhead(h, rec, b, e, option, play) {
  function more(card) { lookMore(rec, e, option, play, card); }
  b.appendChild(h.el("p", { class: "rp-sub", text: t("Look Ahead draws: {cards}", { cards: e.drawn.map(function (c) { return c || t("unseen"); }).join(", ") || "—" }) }));
  var answer = e.answer;
  if (!answer) { b.appendChild(waiting(h, rec, e, function () { lookMore(rec, e, option, play); })); return b; }
  if (answer.error || !answer.next.draw) { b.appendChild(h.el("p", { class: "rp-error", text: (answer.error || {}).message || "" })); return b; }
  b.appendChild(cardGrid(h, answer.next.draw.cards, "draw", more));
  b.appendChild(h.el("div", { class: "rp-row" }, unseenButton(h, "draw-unseen", more)));
  return b;
}

// --- the end of a turn: surplus; the F.M.C. ----------------------------------------------------

function discardBox(h, rec, discard) {
  var building = ui && ui.mode === "discard" ? ui : { mode: "discard", cards: [] };
  var b = box(h, "cr-discard", t("{player} discards {count} (hand over 10)", discard));
  b.appendChild(cardGrid(h, discard.cards, "discard", function (card) {
    var cards = building.cards.concat([card]);
    if (cards.length === discard.count) {
      playEvent(rec, { discard: cards }, t("{player} discards {cards}", { player: discard.player, cards: cards.join(", ") }));
    } else { ui = { mode: "discard", cards: cards }; rec.refresh(); }
  }, building.cards));
  return b;
}

// Has the draft's deal a card someone saw? (The first draft deals every card unseen.)
function dealSeen(log) {
  var deal = log.deal || {};
  return Object.keys(deal).some(function (name) { return deal[name].some(function (c) { return c !== null; }); });
}

// The first draft: every player dealt 5 unseen cards, no turn yet (the deal is entered first).
function start(setup) {
  var deal = {};
  setup.players.forEach(function (name) { deal[name] = [null, null, null, null, null]; });
  var log = { format: "popreplay/1", game: "cube", mode: setup.mode, players: setup.players.slice() };
  if (setup.meta && Object.keys(setup.meta).length) log.meta = setup.meta;
  log.deal = deal;
  log.turns = [];
  return log;
}

function renderPanel(container, rec) {
  var h = rec.helpers;
  var answer = rec.choices || {};
  var next = answer.next || {};
  container.appendChild(h.el("label", { class: "rp-check cr-copies" },
    h.el("input", { type: "checkbox", checked: copies, dataset: { act: "copies" },
      on: { change: function (ev) { copies = ev.target.checked; rec.refresh(); } } }), " " + t("Copy numbers")));
  var building = ui ? ui.mode : null;
  if (next.deal && (building === "deal" || (!building && !dealSeen(rec.draft)))) {
    container.appendChild(dealBox(h, rec, next.deal));
    building = "deal";
  }
  // Any player holding the six marked cards may show them, in any turn (the engine lists them).
  var shows = next.shows || (next.show ? [next.show] : []);
  if (shows.length && !building) {
    var fmc = h.el("section", { class: "rp-box cr-fmc", "aria-label": "F.M.C." });
    shows.forEach(function (show) {
      fmc.appendChild(h.el("button", { type: "button", class: "rp-big", dataset: { act: "fmc", player: show.player }, on: { click: function () {
        var cards = show.marks.map(function (m) { return m.cards[0]; });
        var event = { show: cards };
        if (show.player !== answer.current) event.player = show.player;  // out of turn
        playEvent(rec, event, t("{player} shows the F.M.C.", show));
      } } }, t("{player} shows the F.M.C.!", show)));
    });
    container.appendChild(fmc);
  }
  if (next.discard && (!building || building === "discard")) container.appendChild(discardBox(h, rec, next.discard));
  if (next.play && (!building || building === "play")) container.appendChild(playBox(h, rec, next.play));
  if (next.turn && (!building || building === "turn")) container.appendChild(turnBox(h, rec, next.turn));
  if (answer.over) container.appendChild(h.el("p", { class: "rp-done", role: "status", text: t("The game is over.") }));
}

export { renderPanel, reset, start };
