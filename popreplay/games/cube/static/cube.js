/*
 * cube renderer for the replay viewer (contract: see the top of static/replay.js).
 *
 * Draws the draw pile and both discards, then each player's table: the four steps CROSS, F2L, OLL,
 * PLL with their CUBE card, the colours on them, the TIMER protecting them and whether they are
 * complete; and each hand: its size always, its cards only when the reader reveals it (an unseen
 * card, "?n" in the state, is a card back). The cards the step touched are outlined. A colour is
 * always written out on its card: colour is never the only cue. Styles are in games/cube.css,
 * linked once by this file.
 */
import { nt, t, tn } from "../i18n.js"; // the page's language

var STEPS = ["CROSS", "F2L", "OLL", "PLL"];
var CUBE = { CROSS: 1, F2L: 1, OLL: 1, PLL: 1 };
var COLOUR = { WHITE: t("white"), YELLOW: t("yellow"), ORANGE: t("orange"), GREEN: t("green"), RED: t("red"),
  BLUE: t("blue"), SKIP: t("skip (blue-red)") };
var GAME = { "LOOK-AHEAD": "Look Ahead", "ONE-HAND": "One Hand", "BLIND-SOLVE": "Blind Solve",
  "CORNER-TWIST": "Corner Twist", POP: "Pop", SCRAMBLE: "Scramble" };
var TIMER = { PB: "Personal Best", WR: "World Record", DNF: "DNF" };
var WON_BY = { steps: t("four complete steps"), fmc: t("the F.M.C.") };



function kindOf(card) { return card.replace(/-\d+$/, ""); }

function describe(card) {
  var kind = kindOf(card);
  if (CUBE[kind]) return card + ", " + t("CUBE card {name}", { name: kind });
  if (COLOUR[kind]) return card + ", " + t("COLOUR card {name}", { name: COLOUR[kind] });
  if (GAME[kind]) return card + ", " + t("GAME card {name}", { name: GAME[kind] });
  if (TIMER[kind]) return card + ", " + t("TIMER card {name}", { name: TIMER[kind] });
  return card;
}

// Every card id the step's event touched, for the outline.
function touched(step) {
  var out = {};
  var data = step.data || {};
  ["play", "give"].forEach(function (k) { if (typeof data[k] === "string") out[data[k]] = true; });
  ["draw", "take", "discard", "show", "cards", "laid", "discarded"].forEach(function (k) {
    if (Array.isArray(data[k])) data[k].forEach(function (c) { if (typeof c === "string") out[c] = true; });
  });
  return out;
}

function card(h, id, hl) {
  if (!id || id.charAt(0) === "?") {
    return h.el("span", { class: "cb-card cb-back", role: "img", "aria-label": t("a hidden card"),
      title: t("a hidden card") }, "?");
  }
  var kind = kindOf(id);
  var classes = ["cb-card"];
  if (CUBE[kind]) classes.push("cb-cube");
  else if (COLOUR[kind]) classes.push("cb-colour", "cb-" + kind.toLowerCase());
  else if (GAME[kind]) classes.push("cb-game");
  else classes.push("cb-timer");
  if (hl && hl[id]) classes.push("cb-hl");
  var label = describe(id) + (hl && hl[id] ? ", " + t("in this step") : "");
  return h.el("span", { class: classes.join(" "), role: "img", "aria-label": label, title: label,
    dataset: { card: id } }, id);
}

function pile(h, title, cards, count, hl) {
  var top = cards.length ? card(h, cards[cards.length - 1], hl)
    : count ? card(h, "?", hl) : h.el("span", { class: "cb-card cb-none", text: t("empty") });
  return h.el("div", { class: "cb-pile" },
    h.el("div", { class: "cb-pile-title", text: title }),
    top,
    h.el("div", { class: "cb-count", text: nt("{n} card", "{n} cards", count) }));
}

// The step the event acted on: {player, step}, or null.
var TARGETED = { DNF: 1, "CORNER-TWIST": 1, POP: 1 };
function actedStep(step, players) {
  var data = step.data || {};
  if (step.kind !== "play" || typeof data.step !== "string" || typeof data.play !== "string") return null;
  var who = data.player;
  if (TARGETED[kindOf(data.play)]) {
    who = data.target || players.filter(function (p) { return p !== data.player; })[0];
  }
  return { player: who, step: data.step };
}

function stepBox(h, name, step, hl, acted) {
  if (!step) {
    return h.el("div", { class: "cb-step cb-missing" + (acted ? " cb-acted" : ""), dataset: { step: name } },
      h.el("div", { class: "cb-step-name", text: name }),
      h.el("div", { class: "cb-step-empty", text: t("no {step}", { step: name }) }));
  }
  var classes = "cb-step" + (step.complete ? " cb-complete" : "") + (step.timer ? " cb-protected" : "") +
    (acted ? " cb-acted" : "");
  return h.el("div", { class: classes, dataset: { step: name } },
    h.el("div", { class: "cb-step-name" }, name,
      step.complete ? h.el("span", { class: "cb-done", text: " ✓ " + t("complete") }) : null),
    card(h, step.card, hl),
    h.el("div", { class: "cb-colours" }, step.colours.length
      ? step.colours.map(function (c) { return card(h, c, hl); })
      : h.el("span", { class: "cb-step-empty", text: t("no colour") })),
    step.timer ? h.el("div", { class: "cb-timer-line" }, tn("protected by {card}", { card: card(h, step.timer, hl) })) : null);
}

function hand(h, name, player, hl) {
  var shown = h.isRevealed(name);
  var cards = shown
    ? player.hand.map(function (c) { return card(h, c, hl); })
    : player.hand.map(function () { return h.el("span", { class: "cb-card cb-back", "aria-hidden": "true" }, "?"); });
  return h.el("div", { class: "cb-hand" },
    h.el("div", { class: "sub" }, nt("Hand: {n} card", "Hand: {n} cards", player.hand_size) + " ", h.revealButton(name)),
    h.el("div", { class: "cb-hand-cards", role: "group", "aria-label": shown ? t("{player}’s hand", { player: name }) : t("{player}’s hand, hidden", { player: name }) },
      cards.length ? cards : h.el("span", { class: "empty-note", text: t("empty") })));
}

function renderState(container, step, result, h) {
  var state = step.state;
  if (!state) {
    container.appendChild(h.el("p", { class: "empty-note", text: t("No table at this step.") }));
    return;
  }
  var hl = touched(step);
  var acted = actedStep(step, Object.keys(state.players));
  container.appendChild(h.el("div", { class: "cb-centre" },
    pile(h, t("Draw pile"), [], state.pile.count, hl),
    pile(h, t("Left discard (GAME cards played)"), state.discards.left, state.discards.left.length, hl),
    pile(h, t("Right discard (surplus, duplicates)"), state.discards.right, state.discards.right.length, hl)));
  var players = h.el("div", { class: "players cb-players" });
  Object.keys(state.players).forEach(function (name) {
    var player = state.players[name];
    var won = (state.winners || []).indexOf(name) >= 0;
    var classes = "player cb-player" + (name === state.current ? " cb-current" : "") +
      (won ? " cb-winner" : "");
    players.appendChild(h.el("section", { class: classes, "aria-label": name, dataset: { player: name } },
      h.el("div", { class: "player-head" },
        h.el("span", { class: "player-name" + (won ? " winner" : "") }, name,
          name === state.current ? h.el("span", { class: "cb-turn", text: " — " + t("to play") }) : null),
        h.el("span", { class: "player-score" }, tn("{n} / 4 steps complete", { n: h.el("strong", { text: String(player.completed) }) }))),
      h.el("div", { class: "cb-steps" }, STEPS.map(function (s) {
        return stepBox(h, s, player.table[s], hl, !!acted && acted.player === name && acted.step === s);
      })),
      hand(h, name, player, hl)));
  });
  container.appendChild(players);
}

function renderOutcome(container, result, h) {
  var o = result.outcome;
  if (!o) return;
  var winner = o.winners && o.winners.length ? o.winners.join(", ") : null;
  container.appendChild(h.el("p", { class: "outcome-big" }, winner
    ? tn("{player} wins with {how} on turn {turn} (round {round}).", { player: h.el("span", { class: "winner", text: winner }),
      how: WON_BY[o.won_by] || o.won_by, turn: o.turn, round: o.round })
    : t("No winner yet: the game is not finished.")));
  var rows = Object.keys(o.steps).map(function (name) {
    return h.el("tr", null, h.el("th", { scope: "row", text: name }),
      STEPS.map(function (s) {
        var st = o.steps[name][s];
        return h.el("td", { text: st ? (st.complete ? "✓ " : "") + (st.colours.join(", ") || t("no colour")) +
          (st.timer ? " [" + st.timer + "]" : "") : "—" });
      }),
      h.el("td", { text: String(o.completed[name]) }));
  });
  container.appendChild(h.el("div", { class: "table-scroll", tabindex: "0" }, h.el("table", { class: "cb-outcome" },
    h.el("thead", null, h.el("tr", null, h.el("th", { scope: "col", text: t("Player") }),
      STEPS.map(function (s) { return h.el("th", { scope: "col", text: s }); }),
      h.el("th", { scope: "col", text: t("Complete") }))),
    h.el("tbody", null, rows))));
}

// the step kinds only this game has, in words (the viewer says the others)
export var kindWords = { fmc: t("fmc"), lay: t("lay"), reshuffle: t("reshuffle"), give: t("give") };

export { renderState, renderOutcome };
