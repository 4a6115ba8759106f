/*
 * A dispute in words (docs/table.md "Sign-off"): the seat picks a turn from a list built from the
 * replay's steps ("Round 2, turn 5: Bruno 17, Alice 28") and writes a sentence; the server still
 * takes a step number (the last step of that turn). The steps are the stored replay's
 * (GET /api/v1/games/<slug>/replay) once the game is stored, else the record check's of the
 * draft this phone sees. The scores are the points collected so far (each step's
 * `data.collector` and `data.icons`, as the replay page's "Where the points came from").
 */
import { el } from "./dom.js";
import { lang, t } from "./i18n.js";

var cache = { key: null, turns: null, asked: null };

function json(r) { if (!r.ok) throw new Error(String(r.status)); return r.json(); }

function fetchSteps(view) {
  var headers = { Accept: "application/json", "Accept-Language": lang };
  if (view.stored) return fetch("/api/v1/games/" + encodeURIComponent(view.stored) + "/replay", { headers: headers }).then(json);
  headers["Content-Type"] = "application/json";
  return fetch("/api/v1/record/check", { method: "POST", headers: headers,
    body: JSON.stringify({ log: view.log, pending: null, steps: "all" }) }).then(json);
}

// one entry per turn (its last step), in the replay's order: [{step, text}]
export function turnsOf(steps, players) {
  var points = {}, out = [], order = players.slice();
  order.forEach(function (p) { points[p] = 0; });
  steps.forEach(function (s, i) {
    var d = s.data || {};
    if (typeof d.collector === "string") {
      if (!(d.collector in points)) { points[d.collector] = 0; order.push(d.collector); }
      points[d.collector] += Number(d.icons) || 0;
    }
    var nextStep = steps[i + 1];
    var same = nextStep && nextStep.round === s.round && nextStep.turn === s.turn;
    if (same) return;
    var index = s.index === undefined ? i : s.index;
    var where = s.round == null ? t("Start of the game")
      : s.turn == null ? t("Round {round}, before the first turn", { round: s.round })
      : t("Round {round}, turn {turn}", { round: s.round, turn: s.turn });
    var scored = order.some(function (p) { return points[p]; });
    var scores = order.map(function (p) { return p + " " + points[p]; }).join(", ");
    out.push({ step: index, where: where, text: scored ? t("{where}: {scores}", { where: where, scores: scores }) : where });
  });
  return out;
}

// the <select> of turns (or, until the steps come or if they cannot, a step number)
export function turnPicker(view, stepMax, redraw) {
  var key = view.table + ":" + view.seq + ":" + (view.stored || "");
  if (cache.key !== key) {
    cache = { key: key, turns: null, asked: true };
    fetchSteps(view).then(function (a) {
      if (cache.key !== key) return;
      cache.turns = turnsOf(a.steps || [], view.players);
      redraw();
    }).catch(function () { if (cache.key === key) { cache.turns = []; redraw(); } });
  }
  // never a step number: the turns in words; until they come (or if they cannot), the game's end
  var select = el("select", { id: "tb-dispute-step", dataset: { act: "dispute-turn" }, disabled: !cache.turns || null },
    el("option", { value: "", text: cache.turns ? t("Choose a turn") : t("Loading the turns…") }));
  if (cache.turns && cache.turns.length) {
    cache.turns.forEach(function (turn) { select.appendChild(el("option", { value: String(turn.step), text: turn.text })); });
  } else if (cache.turns) {
    select.appendChild(el("option", { value: String(stepMax), text: t("The end of the game") }));
  }
  return { label: t("Which turn?"), input: select };
}

// the words of a disputed step, once the turns are known ("Round 2, turn 5"); never its number
export function turnWords(step) {
  var found = (cache.turns || []).filter(function (x) { return x.step === step; })[0];
  if (found) return found.where;
  var last = (cache.turns || [])[cache.turns ? cache.turns.length - 1 : 0];
  if (cache.turns && (!last || step >= last.step)) return t("the end of the game");
  if (cache.turns) {  // a step inside a turn: that turn (the first one that ends at or after it)
    var within = cache.turns.filter(function (x) { return x.step >= step; })[0];
    if (within) return within.where;
  }
  return t("a turn");
}
