/*
 * slap entry panel for the recorder (contract: see the top of static/record.js).
 *
 * What can be entered comes from the engine (`choices` of the draft, popreplay/engine/games/slap/
 * choices.py): who flips next and which cards that flip can reveal, who can still slap, whether
 * time can be called. The panel never decides a rule: it offers those choices as big buttons.
 *   - a flip: the colour, then the value (2 taps); 1 tap when the engine already knows the card
 *     (a recorded deal, or the only card left of that pile);
 *   - a slap: one big button per player still in the game, tapped in the order hands landed
 *     (1 tap; "on the Folies pile" first for a slap on Folies: 2 taps);
 *   - the end of time (timed games): 1 tap.
 */
import { t } from "../i18n.js"; // the page's language

var COLOURS = [
  { key: "red", symbol: "●" }, { key: "blue", symbol: "■" }, { key: "green", symbol: "▲" },
  { key: "yellow", symbol: "★" }, { key: "rainbow", symbol: "✦" }, { key: "shadow", symbol: "◆" },
].map(function (c) { c.word = t(c.key); return c; });
var VALUES = 17;

// Panel-local state (what was tapped for the entry being built); it is not part of the draft.
var ui = { colour: null, folies: false, flipper: null };

// "red-7" as people say it: "red 7" ("rouge 7")
function cardWords(card) {
  var p = parts(card);
  return t(p.colour) + " " + p.value;
}

function parts(card) {
  var cut = card.lastIndexOf("-");
  return { colour: card.slice(0, cut), value: card.slice(cut + 1) };
}

function flipBox(h, rec, flip, players) {
  // Offline after an entry, who flips is not known (the engine decides it from the cards): the
  // recorder taps the player, among those the engine last listed as still in the game.
  var flipper = rec.waiting > 0 && ui.flipper ? ui.flipper : flip.player;
  var box = h.el("section", { class: "rp-box sr-flip", "aria-label": t("Flip") },
    h.el("h3", { class: "rp-head", text: t("{player} flips", { player: flipper }) }));
  if (rec.waiting > 0) {
    var who = h.el("div", { class: "rp-row sr-flippers", role: "group", "aria-label": t("Who flips?") });
    players.forEach(function (name) {
      who.appendChild(h.el("button", { type: "button", class: "rp-toggle" + (name === flipper ? " rp-on" : ""),
        "aria-pressed": String(name === flipper), dataset: { act: "flipper", player: name },
        on: { click: function () { ui.flipper = name; rec.refresh(); } } }, name));
    });
    box.appendChild(h.el("p", { class: "rp-hint", text: t("Offline: tap who flips.") }));
    box.appendChild(who);
  }
  var cards = flip.cards;
  var possible = {};
  cards.forEach(function (c) { possible[c] = true; });
  function commit(card) {
    ui.colour = null;
    rec.commit(function (log) { log.events.push({ flip: flipper, card: card }); },
      t("{player} flips {card}", { player: flipper, card: cardWords(card) }));
  }
  if (cards.length === 1) {
    var p = parts(cards[0]);
    box.appendChild(h.el("button", { type: "button", class: "rp-big sr-known sl-" + p.colour,
      dataset: { act: "flip", card: cards[0] }, on: { click: function () { commit(cards[0]); } } },
      t("Flip: {card}", { card: cardWords(cards[0]) })));
    box.appendChild(h.el("p", { class: "rp-hint", text: t("The log already knows this card.") }));
    return box;
  }
  var row = h.el("div", { class: "rp-row sr-colours", role: "group", "aria-label": t("Colour of the flipped card") });
  COLOURS.forEach(function (c) {
    var any = false;
    for (var v = 0; v < VALUES; v++) if (possible[c.key + "-" + v]) any = true;
    row.appendChild(h.el("button", { type: "button", class: "rp-big sr-colour sl-" + c.key +
      (ui.colour === c.key ? " rp-on" : ""), "aria-pressed": String(ui.colour === c.key),
      disabled: !any, dataset: { act: "colour", colour: c.key },
      on: { click: function () { ui.colour = c.key; rec.refresh(); } } },
      h.el("span", { class: "sr-sym", "aria-hidden": "true", text: c.symbol }), " " + c.word));
  });
  box.appendChild(row);
  if (ui.colour) {
    var values = h.el("div", { class: "rp-row sr-values", role: "group",
      "aria-label": t("Value of the {colour} card", { colour: t(ui.colour) }) });
    for (var v = 0; v < VALUES; v++) {
      (function (card, value) {
        values.appendChild(h.el("button", { type: "button", class: "rp-key sl-" + ui.colour,
          disabled: !possible[card], dataset: { act: "value", card: card },
          "aria-label": t(ui.colour) + " " + value + (possible[card] ? "" : " (" + t("already seen") + ")"),
          on: { click: function () { commit(card); } } }, String(value)));
      })(ui.colour + "-" + v, v);
    }
    box.appendChild(values);
  } else {
    box.appendChild(h.el("p", { class: "rp-hint", text: t("Tap the colour, then the value.") }));
  }
  return box;
}

function slapBox(h, rec, slap) {
  var box = h.el("section", { class: "rp-box sr-slap", "aria-label": t("Slaps") },
    h.el("h3", { class: "rp-head", text: t("Slaps — tap in the order the hands landed") }));
  var row = h.el("div", { class: "rp-row sr-slappers" });
  slap.players.forEach(function (name) {
    row.appendChild(h.el("button", { type: "button", class: "rp-big sr-slapper",
      dataset: { act: "slap", player: name },
      on: { click: function () {
        var pile = ui.folies ? "folies" : "central";
        ui.folies = false;
        rec.commit(function (log) {
          var event = { slap: name };
          if (pile === "folies") event.pile = "folies";
          log.events.push(event);
        }, pile === "folies" ? t("{player} slaps the Folies pile", { player: name }) : t("{player} slaps", { player: name }));
      } } }, name));
  });
  box.appendChild(row);
  if (slap.piles.indexOf("folies") >= 0) {
    box.appendChild(h.el("button", { type: "button", class: "rp-toggle sr-folies" + (ui.folies ? " rp-on" : ""),
      "aria-pressed": String(ui.folies), dataset: { act: "folies" },
      on: { click: function () { ui.folies = !ui.folies; rec.refresh(); } } },
      ui.folies ? t("Next slap: on the Folies pile") + " ✓" : t("Next slap on the Folies pile")));
  }
  return box;
}

function renderPanel(container, rec) {
  var h = rec.helpers;
  var answer = rec.choices || {};
  var next = answer.next || {};
  if (next.flip) container.appendChild(flipBox(h, rec, next.flip, (next.slap || {}).players || [next.flip.player]));
  if (next.slap) container.appendChild(slapBox(h, rec, next.slap));
  if (next.time_up) {
    container.appendChild(h.el("section", { class: "rp-box sr-time", "aria-label": t("End of time") },
      h.el("button", { type: "button", class: "rp-big sr-time-up", dataset: { act: "time-up" },
        on: { click: function () {
          rec.commit(function (log) { log.events.push({ time_up: true }); }, t("Time is up"));
        } } }, t("Time is up"))));
  }
  if (answer.over) {
    container.appendChild(h.el("p", { class: "rp-done", role: "status", text: t("The game is over.") }));
  }
}

// The first draft: the envelope and no event yet.
function start(setup) {
  var log = { format: "popreplay/1", game: "slap", mode: setup.mode, players: setup.players.slice() };
  if (setup.meta && Object.keys(setup.meta).length) log.meta = setup.meta;
  log.events = [];
  return log;
}

export { renderPanel, start };
export function reset() { ui.colour = null; ui.folies = false; ui.flipper = null; }
export var recordsHands = false;  // the setup offers no "Record hands and deals" (every flip is seen)
// one phone records the flips and slaps, the others watch (the table page: docs/table.md)
export var oneRecorder = true;
// what the recording phone (the table's keeper) enters
export function keptWords() { return t("the flips and slaps"); }
