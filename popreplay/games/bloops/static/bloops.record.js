/*
 * Bloops entry panel for the recorder (contract: see the top of static/record.js).
 *
 * What can be entered comes from the engine (`choices` of the draft, popreplay/engine/games/
 * bloops/choices.py): whose draw it is, the drawer's places, the counter-discard value to match,
 * the effect due and its targets, whether Bloops can be called, the values a card can still have
 * (the deck's counts) and the values already known. The panel offers only those; a value the log
 * already knows is filled in without a tap. "Unseen" enters a card nobody at the table saw
 * (a draw, a look, a given or penalty card): its value stays unknown until it is shown.
 * "Someone rearranges their cards…" enters a `rearrange`: the player, then "not seen" or the new
 * order tapped place by place.
 */
import { nt, t } from "../i18n.js";
import { placeWords } from "./bloops.js"; // the page's language

var ui = null; // the entry being built: {type, player, place?, target?, target_place?, value?}

function reset() { ui = null; }

// a place in words ("top-left card", "extra card 1"), as the replay and the notes say it (bloops.js)

function valuePad(h, rec, label, values, onPick, unseen) {
  var pad = h.el("div", { class: "rp-row br-values", role: "group", "aria-label": label });
  for (var v = 0; v <= 20; v++) {
    (function (value) {
      var ok = values.indexOf(value) >= 0;
      pad.appendChild(h.el("button", { type: "button", class: "rp-key br-value" + (value >= 10 && value <= 12 ? " br-star" : ""),
        disabled: !ok, dataset: { act: "value", value: String(value) },
        "aria-label": String(value) + (ok ? "" : " (" + t("all seen") + ")"),
        on: { click: function () { onPick(value); } } }, String(value)));
    })(v);
  }
  if (unseen) {
    pad.appendChild(h.el("button", { type: "button", class: "rp-key br-unseen", dataset: { act: "unseen" },
      on: { click: function () { onPick(null); } } }, t("unseen")));
  }
  return pad;
}

function box(h, cls, title) {
  return h.el("section", { class: "rp-box " + cls, "aria-label": title }, h.el("h3", { class: "rp-head", text: title }));
}

function push(rec, event, label) {
  var clean = {};
  Object.keys(event).forEach(function (k) { if (event[k] !== null && event[k] !== undefined) clean[k] = event[k]; });
  ui = null;
  rec.commit(function (log) { log.events.push(clean); }, label);
}

function placeButtons(h, places, act, onPick, chosen) {
  var row = h.el("div", { class: "rp-row br-places", role: "group", "aria-label": t("Places") });
  places.forEach(function (p) {
    row.appendChild(h.el("button", { type: "button", class: "rp-key br-place" + (chosen === p.place ? " rp-on" : ""),
      dataset: { act: act, place: String(p.place) },
      "aria-label": p.value === null ? t("{place}, not known", { place: placeWords(p.place) }) : t("{place}, a {value}", { place: placeWords(p.place), value: p.value }),
      on: { click: function () { onPick(p); } } },
      h.el("span", { class: "br-num", text: placeWords(p.place) }),
      h.el("span", { class: "br-val", text: p.value === null ? "?" : String(p.value) })));
  });
  return row;
}

function playerButtons(h, names, act, onPick, chosen) {
  var row = h.el("div", { class: "rp-row br-players", role: "group", "aria-label": t("Players") });
  names.forEach(function (name) {
    row.appendChild(h.el("button", { type: "button", class: "rp-big br-player" + (chosen === name ? " rp-on" : ""),
      dataset: { act: act, player: name }, on: { click: function () { onPick(name); } } }, name));
  });
  return row;
}

// --- the turn: draw, then keep or discard ------------------------------------------------------

function drawBox(h, rec, draw, values) {
  var b = box(h, "br-draw", t("{player} draws", draw));
  b.appendChild(h.el("p", { class: "rp-hint", text: t("The drawn card's value if you saw it, else unseen.") }));
  b.appendChild(valuePad(h, rec, t("Value of the drawn card"), values, function (value) {
    push(rec, { type: "draw", player: draw.player, value: value },
      value === null ? t("{player} draws", draw) : t("{player} draws a {value}", { player: draw.player, value: value }));
  }, true));
  return b;
}

function keepOrDiscardBox(h, rec, next, values) {
  var d = next.discard, k = next.keep;
  var b = box(h, "br-keep", t("{player} keeps or discards the drawn card", d));
  if (ui && ui.type === "discard") {
    b.appendChild(valuePad(h, rec, t("Value of the discarded card"), values, function (value) {
      push(rec, { type: "discard", player: d.player, value: value }, t("{player} discards a {value}", { player: d.player, value: value }));
    }, false));
    return b;
  }
  b.appendChild(h.el("button", { type: "button", class: "rp-big br-discard", dataset: { act: "discard" },
    on: { click: function () {
      if (d.value !== null) push(rec, { type: "discard", player: d.player, value: d.value }, t("{player} discards a {value}", d));
      else { ui = { type: "discard" }; rec.refresh(); }
    } } }, t("Discard it") + (d.value === null ? "" : " (" + d.value + ")")));
  b.appendChild(h.el("div", { class: "rp-sub", text: t("or keep it in place…") }));
  b.appendChild(placeButtons(h, k.places, "keep", function (p) {
    if (p.value !== null) {
      push(rec, { type: "keep", player: k.player, place: p.place, value: p.value },
        t("{player} keeps it as their {place}, discarding a {value}", { player: k.player, place: placeWords(p.place), value: p.value }));
    } else { ui = { type: "keep", place: p.place }; rec.refresh(); }
  }, ui && ui.type === "keep" ? ui.place : null));
  if (ui && ui.type === "keep") {
    b.appendChild(valuePad(h, rec, t("Value of the card discarded (the {place})", { place: placeWords(ui.place) }), values, function (value) {
      push(rec, { type: "keep", player: k.player, place: ui.place, value: value },
        t("{player} keeps it as their {place}, discarding a {value}", { player: k.player, place: placeWords(ui.place), value: value }));
    }, false));
  }
  return b;
}

// --- counter-discards --------------------------------------------------------------------------

function counterBox(h, rec, counter, values) {
  var b = box(h, "br-counter", t("Counter-discard on the {value}", { value: counter.top }));
  var building = ui && ui.type === "counter" ? ui : { type: "counter" };
  b.appendChild(h.el("div", { class: "rp-sub", text: t("Who shows a card?") }));
  // The value shown: a match is discarded (done); otherwise the engine draws a penalty card,
  // whose value the panel asks for (the matching value is the engine's `counter.top`).
  function shown(place, value) {
    var event = { type: "counter", player: building.player, place: place, value: value };
    var label = t("{player} counter-discards a {value}: their {place}", { player: building.player, value: value, place: placeWords(place) });
    if (value === counter.top || !counter.penalty) { push(rec, event, label); return; }
    ui = { type: "counter", player: building.player, place: place, value: value, penalty: true };
    rec.refresh();
  }
  b.appendChild(playerButtons(h, Object.keys(counter.places), "counter-player", function (name) {
    ui = { type: "counter", player: name }; rec.refresh();
  }, building.player));
  if (!building.player) return b;
  b.appendChild(placeButtons(h, counter.places[building.player], "counter-place", function (p) {
    if (p.value !== null) { shown(p.place, p.value); return; }
    ui = { type: "counter", player: building.player, place: p.place }; rec.refresh();
  }, building.place));
  if (building.place === undefined) return b;
  if (!building.penalty) {
    b.appendChild(valuePad(h, rec, t("Value shown (the {place})", { place: placeWords(building.place) }), values, function (value) {
      shown(building.place, value);
    }, false));
    return b;
  }
  b.appendChild(h.el("p", { class: "rp-hint", text: t("Not a {value}: {player} draws a penalty card. Its value, if seen:", { value: counter.top, player: building.player }) }));
  b.appendChild(valuePad(h, rec, t("Value of the penalty card"), values, function (value) {
    push(rec, { type: "counter", player: building.player, place: building.place, value: building.value,
      penalty: value }, t("{player} counter-discards a {value}: their {place}", { player: building.player, value: building.value, place: placeWords(building.place) }) + " (" + t("wrong") + ")");
  }, true));
  return b;
}

// --- effects -----------------------------------------------------------------------------------

function effectBox(h, rec, effect, values) {
  var names = { give: t("{player}’s {card}: {player} gives the top card of the pile", effect),
    look: t("{player}’s {card}: {player} looks at a card", effect), swap: t("{player}’s {card}: {player} swaps two cards", effect) };
  var b = box(h, "br-effect", names[effect.type]);
  var e = ui && ui.type === effect.type ? ui : { type: effect.type };
  function again(changes) { ui = Object.assign({}, e, changes); rec.refresh(); }
  if (effect.type === "give") {
    b.appendChild(playerButtons(h, effect.targets, "target", function (n) { again({ target: n }); }, e.target));
    if (e.target) {
      b.appendChild(h.el("p", { class: "rp-hint", text: t("The given card's value, if seen:") }));
      b.appendChild(valuePad(h, rec, t("Value of the given card"), values, function (value) {
        push(rec, { type: "give", player: effect.player, target: e.target, value: value },
          t("{player} gives a card to {target}", { player: effect.player, target: e.target }));
      }, true));
    }
  } else if (effect.type === "look") {
    b.appendChild(playerButtons(h, Object.keys(effect.targets), "target", function (n) { again({ target: n, place: undefined }); }, e.target));
    if (e.target) {
      b.appendChild(placeButtons(h, effect.targets[e.target], "target-place", function (p) {
        if (p.value !== null) {
          push(rec, { type: "look", player: effect.player, target: e.target, place: p.place },
            t("{player} looks at {target}’s {place}", { player: effect.player, target: e.target, place: placeWords(p.place) }));
        } else again({ place: p.place });
      }, e.place));
    }
    if (e.target && e.place !== undefined) {
      b.appendChild(h.el("p", { class: "rp-hint", text: t("The value, if you saw it:") }));
      b.appendChild(valuePad(h, rec, t("Value looked at"), values, function (value) {
        push(rec, { type: "look", player: effect.player, target: e.target, place: e.place, value: value },
          t("{player} looks at {target}’s {place}", { player: effect.player, target: e.target, place: placeWords(e.place) }));
      }, true));
    }
  } else {
    b.appendChild(h.el("div", { class: "rp-sub", text: t("{player}’s place:", effect) }));
    b.appendChild(placeButtons(h, effect.places, "own-place", function (p) { again({ place: p.place }); }, e.place));
    b.appendChild(h.el("div", { class: "rp-sub", text: t("with:") }));
    b.appendChild(playerButtons(h, Object.keys(effect.targets), "target", function (n) { again({ target: n }); }, e.target));
    if (e.target && e.place !== undefined) {
      b.appendChild(placeButtons(h, effect.targets[e.target], "target-place", function (p) {
        push(rec, { type: "swap", player: effect.player, place: e.place, target: e.target, target_place: p.place },
          t("{player} swaps their {place} with {target}’s {target_place}", { player: effect.player, place: placeWords(e.place), target: e.target, target_place: placeWords(p.place) }));
      }, null));
    }
  }
  return b;
}

// --- rearranging (anyone, at any time until the 20 is discarded) -----------------------------
// Closed: one button. Open: who rearranges; then "not seen" (order "unknown"), or, for each of
// their places in turn, the place whose card it now holds (the engine's places only; the last
// one left is filled in and the entry is made).

function rearrangeBox(h, rec, rearrange) {
  var b = h.el("section", { class: "rp-box br-rearrange", "aria-label": t("Rearranging") });
  var r = ui && ui.type === "rearrange" ? ui : null;
  if (!r) {
    b.appendChild(h.el("button", { type: "button", class: "rp-big br-rearrange-open", dataset: { act: "rearrange-open" },
      on: { click: function () { ui = { type: "rearrange", order: [] }; rec.refresh(); } } },
      t("Someone rearranges their cards…")));
    return b;
  }
  b.appendChild(h.el("h3", { class: "rp-head", text: r.player ? t("{player} rearranges their cards", r) : t("Who rearranges their cards?") }));
  b.appendChild(playerButtons(h, Object.keys(rearrange.places), "rearrange-player", function (name) {
    ui = { type: "rearrange", player: name, order: [] }; rec.refresh();
  }, r.player));
  if (r.player) {
    var mine = rearrange.places[r.player] || [];
    var done = function (order) {
      push(rec, { type: "rearrange", player: r.player, order: order }, (order === "unknown" ? t("{player} rearranges their cards (not seen)", r) : t("{player} rearranges their cards: {order}", { player: r.player, order: order.map(placeWords).join(", ") })));
    };
    b.appendChild(h.el("button", { type: "button", class: "rp-big br-rearrange-unseen", dataset: { act: "rearrange-unseen" },
      on: { click: function () { done("unknown"); } } }, t("Not seen (order unknown)")));
    var slots = h.el("ol", { class: "br-order", "aria-label": t("The new order") });
    mine.forEach(function (place, k) {
      var from = r.order[k];
      slots.appendChild(h.el("li", { class: "br-slot" + (k === r.order.length ? " br-slot-now" : "") },
        h.el("span", { class: "br-num", text: placeWords(place) }), " ← ",
        h.el("span", { class: "br-from", text: from === undefined ? "?" : placeWords(from) })));
    });
    var left = mine.filter(function (p) { return r.order.indexOf(p) < 0; });
    var now = mine[r.order.length];
    b.appendChild(h.el("p", { class: "rp-hint", text: t("Or, seen: the {place} now holds the card that was the…", { place: placeWords(now) }) }));
    b.appendChild(slots);
    var row = h.el("div", { class: "rp-row br-places", role: "group", "aria-label": t("The card now the {place} came from", { place: placeWords(now) }) });
    mine.forEach(function (place) {
      var used = r.order.indexOf(place) >= 0;
      row.appendChild(h.el("button", { type: "button", class: "rp-key br-place" + (used ? " rp-on" : ""), disabled: used,
        dataset: { act: "rearrange-place", place: String(place) },
        "aria-label": t("from the {place}", { place: placeWords(place) }) + (used ? " (" + t("taken") + ")" : ""),
        on: { click: function () {
          var order = r.order.concat([place]);
          var rest = left.filter(function (p) { return p !== place; });
          if (rest.length <= 1) { done(order.concat(rest)); return; }
          ui = { type: "rearrange", player: r.player, order: order }; rec.refresh();
        } } }, h.el("span", { class: "br-num", text: placeWords(place) })));
    });
    b.appendChild(row);
  }
  var tools = h.el("div", { class: "rp-row" });
  if (r.player && r.order.length) {
    tools.appendChild(h.el("button", { type: "button", class: "rp-key", dataset: { act: "rearrange-back" },
      on: { click: function () { ui = { type: "rearrange", player: r.player, order: r.order.slice(0, -1) }; rec.refresh(); } } },
      t("Back one place")));
  }
  tools.appendChild(h.el("button", { type: "button", class: "rp-key", dataset: { act: "rearrange-cancel" },
    on: { click: function () { ui = null; rec.refresh(); } } }, t("Cancel")));
  b.appendChild(tools);
  return b;
}

// --- the deal (an observer who saw the dealt cards) ---------------------------------------------

function dealBox(h, rec, players, values) {
  var hands = ui && ui.type === "deal" ? ui.hands : {};
  var who = null;
  players.forEach(function (name) { if (!who && (hands[name] || []).length < 6) who = name; });
  var place = (hands[who] || []).length + 1;
  var b = box(h, "br-deal", t("The deal: {player}’s {place}", { player: who, place: placeWords(place) }));
  function done(next) {
    var full = players.every(function (name) { return (next[name] || []).length === 6; });
    if (!full) { ui = { type: "deal", hands: next }; rec.refresh(); return; }
    ui = null;
    rec.commit(function (log) { log.deal = next; }, t("The deal"));
  }
  function add(value) {
    var next = Object.assign({}, hands);
    next[who] = (hands[who] || []).concat([value]);
    done(next);
  }
  b.appendChild(valuePad(h, rec, t("{player}’s {place}", { player: who, place: placeWords(place) }), values, add, true));
  b.appendChild(h.el("div", { class: "rp-row" },
    h.el("button", { type: "button", class: "rp-key br-unseen", dataset: { act: "deal-rest" }, on: { click: function () {
      var next = Object.assign({}, hands);
      var cards = (hands[who] || []).slice();
      while (cards.length < 6) cards.push(null);
      next[who] = cards;
      done(next);
    } } }, t("rest of {player}’s cards unseen", { player: who })),
    h.el("button", { type: "button", class: "rp-key", dataset: { act: "deal-skip" }, on: { click: function () {
      ui = { type: "deal-skipped" }; rec.refresh();
    } } }, t("nobody saw the deal"))));
  return b;
}

// --- the end -----------------------------------------------------------------------------------

function revealBox(h, rec, reveal, values) {
  var b = box(h, "br-reveal", t("The final reveal"));
  var given = (ui && ui.type === "reveal") ? ui.values : {};
  var order = (ui && ui.type === "reveal" && ui.order) ? ui.order : [];
  var missing = null;
  Object.keys(reveal).forEach(function (name) {
    reveal[name].forEach(function (p) {
      var key = name + "/" + p.place;
      if (p.value === null && !(key in given) && missing === null) missing = { name: name, place: p.place, key: key };
    });
  });
  var table = h.el("dl", { class: "kv br-revealed" });
  Object.keys(reveal).forEach(function (name) {
    table.appendChild(h.el("dt", { text: name }));
    table.appendChild(h.el("dd", { text: reveal[name].map(function (p) {
      var v = p.value !== null ? p.value : given[name + "/" + p.place];
      return placeWords(p.place) + ": " + (v === undefined ? "?" : v);
    }).join(" · ") }));
  });
  b.appendChild(table);
  if (missing) {
    b.appendChild(h.el("p", { class: "rp-hint", text: t("{player}’s {place}", { player: missing.name, place: placeWords(missing.place) }) + ":" }));
    var pad = valuePad(h, rec, t("{player}’s {place}", { player: missing.name, place: placeWords(missing.place) }), values, function (value) {
      var next = Object.assign({}, given);
      next[missing.key] = value;
      ui = { type: "reveal", values: next, order: order.concat([missing.key]) };
      rec.refresh();
    }, false);
    pad.dataset.player = missing.name;  // the place asked, for a test or a screen reader's tool
    pad.dataset.place = String(missing.place);
    b.appendChild(pad);
  }
  if (order.length) {  // take the last value back
    b.appendChild(h.el("div", { class: "rp-row" }, h.el("button", { type: "button", dataset: { act: "reveal-back" },
      on: { click: function () {
        var back = Object.assign({}, given);
        delete back[order[order.length - 1]];
        ui = { type: "reveal", values: back, order: order.slice(0, -1) };
        rec.refresh();
      } } }, "⌫ " + t("Back one"))));
  }
  if (missing) return b;
  b.appendChild(h.el("button", { type: "button", class: "rp-big primary br-reveal-done", dataset: { act: "reveal" },
    on: { click: function () {
      var out = {};
      Object.keys(reveal).forEach(function (name) {
        reveal[name].forEach(function (p) {
          var v = given[name + "/" + p.place];
          if (v !== undefined) { out[name] = out[name] || {}; out[name][String(p.place)] = v; }
        });
      });
      ui = null;
      rec.commit(function (log) { log.reveal = out; }, t("The cards are revealed"));
    } } }, t("Enter the reveal")));
  return b;
}

function renderPanel(container, rec) {
  var h = rec.helpers;
  var answer = rec.choices || {};
  var next = answer.next || {};
  var values = answer.values || [];
  var draft = rec.draft || {};
  var dealing = rec.recordHands && !draft.deal && !(draft.events || []).length &&
    !(ui && ui.type === "deal-skipped");
  if (dealing) { container.appendChild(dealBox(h, rec, rec.players, values)); return; }
  if (next.effect) container.appendChild(effectBox(h, rec, next.effect, values));
  if (next.draw) container.appendChild(drawBox(h, rec, next.draw, values));
  if (next.discard) container.appendChild(keepOrDiscardBox(h, rec, next, values));
  if (next.bloops) {
    container.appendChild(h.el("section", { class: "rp-box br-bloops", "aria-label": "Bloops" },
      h.el("button", { type: "button", class: "rp-big br-call", dataset: { act: "bloops" },
        on: { click: function () {
          push(rec, { type: "bloops", player: next.bloops.player }, t("{player} calls Bloops!", next.bloops));
        } } }, t("{player} calls Bloops!", next.bloops))));
  }
  if (next.counter) container.appendChild(counterBox(h, rec, next.counter, values));
  if (next.reveal && !draft.reveal) container.appendChild(revealBox(h, rec, next.reveal, values));
  if (next.rearrange) container.appendChild(rearrangeBox(h, rec, next.rearrange));
  if (answer.over) {
    container.appendChild(h.el("p", { class: "rp-done", role: "status", text: draft.reveal ?
      t("The game is over and revealed.") : t("The game is over: enter the reveal (or finish without it).") }));
  } else if (answer.final_turns_left !== null && answer.final_turns_left !== undefined) {
    container.appendChild(h.el("p", { class: "rp-hint", text: nt("{player} called Bloops: {n} turn left.", "{player} called Bloops: {n} turns left.", answer.final_turns_left, { player: answer.holder }) }));
  }
}

// The first draft: the envelope and no event yet.
function start(setup) {
  var log = { format: "popreplay/1", game: "bloops", mode: setup.mode, players: setup.players.slice() };
  if (setup.meta && Object.keys(setup.meta).length) log.meta = setup.meta;
  log.events = [];
  return log;
}

export { renderPanel, reset, start };

// at a table, a seat whose hand is not dealt yet enters its own hand first: its panel starts from
// no deal (the others' hands stay theirs to enter)
export function forOneSeat(draft) {
  if (!(draft.events || []).length) delete draft.deal;
}
