/*
 * POP! renderer for the replay viewer (contract: see the top of static/replay.js).
 *
 * Draws the play area as it lies on the table: five queues A–E, each resting on its Queue card
 * (rows are absolute table rows, row 0 at the top), the cards of the turn waiting to be placed,
 * the cards of an explosion wave, the Chief's waiting pile and each player's cards and scores.
 * Colour of a card = number mod 5; each colour also has a symbol, so colour is never the only cue.
 */
import { nt, t, tn } from "../i18n.js"; // the page's language

// name: the colour's code (data-colour); word: said in the page's language
var COLOURS = [
  { name: "purple", word: t("purple"), symbol: "◆" },
  { name: "red", word: t("red"), symbol: "●" },
  { name: "yellow", word: t("yellow"), symbol: "▲" },
  { name: "green", word: t("green"), symbol: "■" },
  { name: "blue", word: t("blue"), symbol: "★" },
];
var QUEUES = ["A", "B", "C", "D", "E"];
var CHIEF = t("the Multicolour Chief");

function hasArrow(n) { return n <= 10 || n >= 41; }
function icons(n) {
  if (n <= 5 || n >= 46) return 3;
  if ((n >= 16 && n <= 20) || (n >= 31 && n <= 35)) return 2;
  return 1;
}
function sumIcons(cards) { return (cards || []).reduce(function (s, c) { return s + icons(c); }, 0); }

function describe(n) {
  var colour = COLOURS[n % 5];
  return n + ", " + colour.word + " " + colour.symbol + ", " + nt("{n} Explosion symbol", "{n} Explosion symbols", icons(n)) +
    (hasArrow(n) ? ", " + t("Arrow") : "");
}

// One card. opts: {mini, row, col, placed, boom}
function card(h, n, opts) {
  opts = opts || {};
  var classes = ["card", "c" + (n % 5)];
  if (opts.mini) classes.push("mini");
  if (opts.placed) classes.push("just-placed");
  if (opts.boom) classes.push("will-explode");
  var label = describe(n);
  if (opts.placed) label += ", " + t("just placed");
  if (opts.boom) label += ", " + t("about to explode");
  var dataset = { card: String(n) };
  if (opts.row !== undefined) { dataset.row = String(opts.row); dataset.col = String(opts.col); }
  return h.el("div", { class: classes.join(" "), role: "img", "aria-label": label, title: label, dataset: dataset },
    h.el("span", { class: "sym", "aria-hidden": "true", text: COLOURS[n % 5].symbol }),
    h.el("span", { class: "num", "aria-hidden": "true", text: String(n) }),
    hasArrow(n) ? h.el("span", { class: "arrow", "aria-hidden": "true", text: "➜" }) : null,
    h.el("span", { class: "icons", "aria-hidden": "true" }, burst(h, icons(n))),

    opts.boom ? h.el("span", { class: "boom-badge", "aria-hidden": "true" }) : null);
}

function burst(h, count) {
  var out = [];
  for (var i = 0; i < count; i++) out.push(h.el("i", { class: "burst" }));
  return out;
}

function cardsRow(h, cards, opts) {
  if (!cards || !cards.length) return h.el("div", { class: "cards-row" }, h.el("span", { class: "empty-note", text: (opts && opts.empty) || t("none") }));
  return h.el("div", { class: "cards-row" + (opts && opts.big ? " big" : "") },
    cards.map(function (n) { return card(h, n, { mini: !(opts && opts.big) }); }));
}

// The cards the next step makes explode (a wave is shown on the table before it vanishes).
function aboutToExplode(step, h) {
  var set = {};
  if (h.next && h.next.kind === "explode" && h.next.round === step.round) {
    (h.next.data.cards || []).forEach(function (c) { set[c] = true; });
  }
  return set;
}

function findReveal(step, h) {
  if (step.turn === null || step.turn === undefined) return null;
  for (var i = step.index; i >= 0; i--) {
    var s = h.steps[i];
    if (!s || s.round !== step.round || s.turn !== step.turn) break;
    if (s.kind === "reveal") return s;
  }
  return null;
}

function area(h, step, boom) {
  var a = step.state.area;
  var rows = a.rows || [];
  var qr = a.queue_rows;
  var placed = step.kind === "place" ? step.data : null;
  var top = null;
  rows.forEach(function (row, r) {
    if (top === null && row.some(function (c) { return c !== null; })) top = r;
  });
  var bottom = Math.max.apply(null, qr);
  if (top === null) top = Math.min.apply(null, qr);
  var grid = h.el("div", { class: "pop-area", role: "group", "aria-label": t("Play area: queues A to E, rows from the top") });
  grid.appendChild(h.el("span", { class: "rowlabel", "aria-hidden": "true", text: t("row") }));
  QUEUES.forEach(function (q) { grid.appendChild(h.el("span", { class: "colhead", "aria-hidden": "true", text: q })); });
  for (var r = top; r <= bottom; r++) {
    grid.appendChild(h.el("span", { class: "rowlabel", "aria-hidden": "true", text: String(r) }));
    for (var c = 0; c < 5; c++) {
      var n = r < rows.length ? rows[r][c] : null;
      if (r < qr[c] && n !== null && n !== undefined) {
        var isPlaced = !!placed && placed.card === n;
        grid.appendChild(card(h, n, { row: r, col: c, placed: isPlaced, boom: !!boom[n] }));
      } else if (r === qr[c]) {
        grid.appendChild(h.el("div", { class: "card queue", role: "img", "aria-label": t("Queue card {queue}", { queue: QUEUES[c] }), dataset: { queue: QUEUES[c], row: String(r) } },
          h.el("span", { class: "num", "aria-hidden": "true", text: QUEUES[c] }),
          h.el("span", { class: "label", "aria-hidden": "true", text: t("queue") })));
      } else {
        grid.appendChild(h.el("div", { class: "slot " + (r < qr[c] ? "empty" : "below"), "aria-hidden": "true" }));
      }
    }
  }
  return h.el("div", { class: "pop-area-wrap" }, grid);
}

function turnStrip(h, step) {
  var reveal = findReveal(step, h);
  if (!reveal) return null;
  var waiting = {};
  (step.state.unplaced || []).forEach(function (c) { waiting[c] = true; });
  var d = reveal.data;
  // (each word on its own: pybabel does not see a t() inside another t()'s arguments)
  var arrows = nt("{n} Arrow", "{n} Arrows", d.arrows);
  var direction = { descending: t("descending"), ascending: t("ascending") }[d.direction] || d.direction;
  var strip = h.el("div", { class: "turn-strip", role: "group", "aria-label": t("Cards revealed this turn") },
    h.el("div", { class: "title" }, t("Turn {turn}: revealed — {arrows}, placed {direction} ({first} first)", {
      turn: reveal.turn, arrows: arrows, direction: direction,
      first: d.direction === "descending" ? "E" : "A" })));
  d.cards.forEach(function (entry) {
    var done = !waiting[entry.card];
    var placedNow = step.kind === "place" && step.data.card === entry.card;
    var stateText = placedNow ? t("just placed") : done ? (step.kind === "reveal" ? "" : t("placed")) : t("waiting");
    if (step.kind === "reveal") { done = false; stateText = t("to {queue}", { queue: entry.queue }); }
    strip.appendChild(h.el("div", { class: "revealed" + (done && !placedNow ? " done" : ""), dataset: { card: String(entry.card) } },
      h.el("span", { class: "queue-letter", text: "→ " + entry.queue }),
      card(h, entry.card, { mini: false }),
      h.el("span", { class: "owner", text: entry.owner === null ? t("Chief") : entry.owner, title: entry.owner === null ? CHIEF : entry.owner }),
      h.el("span", { class: "state", text: stateText })));
  });
  return strip;
}

function explodedStrip(h, step) {
  if (step.kind !== "explode") return null;
  var d = step.data;
  var title = d.collector === null
    ? nt("Wave {wave} exploded — {n} symbol wait beside the Chief", "Wave {wave} exploded — {n} symbols wait beside the Chief", d.icons, { wave: d.wave })
    : nt("Wave {wave} exploded — {n} symbol go to {player}", "Wave {wave} exploded — {n} symbols go to {player}", d.icons, { wave: d.wave, player: d.collector });
  var strip = h.el("div", { class: "exploded-strip", role: "group", "aria-label": t("Cards exploded in this wave") },
    h.el("div", { class: "title" }, title),
    h.el("div", { class: "cards-row big wave-cards" }, d.cards.map(function (c) { return card(h, c, {}); })));
  if (d.chief_pile_taken && d.chief_pile_taken.length) {
    strip.appendChild(h.el("div", { class: "title" }, nt("{player} also takes the Chief’s waiting pile ({n} symbol):",
      "{player} also takes the Chief’s waiting pile ({n} symbols):", sumIcons(d.chief_pile_taken), { player: d.collector })));
    var taken = cardsRow(h, d.chief_pile_taken, {});
    taken.classList.add("taken-pile");
    strip.appendChild(taken);
  }
  return strip;
}

function sidePanel(h, step, result) {
  var st = step.state;
  var battle = result.mode === "battle";
  var names = Object.keys(st.scores);
  var collector = step.kind === "explode" ? step.data.collector : undefined;
  var side = h.el("div", { class: "players", role: "group", "aria-label": t("Players") });
  names.forEach(function (name) {
    var hand = st.hands ? st.hands[name] : null;
    var box = h.el("section", { class: "player" + (collector === name ? " collector" : ""), dataset: { player: name }, "aria-label": name },
      h.el("div", { class: "player-head" },
        h.el("span", { class: "player-name", text: name }),
        h.el("span", { class: "player-score" }, battle
          ? tn("round {round} · total {total}", { round: h.el("strong", { class: "round-score", text: String(st.scores[name]) }), total: h.el("strong", { class: "total-score", text: String(st.totals[name]) }) })
          : tn("symbols collected {n}", { n: h.el("strong", { class: "round-score", text: String(st.scores[name]) }) }))),
      h.el("div", { class: "sub", text: (battle ? t("Collected this round ({n})", { n: st.collected[name].length }) : t("Collected ({n})", { n: st.collected[name].length })) }),
      cardsRow(h, st.collected[name], {}));
    var handHead = h.el("div", { class: "sub" });
    if (!hand) {
      handHead.textContent = t("Hand not recorded in the log");
      box.appendChild(handHead);
    } else {
      handHead.appendChild(document.createTextNode(nt("Hand: {n} card", "Hand: {n} cards", hand.length) + " "));
      handHead.appendChild(h.revealButton(name));
      box.appendChild(handHead);
      if (h.isRevealed(name)) {
        var row = cardsRow(h, hand, { empty: t("empty") });
        row.classList.add("hand");
        box.appendChild(row);
      }
    }
    side.appendChild(box);
  });
  if (result.mode === "battle" || result.mode === "coop") {
    side.appendChild(h.el("section", { class: "player chief" + (collector === null ? " collector" : ""), "aria-label": t("The Multicolour Chief's waiting pile") },
      h.el("div", { class: "player-head" }, h.el("span", { class: "player-name", text: t("Multicolour Chief") }),
        h.el("span", { class: "player-score", text: nt("waiting pile {n} symbol", "waiting pile {n} symbols", sumIcons(st.chief_pending)) })),
      h.el("div", { class: "sub", text: t("Taken by the next player who collects") }),
      h.el("div", { class: "chief-pile" }, cardsRow(h, st.chief_pending, { empty: t("empty") }))));
  }
  return side;
}

function legend(h) {
  return h.el("div", { class: "legend", "aria-label": t("Legend") },
    COLOURS.map(function (c, i) {
      // a card's colour is its number mod 5, said plainly: the number's last digit
      return h.el("span", { dataset: { colour: c.name } }, h.el("span", { class: "swatch card c" + i, "aria-hidden": "true", text: c.symbol }),
        t("{colour}: ends in {a} or {b}", { colour: c.word, a: i === 0 ? 0 : i, b: i === 0 ? 5 : i + 5 }));
    }),
    h.el("span", null, "➜ " + t("Arrow")), h.el("span", null, h.el("span", { class: "legend-burst", "aria-hidden": "true" }, h.el("i", { class: "burst" })), t("Explosion symbol")),
    h.el("span", null, t("black and white ring: card just placed")), h.el("span", null, h.el("span", { class: "legend-boom", "aria-hidden": "true" }), t("dashed ring and burst: about to explode")));
}

function renderState(container, step, result, h) {
  var st = step.state;
  if (!st) {
    container.appendChild(h.el("p", { class: "empty-note", text: t("No table yet at this step.") }));
    return;
  }
  var boom = aboutToExplode(step, h);
  var strip = turnStrip(h, step);
  if (strip) container.appendChild(strip);
  var exploded = explodedStrip(h, step);
  if (exploded) container.appendChild(exploded);
  var table = h.el("div", { class: "pop-table" }, h.el("div", null, area(h, step, boom), legend(h)), sidePanel(h, step, result));
  container.appendChild(table);
}

// ---- result panel ----

function winnersLine(h, outcome) {
  if (!outcome.winners) return h.el("p", { class: "outcome-big", text: t("Winner: not decided yet (the game is not finished).") });
  var p = h.el("p", { class: "outcome-big", id: "winners" },
    nt("Winner: {names} (lowest total wins)", "Winners: {names} (lowest total wins)", outcome.winners.length, { names: outcome.winners.join(", ") }));
  var tie = { "kept-card": t("Tied on the total; the card left in hand broke the tie."),
    shared: t("Tied on the total and on the kept cards: the victory is shared."),
    unknown: t("Tied on the total; the kept cards are not recorded, so the tie cannot be broken.") }[outcome.tie_break];
  return tie ? [p, h.el("p", { text: tie })] : p;
}

function battleOutcome(container, result, h) {
  var o = result.outcome;
  var players = Object.keys(o.totals);
  var winners = o.winners || [];
  container.appendChild(h.el("div", null, winnersLine(h, o)));
  var head = h.el("tr", null, h.el("th", { scope: "col", text: t("Round") }),
    players.map(function (p) { return h.el("th", { scope: "col", class: "num" + (winners.indexOf(p) >= 0 ? " winner" : ""), text: p }); }));
  var body = h.el("tbody");
  o.rounds.forEach(function (r, i) {
    body.appendChild(h.el("tr", null, h.el("th", { scope: "row", text: String(i + 1) }),
      players.map(function (p) { return h.el("td", { class: "num", text: String(r.scores[p]) }); })));
  });
  var foot = h.el("tfoot", null, h.el("tr", { class: "totals" }, h.el("th", { scope: "row", text: t("Total") }),
    players.map(function (p) { return h.el("td", { class: "num", dataset: { player: p } }, h.el("strong", { text: String(o.totals[p]) })); })));
  container.appendChild(h.el("div", { class: "table-scroll", tabindex: "0" }, h.el("table", { class: "totals-table" },
    h.el("caption", { class: "visually-hidden", text: t("Points per round and totals (Explosion symbols collected; lowest wins)") }),
    h.el("thead", null, head), body, foot)));
  var extra = h.el("dl", { class: "kv" });
  o.rounds.forEach(function (r, i) {
    var kept = players.map(function (p) { return p + " " + (r.kept[p] === null ? "?" : r.kept[p]); }).join(", ");
    extra.appendChild(h.el("dt", { text: t("Round {n} kept", { n: i + 1 }) }));
    extra.appendChild(h.el("dd", { text: kept }));
    if (r.chief_pending.length) {
      extra.appendChild(h.el("dt", { text: t("Left with the Chief") }));
      extra.appendChild(h.el("dd", { text: r.chief_pending.join(", ") + " (" + t("scored by nobody") + ")" }));
    }
  });
  container.appendChild(extra);
}

function firstStep(h, kind) {
  for (var i = 0; i < h.steps.length; i++) if (h.steps[i].kind === kind) return h.steps[i];
  return null;
}

// the coop levels and solo titles as the engine names them, in the page's language
function levelWord(level) {
  return { beginner: t("beginner"), apprentice: t("apprentice"), skilled: t("skilled"),
    expert: t("expert"), legendary: t("legendary") }[level] || level;
}
function titleWord(title) {
  return { novice: t("novice"), mean: t("mean"), evil: t("evil"), renegade: t("renegade") }[title] || title;
}

function renderOutcome(container, result, h) {
  var o = result.outcome;
  if (result.mode === "battle") { battleOutcome(container, result, h); return; }
  var big;
  var facts = [];
  if (result.mode === "coop") {
    big = o.result === null ? t("Not finished yet") : o.result === "won" ? t("The group wins — level {level}", { level: levelWord(o.level) })
      : t("The group loses on turn {turn} — level {level}", { turn: o.failed_turn, level: levelWord(o.level) });
    facts = [[t("Level"), levelWord(o.level)], [t("Cards left in each hand"), o.cards_left], [t("Failed turn"), o.failed_turn]];
  } else if (result.mode === "solo") {
    big = o.result === null ? t("Not finished yet") : o.result === "won" ? t("Won — title “{title}”", { title: titleWord(o.title) })
      : nt("Lost — {n} card still in play", "Lost — {n} cards still in play", o.cards_left_in_play);
    facts = [[t("Difficulty"), o.difficulty], [t("Title"), titleWord(o.title)], [t("Turns played"), o.turns_played], [t("Cards left in play"), o.cards_left_in_play]];
  } else if (result.mode === "puzzle") {
    big = o.solved === null ? t("Not played yet") : o.solved ? t("Solved: every starting card exploded")
      : nt("Not solved — {n} starting card left", "Not solved — {n} starting cards left", o.layout_cards_left);
    facts = [[t("Starting cards left"), o.layout_cards_left], [t("Cards left in play"), o.cards_left_in_play]];
  }
  container.appendChild(h.el("p", { class: "outcome-big", id: "outcome-line", text: big }));
  var dl = h.el("dl", { class: "kv" });
  facts.forEach(function (f) {
    dl.appendChild(h.el("dt", { text: f[0] }));
    dl.appendChild(h.el("dd", { text: f[1] === null || f[1] === undefined ? "—" : String(f[1]) }));
  });
  container.appendChild(dl);
  var boom = result.mode === "coop" && o.result === "lost" ? firstStep(h, "explode") : null;
  if (boom) container.appendChild(h.el("p", null, t("The explosion that lost the game:") + " ", h.stepButton(boom.index, t("step {n}", { n: boom.index }))));
}

function pointSources(result, h) {
  if (result.mode !== "battle") return [];
  return h.steps.filter(function (s) { return s.kind === "explode" && typeof s.data.collector === "string"; })
    .map(function (s) {
      var points = s.data.icons + sumIcons(s.data.chief_pile_taken);
      return {
        player: s.data.collector, index: s.index, points: points,
        label: t("R{round} T{turn}", { round: s.round, turn: s.turn }) + " +" + points,
        title: t("Round {round}, turn {turn}, wave {wave}:", { round: s.round, turn: s.turn, wave: s.data.wave }) + " " + s.data.cards.join(", ") +
          (s.data.chief_pile_taken.length ? " " + t("and the Chief’s pile {cards}", { cards: s.data.chief_pile_taken.join(", ") }) : ""),
      };
    });
}

// the step kinds only this game has, in words (the viewer says the others)
export var kindWords = { explode: t("explode") };

// A number of a POP! log's pointer in words (the home page's "round 1 › turn 4 › plays › Alice ›
// card 1"; the server's words are the kit's place_word): null for a number it has no word for.
export function placeWord(token, parent, grandparent) {
  var n = Number(token);
  if (parent === "layout") return t("row {n}", { n: n + 1 });
  if (grandparent === "layout" && n < 5) return t("queue {letter}", { letter: QUEUES[n] });
  if (parent === "chief" || ["plays", "hands", "draws"].indexOf(grandparent) >= 0) return t("card {n}", { n: n + 1 });
  return null;
}

export { renderState, renderOutcome, pointSources };
