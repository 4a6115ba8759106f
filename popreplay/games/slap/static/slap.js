/*
 * slap renderer for the replay viewer (contract: see the top of static/replay.js).
 *
 * Draws the central pile's top cards (the top card largest, its slap conditions beside it), the
 * Folies pile, each player's pile size and status (in, out of cards on their last chance,
 * eliminated; who flips next), the running challenge, and every slap on the current card marked
 * as won, in time (a lone rainbow), too late or penalised. Styles are in games/slap.css, linked
 * once by this file. Colour is never the only cue: each colour also has a symbol and its name.
 */
import { nt, t } from "../i18n.js"; // the page's language

var COLOURS = {
  red: { symbol: "●", name: t("red") },
  blue: { symbol: "■", name: t("blue") },
  green: { symbol: "▲", name: t("green") },
  yellow: { symbol: "★", name: t("yellow") },
  rainbow: { symbol: "✦", name: t("rainbow") },
  shadow: { symbol: "◆", name: t("shadow") },
};
var CONDITIONS = {
  "same-value": t("same value — slap!"),
  "three-of-a-colour": t("three of one colour — slap!"),
  "shadow-on-shadow": t("shadow on shadow — slap: a card from each player"),
  "rainbow-on-shadow": t("rainbow on shadow — slap the Folies pile"),
  "lone-rainbow": t("lone rainbow — everyone must slap"),
  "shadow-trap": t("shadow trap — don’t slap"),
};
var RESULTS = {
  won: { text: t("won"), cls: "sl-won" },
  valid: { text: t("in time"), cls: "sl-valid" },
  late: { text: t("too late"), cls: "sl-late" },
  wrong: { text: t("penalised"), cls: "sl-wrong" },
};
var STATUS = { "in": t("in the game"), "no-cards": t("out of cards — last chance"), eliminated: t("eliminated") };
var ENDINGS = { elimination: t("only one player was left"), time: t("time was up"),
  "no-cards": t("nobody held a card any more") };
var TOP_CARDS = 6;


function cards(n) { return nt("{n} card", "{n} cards", n); }
function cap(text) { return text.charAt(0).toUpperCase() + text.slice(1); } // a title: "Pile Folies"

function parse(card) {
  if (!card || card.charAt(0) === "?") return null;
  var cut = card.lastIndexOf("-");
  return { colour: card.slice(0, cut), value: card.slice(cut + 1) };
}

// One card, face up (a known id) or face down (a slot id or nothing). opts: {big, top, mark}
function card(h, id, opts) {
  opts = opts || {};
  var parts = parse(id);
  if (!parts) {
    return h.el("div", { class: "sl-card sl-back" + (opts.big ? " sl-big" : ""), role: "img",
      "aria-label": t("a card not seen in the log"), title: t("a card not seen in the log") },
      h.el("span", { class: "sl-num", "aria-hidden": "true", text: "?" }));
  }
  var colour = COLOURS[parts.colour] || { symbol: "?", name: parts.colour };
  var label = colour.name + " " + parts.value + (opts.top ? ", " + t("top card") : "");
  return h.el("div", { class: "sl-card sl-" + parts.colour + (opts.big ? " sl-big" : "") + (opts.top ? " sl-top" : ""),
    role: "img", "aria-label": label, title: label, dataset: { card: id } },
    h.el("span", { class: "sl-sym", "aria-hidden": "true", text: colour.symbol }),
    h.el("span", { class: "sl-num", "aria-hidden": "true", text: parts.value }),
    h.el("span", { class: "sl-colour", "aria-hidden": "true", text: colour.name }));
}

function centralPile(h, st) {
  var central = st.central || [];
  var shown = central.slice(-TOP_CARDS);
  var box = h.el("section", { class: "sl-pile sl-central", "aria-label": t("Central pile") + ", " + cards(central.length) },
    h.el("div", { class: "sl-pile-head" }, h.el("span", { class: "sl-title", text: t("Central pile") }),
      h.el("span", { class: "sl-count", dataset: { count: String(central.length) }, text: cards(central.length) })));
  if (!shown.length) {
    box.appendChild(h.el("p", { class: "empty-note", text: t("empty") }));
    return box;
  }
  var row = h.el("div", { class: "sl-cards" });
  if (central.length > shown.length) {
    row.appendChild(h.el("span", { class: "sl-more", text: t("+{n} under", { n: central.length - shown.length }) }));
  }
  shown.forEach(function (id, i) {
    row.appendChild(card(h, id, { big: i === shown.length - 1, top: i === shown.length - 1 }));
  });
  box.appendChild(row);
  var window_ = st.window;
  if (window_ && window_.card === central[central.length - 1] && window_.conditions.length) {
    box.appendChild(h.el("ul", { class: "sl-conditions", "aria-label": t("Slap conditions of the top card") },
      window_.conditions.map(function (c) {
        return h.el("li", { class: "sl-cond sl-cond-" + c, text: CONDITIONS[c] || c });
      })));
  }
  return box;
}

function foliesPile(h, st) {
  var folies = st.folies || [];
  var top = folies.length ? folies[folies.length - 1] : null;
  return h.el("section", { class: "sl-pile sl-folies", "aria-label": t("Folies pile") + ", " + cards(folies.length) },
    h.el("div", { class: "sl-pile-head" }, h.el("span", { class: "sl-title", text: cap(t("Folies pile")) }),
      h.el("span", { class: "sl-count", dataset: { count: String(folies.length) }, text: cards(folies.length) })),
    top ? h.el("div", { class: "sl-cards" }, card(h, top, {})) : h.el("p", { class: "empty-note", text: t("empty") }));
}

function challengeBox(h, st) {
  var c = st.challenge;
  if (!c) return null;
  var who = c.player === null ? t("Nobody can answer") : nt("{player} owes {n} card", "{player} owes {n} cards", c.left, { player: c.player });
  return h.el("section", { class: "sl-challenge", role: "status", "aria-label": t("Running challenge") },
    h.el("strong", { text: t("Challenge {size}:", { size: c.size }) + " " }),
    who + " " + t("({done} of {size} flipped) — set by {setter}, who takes the pile if no 1–5 comes up.", { done: c.size - c.left, size: c.size, setter: c.setter }));
}

// Every slap judged against the current card, up to this step.
function slapsOnThisCard(h, step) {
  var out = [];
  for (var i = step.index; i >= 0; i--) {
    var s = h.steps[i];
    if (!s || s.kind === "flip" || s.kind === "deal") break;
    if (s.kind === "slap") out.unshift(s);
  }
  return out;
}

function slapList(h, step) {
  var slaps = slapsOnThisCard(h, step);
  if (!slaps.length) return null;
  var list = h.el("ol", { class: "sl-slaps", "aria-label": t("Slaps on this card, in the order hands landed") });
  slaps.forEach(function (s) {
    var r = RESULTS[s.data.result] || { text: s.data.result, cls: "" };
    var extra = "";
    if (s.data.result === "won" && s.data.claimed) extra = " (" + t("a missed slap, claimed") + ")";
    if (s.data.result === "wrong") extra = " (" + nt("paid {n} card", "paid {n} cards", (s.data.paid || []).length) + ")";
    var item = h.el("li", { class: "sl-slap " + r.cls + (s.index === step.index ? " sl-current" : ""),
      dataset: { player: s.data.player, result: s.data.result } },
      h.el("span", { class: "sl-who", text: s.data.player }),
      h.el("span", { class: "sl-where", text: s.data.pile === "folies" ? " " + t("on Folies") : "" }),
      h.el("span", { class: "sl-mark " + r.cls, text: r.text + extra }));
    list.appendChild(item);
  });
  return h.el("section", { class: "sl-slap-box" }, h.el("div", { class: "sl-title", text: t("Slaps on this card") }), list);
}

function players(h, step) {
  var st = step.state;
  var names = Object.keys(st.counts);
  var actor = step.data && step.data.player;
  var box = h.el("div", { class: "players sl-players", role: "group", "aria-label": t("Players") });
  names.forEach(function (name) {
    var status = st.status[name];
    var classes = "player sl-player sl-" + status + (st.next === name ? " sl-next" : "") + (actor === name ? " sl-actor" : "");
    var count = st.counts[name];
    box.appendChild(h.el("section", { class: classes, dataset: { player: name, count: String(count), status: status }, "aria-label": name },
      h.el("div", { class: "player-head" },
        h.el("span", { class: "player-name", text: name }),
        h.el("span", { class: "sl-pile-size", title: nt("{n} card in the pile", "{n} cards in the pile", count) },
          h.el("span", { class: "sl-stack", "aria-hidden": "true" }), h.el("strong", { text: String(count) }))),
      h.el("div", { class: "sub", text: STATUS[status] + (st.next === name ? " · " + t("flips next") : "") })));
  });
  return box;
}

function renderState(container, step, result, h) {
  var st = step.state;
  if (!st) {
    container.appendChild(h.el("p", { class: "empty-note", text: t("No table at this step.") }));
    return;
  }
  var table = h.el("div", { class: "sl-table" },
    h.el("div", { class: "sl-piles" }, centralPile(h, st), foliesPile(h, st)),
    challengeBox(h, st),
    slapList(h, step));
  container.appendChild(h.el("div", { class: "sl-layout" }, table, players(h, step)));
}

function renderOutcome(container, result, h) {
  var o = result.outcome;
  if (!o) return;
  var dl = h.el("dl", { class: "kv sl-outcome" });
  function row(term, value) { dl.appendChild(h.el("dt", { text: term })); dl.appendChild(h.el("dd", { text: value })); }
  if (o.winners === null) row(t("Winner"), t("not decided yet (the game is not finished)"));
  else if (!o.winners.length) row(t("Winner"), t("nobody"));
  else row(o.winners.length > 1 ? t("Winners (shared)") : t("Winner"), o.winners.join(", "));
  if (o.ended_by) row(t("Ended because"), ENDINGS[o.ended_by] || o.ended_by);
  row(t("Cards held"), Object.keys(o.cards).map(function (n) { return n + " " + o.cards[n]; }).join(", "));
  row(t("Eliminated, in order"), o.eliminated.length ? o.eliminated.join(", ") : t("nobody"));
  row(t("Central pile"), cards(o.central_pile));
  row(cap(t("Folies pile")), cards(o.folies_pile));
  row(t("Flips and slaps"), nt("{n} flip", "{n} flips", o.flips) + ", " + nt("{n} slap", "{n} slaps", o.slaps));
  container.appendChild(dl);
}

// the step kinds only this game has, in words (the viewer says the others)
export var kindWords = { "challenge-won": t("challenge-won"), flip: t("flip"), "rainbow-penalty": t("rainbow-penalty"), slap: t("slap"),
  "time-up": t("time-up") };

export { renderState, renderOutcome };
