/*
 * Bloops renderer for the replay viewer (contract: see the top of static/replay.js).
 *
 * Draws each player's places (two rows of three, then the extra places), face down with "?" or with
 * the value the log knows; the pile, the discard pile (top card large), the card being held, the
 * Bloops card, the effects waiting and what can be counter-discarded. The step's action is shown on
 * the cards it touches: drawn, kept, discarded, counter-discarded (right or wrong), given (6),
 * looked at (7, 8), swapped (9). Styles are in games/bloops.css, linked once by this file.
 */
import { nt, t } from "../i18n.js"; // the page's language

var STARS = { 10: true, 11: true, 12: true };
var EFFECT_NAMES = { give: t("give the top card of the pile"), look: t("look at a card"), swap: t("swap, unseen") };
var ENDINGS = { twenty: t("the 20 was discarded"), bloops: t("Bloops was called and the last turns were played"),
  "pile-empty": t("the draw pile ran out") };


function cards(n) { return nt("{n} card", "{n} cards", n); }

// A place in a player's words, as the engine's notes say it (bloops/messages.py, place()): the
// six dealt places are the two rows of three (1–3 top, 4–6 bottom, left to right, as drawn
// here); places 7, 8 … are the cards added beside them (a 6's card, a penalty card).
var PLACE_WORDS = [t("top-left card"), t("top-middle card"), t("top-right card"),
  t("bottom-left card"), t("bottom-middle card"), t("bottom-right card")];
function placeWords(n) { n = Number(n); return n >= 1 && n <= 6 ? PLACE_WORDS[n - 1] : t("extra card {n}", { n: n - 6 }); }
function placed(d) {  // the step's data with its places in words
  var out = Object.assign({}, d);
  ["place", "target_place", "penalty_place"].forEach(function (k) { if (d[k] !== null && d[k] !== undefined) out[k] = placeWords(d[k]); });
  return out;
}

function kindOf(value) {
  if (value === null || value === undefined) return "unknown";
  if (value === 20) return "twenty";
  if (STARS[value]) return "star";
  if (value >= 6 && value <= 9) return "effect";
  return "plain";
}

function describe(value) {
  if (value === null || value === undefined) return t("unknown value");
  var text = t("value {value}", { value: value });
  if (STARS[value]) text += ", " + t("a star");
  if (value === 6) text += ", " + t("effect: give");
  if (value === 7 || value === 8) text += ", " + t("effect: look");
  if (value === 9) text += ", " + t("effect: swap");
  if (value === 20) text += ", " + t("ends the game");
  return text;
}

// One card. opts: {faceUp, label, mark, markClass, highlight, big, seenBy}
function card(h, value, opts) {
  opts = opts || {};
  var known = value !== null && value !== undefined;
  var classes = ["bl-card", known ? "bl-" + kindOf(value) : "bl-back"];
  if (!opts.faceUp) classes.push("bl-face-down");
  if (opts.big) classes.push("bl-big");
  if (opts.highlight) classes.push("bl-hl", "bl-hl-" + opts.highlight);
  var label = (opts.label ? opts.label + ": " : "") + (opts.faceUp ? t("face up") : t("face down")) + ", " + describe(value);
  if (opts.seenBy && opts.seenBy.length) label += "; " + t("seen by {players}", { players: opts.seenBy.join(", ") });
  if (opts.set) { classes.push("bl-in-set"); label += "; " + t("one of {set} (which card is where is unknown)", { set: opts.set }); }
  if (opts.mark) label += "; " + opts.mark;
  return h.el("div", { class: classes.join(" "), role: "img", "aria-label": label, title: label },
    h.el("span", { class: "bl-num", "aria-hidden": "true", text: known ? String(value) : "?" }),
    known && STARS[value] ? h.el("span", { class: "bl-star", "aria-hidden": "true", text: "★" }) : null,
    opts.mark ? h.el("span", { class: "bl-mark " + (opts.markClass || ""), "aria-hidden": "true", text: opts.mark }) : null);
}

// What this step did to which place: {"<player>/<place>": [highlight, mark]}
function touched(step) {
  var d = step.data || {};
  var out = {};
  function set(player, place, hl, mark) { if (player && place !== null && place !== undefined) out[player + "/" + place] = [hl, mark]; }
  switch (step.kind) {
    case "keep": set(d.player, d.place, "kept", t("kept")); break;
    case "counter":
      if (d.right) break;
      set(d.player, d.place, "wrong", t("wrong, back"));
      set(d.player, d.penalty_place, "new", t("penalty"));
      break;
    case "give": set(d.target, d.place, "new", t("given")); break;
    case "look": set(d.target, d.place, "look", t("looked at by {player}", { player: d.player })); break;
    case "swap": set(d.player, d.place, "swap", t("swapped")); set(d.target, d.target_place, "swap", t("swapped")); break;
    case "rearrange": out["rearranged/" + d.player] = d.order ? t("rearranged") : t("mixed unseen"); break;
    default: break;
  }
  return out;
}

function placesGrid(h, name, places, marks, shown) {
  var rows = { top: [], bottom: [], extra: [] };
  places.forEach(function (p) { rows[p.row].push(p); });
  var grid = h.el("div", { class: "bl-places" });
  ["top", "bottom", "extra"].forEach(function (row) {
    if (!rows[row].length && row === "extra") return;
    var line = h.el("div", { class: "bl-row bl-row-" + row, role: "group", "aria-label": name + ", " + { top: t("top row"), bottom: t("bottom row"), extra: t("extra row") }[row] });
    if (!rows[row].length) line.appendChild(h.el("span", { class: "empty-note", text: t("no card") }));
    rows[row].forEach(function (p) {
      var m = marks[name + "/" + p.place];
      line.appendChild(h.el("div", { class: "bl-place", dataset: { player: name, place: String(p.place), card: p.card } },
        h.el("span", { class: "bl-place-no", "aria-hidden": "true", text: String(p.place) }),
        card(h, p.value, { label: t("{player}’s {place}", { player: name, place: placeWords(p.place) }), seenBy: p.seen_by, highlight: m && m[0], mark: m && m[1],
          faceUp: shown && p.value !== null, set: p.set,
          markClass: m ? "bl-mark-" + m[0] : "" })));
    });
    grid.appendChild(line);
  });
  return grid;
}

function playerBox(h, name, st, marks, shown) {
  var places = st.places[name];
  var head = h.el("div", { class: "player-head" },
    h.el("span", { class: "player-name", text: name }),
    h.el("span", { class: "player-score" },
      cards(places.length),
      st.current === name && !st.ended_by ? h.el("span", { class: "bl-badge bl-turn", text: t("to play") }) : null,
      st.bloops === name ? h.el("span", { class: "bl-badge bl-bloops-badge", title: t("Holds the Bloops card: immune to 9s"), text: "Bloops ✕" }) : null,
      marks["rearranged/" + name] ? h.el("span", { class: "bl-badge bl-rearranged", text: marks["rearranged/" + name] }) : null));
  return h.el("section", { class: "player bl-player" + (st.current === name ? " bl-current" : ""), dataset: { player: name }, role: "region", "aria-label": name },
    head, placesGrid(h, name, places, marks, shown));
}

function centre(h, step) {
  var st = step.state;
  var d = step.data || {};
  var discard = st.discard;
  var top = discard.length ? discard[discard.length - 1] : null;
  var topMark = null;
  if (top && ["discard", "keep"].indexOf(step.kind) >= 0) topMark = t("discarded");
  if (top && step.kind === "counter" && d.right) topMark = t("counter-discarded");
  var pile = h.el("div", { class: "bl-stack", role: "group", "aria-label": t("Draw pile") + ": " + cards(st.pile.length),
    dataset: { zone: "pile", count: String(st.pile.length) } },
    h.el("div", { class: "bl-label", text: t("Pile") }),
    st.pile.length ? card(h, null, { label: t("Draw pile") }) : h.el("div", { class: "bl-card bl-empty", "aria-hidden": "true" }),
    h.el("div", { class: "bl-count", text: cards(st.pile.length) }));
  var older = discard.slice(Math.max(0, discard.length - 7), Math.max(0, discard.length - 1));
  var disc = h.el("div", { class: "bl-stack", role: "group", "aria-label": t("Discard pile") + ": " + cards(discard.length),
    dataset: { zone: "discard", top: top ? String(top.value) : "", count: String(discard.length) } },
    h.el("div", { class: "bl-label", text: t("Discard") }),
    top ? card(h, top.value, { faceUp: true, big: true, label: t("Top of the discard pile, by {player}", { player: top.by }),
      highlight: topMark ? "discarded" : null, mark: topMark, markClass: "bl-mark-discarded" })
      : h.el("div", { class: "bl-card bl-empty", "aria-hidden": "true" }),
    h.el("div", { class: "bl-history", role: "group", "aria-label": t("Cards under it") }, older.reverse().map(function (c) {
      return h.el("span", { class: "bl-chip bl-" + kindOf(c.value), title: t("{value} by {player}", { value: c.value, player: c.by }), text: String(c.value) });
    })),
    h.el("div", { class: "bl-count", text: cards(discard.length) }));
  var held = h.el("div", { class: "bl-stack", role: "group", "aria-label": t("Drawn card"),
    dataset: { zone: "drawn", card: st.drawn ? st.drawn.card : "" } },
    h.el("div", { class: "bl-label", text: st.drawn ? t("{player} holds", { player: st.drawn.player }) : t("Drawn card") }),
    st.drawn ? card(h, st.drawn.value, { label: t("{player}’s drawn card", { player: st.drawn.player }), highlight: step.kind === "draw" ? "drawn" : null,
      mark: step.kind === "draw" ? t("drawn") : null, markClass: "bl-mark-drawn" })
      : h.el("div", { class: "bl-card bl-empty", "aria-hidden": "true" }));
  var bloops = h.el("div", { class: "bl-stack", role: "group", "aria-label": t("The Bloops card") },
    h.el("div", { class: "bl-label", text: t("Bloops card") }),
    h.el("div", { class: "bl-card bl-bloops-card" + (step.kind === "bloops" ? " bl-hl bl-hl-kept" : ""), role: "img",
      "aria-label": st.bloops ? t("The Bloops card, held by {player}", { player: st.bloops }) : t("The Bloops card, set aside") },
      h.el("span", { class: "bl-num", "aria-hidden": "true", text: "✕" })),
    h.el("div", { class: "bl-count", text: st.bloops ? t("held by {player}", { player: st.bloops }) : t("set aside") }));
  return h.el("div", { class: "bl-centre" }, pile, held, disc, bloops);
}

function statusLine(h, st) {
  var parts = [];
  if (st.counter !== null) parts.push(h.el("span", { class: "bl-pill", text: t("Counter-discard open on {value}", { value: st.counter }) }));
  st.pending.forEach(function (e, i) {
    parts.push(h.el("span", { class: "bl-pill bl-pending", text: (i === 0 ? t("Next effect: {player}’s {value} ({effect})", { player: e.player, value: e.value, effect: EFFECT_NAMES[e.effect] })
      : t("Then: {player}’s {value} ({effect})", { player: e.player, value: e.value, effect: EFFECT_NAMES[e.effect] })) }));
  });
  if (st.final_turns_left !== null && !st.ended_by) parts.push(h.el("span", { class: "bl-pill", text: t("Last turns left: {n}", { n: st.final_turns_left }) }));
  if (st.ended_by) parts.push(h.el("span", { class: "bl-pill bl-over", text: t("Game over: {why}", { why: ENDINGS[st.ended_by] }) }));
  return parts.length ? h.el("div", { class: "bl-status" }, parts) : null;
}

// A seen rearrangement in words: the log's new order gives, for each of the player's places in
// turn, the place whose card it now holds ("top-left card ← extra card 1"); unmoved ones left out.
function moves(order) {
  var places = order.slice().sort(function (x, y) { return x - y; });
  var out = places.map(function (p, i) { return p === order[i] ? null : placeWords(p) + " ← " + placeWords(order[i]); })
    .filter(Boolean);
  if (out.length > 2) return nt("{n} card moves (the step's note says where)", "{n} cards move (the step's note says where)", out.length);
  return out.length ? out.join(", ") : t("nothing moves");
}

function actionStrip(h, step) {
  var d = placed(step.data || {});
  var text = null;
  if (step.kind === "give") text = t("{player}’s 6 → a card face down in front of {target} ({place})", d);
  else if (step.kind === "look") text = t("{player}’s {effect_of} → looks at {target}’s {place}", d) + (d.value === null ? "" : ": " + d.value);
  else if (step.kind === "swap") text = t("{player}’s 9 → {player}’s {place} ⇄ {target}’s {target_place}", d);
  else if (step.kind === "rearrange") text = d.order ? t("{player} rearranges their cards: {moves}", { player: d.player, moves: moves(step.data.order) })
    : t("{player} rearranges unseen: the cards are now a set (dashed), known by their values only", d);
  else if (step.kind === "effect-lost") text = t("{player}’s {effect_of} is lost:", d) + " " + d.reason;
  else if (step.kind === "counter") text = d.right ? t("{player} counter-discards a {value}: their {place}", d)
    : t("{player}’s {value} does not match {matches}: back as their {place}", d) + (d.penalty_place ? ", " + t("penalty card: their {place}", { place: d.penalty_place }) : "");
  if (!text) return null;
  return h.el("div", { class: "bl-action bl-action-" + step.kind, role: "status" }, text);
}

function legend(h) {
  return h.el("div", { class: "legend bl-legend", role: "group", "aria-label": t("Legend") },
    h.el("span", null, h.el("span", { class: "bl-chip bl-unknown", "aria-hidden": "true", text: "?" }), t("face down, value unknown")),
    h.el("span", null, h.el("span", { class: "bl-chip bl-plain bl-face-down", "aria-hidden": "true", text: "4" }), t("face down, value known to the log")),
    h.el("span", null, h.el("span", { class: "bl-chip bl-star", "aria-hidden": "true", text: "11" }), t("star (3 or more score 0)")),
    h.el("span", null, h.el("span", { class: "bl-chip bl-effect", "aria-hidden": "true", text: "9" }), t("effect (6–9)")),
    h.el("span", null, h.el("span", { class: "bl-chip bl-twenty", "aria-hidden": "true", text: "20" }), t("the 20 ends the game")),
    h.el("span", null, h.el("span", { class: "bl-chip bl-unknown bl-in-set", "aria-hidden": "true", text: "?" }), t("one of a set: rearranged unseen")));
}

function renderState(container, step, result, h) {
  var st = step.state;
  if (!st) {
    container.appendChild(h.el("p", { class: "empty-note", text: t("No table yet at this step.") }));
    return;
  }
  var marks = touched(step);
  var action = actionStrip(h, step);
  if (action) container.appendChild(action);
  container.appendChild(centre(h, step));
  var status = statusLine(h, st);
  if (status) container.appendChild(status);
  var players = h.el("div", { class: "bl-players", role: "group", "aria-label": t("Players' places") });
  var shown = step.kind === "reveal" || step.kind === "game-end";  // everyone shows their cards
  Object.keys(st.places).forEach(function (name) { players.appendChild(playerBox(h, name, st, marks, shown)); });
  container.appendChild(players);
  container.appendChild(legend(h));
}

function renderOutcome(container, result, h) {
  var o = result.outcome;
  if (!o) return;
  var names = Object.keys(o.scores);
  var winners = o.winners || [];
  var big;
  if (!o.ended_by) big = t("Not finished yet: scores are counted at the end.");
  else if (!o.winners) big = t("Winner unknown: not every card is revealed.");
  else big = winners.length > 1 ? t("Shared victory: {names} (lowest score wins)", { names: winners.join(", ") })
    : t("Winner: {names} (lowest score wins)", { names: winners.join(", ") });
  container.appendChild(h.el("p", { class: "outcome-big", id: "outcome-line", text: big }));
  if (o.ended_by) container.appendChild(h.el("p", { text: o.bloops ? t("The game ended because {why}; {player} called Bloops.", { why: ENDINGS[o.ended_by], player: o.bloops })
    : t("The game ended because {why}.", { why: ENDINGS[o.ended_by] }) }));
  var body = h.el("tbody");
  names.forEach(function (name) {
    var values = Object.keys(o.places[name]).map(function (place) {
      var v = o.places[name][place];
      return v === null ? "?" : String(v);
    });
    body.appendChild(h.el("tr", null,
      h.el("th", { scope: "row", class: winners.indexOf(name) >= 0 ? "winner" : null, text: name + (o.bloops === name ? " (Bloops)" : "") }),
      h.el("td", { class: "num", dataset: { player: name } }, h.el("strong", { text: o.scores[name] === null ? "—" : String(o.scores[name]) })),
      h.el("td", { class: "num", text: o.stars[name] === null ? "—" : String(o.stars[name]) + (o.stars[name] >= 3 ? " (" + t("score 0") + ")" : "") }),
      h.el("td", { text: values.join(" ") || t("no cards") })));
  });
  container.appendChild(h.el("div", { class: "table-scroll", tabindex: "0" }, h.el("table", { class: "totals-table" },
    h.el("caption", { class: "visually-hidden", text: t("Scores, stars and the cards in each player's places at the end") }),
    h.el("thead", null, h.el("tr", null, h.el("th", { scope: "col", text: t("Player") }), h.el("th", { scope: "col", class: "num", text: t("Score") }),
      h.el("th", { scope: "col", class: "num", text: t("Stars") }), h.el("th", { scope: "col", text: t("Places") }))),
    body)));
  var facts = h.el("dl", { class: "kv" });
  facts.appendChild(h.el("dt", { text: t("Turns") }));
  facts.appendChild(h.el("dd", { text: String(o.turns) }));
  container.appendChild(facts);
  if (o.notes && o.notes.length) {
    container.appendChild(h.el("ul", { class: "bl-notes" }, o.notes.map(function (n) { return h.el("li", { text: n }); })));
  }
}

function pointSources() { return []; }

// the step kinds only this game has, in words (the viewer says the others)
export var kindWords = { bloops: t("bloops"), counter: t("counter"), "effect-lost": t("effect-lost"), give: t("give"), keep: t("keep"),
  look: t("look"), rearrange: t("rearrange"), swap: t("swap") };

export { renderState, renderOutcome, pointSources, placeWords };
