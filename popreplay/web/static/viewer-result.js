/*
 * The replay viewer's result panel (methods of viewer.js's Viewer): status, outcome, the claims
 * compared with the engine's result and the disputes, each with the step that scored it.
 */

import { append, clear, el } from "./dom.js";
import { generic } from "./generic.js";
import { nt, t, tn } from "./i18n.js";
import { resolve } from "./pointer.js";
import { claimLeaves, claimParts, claimWords, listWords, show, statusWord } from "./words.js";

// ---------------------------------------------------------------------------------------------
// the result panel

export function renderResult() {
  var panel = this.el.result;
  if (!panel) return;
  var result = this.result;
  var h = this.helpers();
  clear(panel);
  panel.appendChild(el("h2", { text: t("Result") }));
  var descriptions = {
    complete: t("The game reached its end; every move was legal."),
    incomplete: t("Every move was legal; the game is not finished."),
    illegal: t("The replay stops at the first illegal move."),
    invalid: t("The log could not be read."),
  };
  panel.appendChild(el("p", null,
    el("span", { class: "badge status-" + result.status, id: "result-status", text: statusWord(result.status) }), " ",
    descriptions[result.status] || ""));

  if (result.errors && result.errors.length) {
    var list = el("ul", { class: "errors" });
    var self = this;
    result.errors.forEach(function (error) {
      var violationStep = self.steps.filter(function (s) { return s.kind === "violation"; })[0];
      list.appendChild(el("li", null, self.errorWords(error),
        violationStep ? [" ", self.stepButton(violationStep.index, t("show the move"))] : null,
        el("details", { class: "error-details" }, el("summary", { text: t("Details") }),
          el("code", { text: error.code }), " ", el("code", { text: error.path || "/" }))));
    });
    panel.appendChild(list);
  }

  if (result.outcome) {
    var outcome = el("section", { class: "outcome", "aria-labelledby": "outcome-title" });
    outcome.appendChild(el("h3", { id: "outcome-title", text: t("Outcome") }));
    (this.game.renderOutcome || generic.renderOutcome)(outcome, result, h);
    panel.appendChild(outcome);
  }
  panel.appendChild(this.claimsSection());
  var points = this.pointsSection(h);
  if (points) panel.appendChild(points);
}

export function claimsSection() {
  var result = this.result;
  var section = el("section", { class: "claims", "aria-labelledby": "claims-title" });
  section.appendChild(el("h3", { id: "claims-title", text: t("Claimed against computed") }));
  var claims = result.claims;
  var claimed = this.page.log && this.page.log.claimed;
  if (!claims) {
    section.appendChild(el("p", { class: "empty-note", text: result.outcome
      ? t("The log claims nothing: nothing to compare.")
      : t("No outcome to compare claims with.") }));
    return section;
  }
  section.appendChild(el("p", { id: "claims-verdict" }, claims.match
    ? el("span", { class: "badge good", text: t("claims match") })
    : el("span", { class: "badge status-illegal", text: nt("{n} difference", "{n} differences", claims.differences.length) })));
  var differs = {};
  claims.differences.forEach(function (d) { differs[d.field] = d; });
  var rows = [];
  if (claimed && typeof claimed === "object") {
    claimLeaves(claimed, "", [], false).forEach(function (leaf) {
      var diff = differs[leaf[0]];
      var computed = diff ? diff.computed : resolve(result.outcome, leaf[0]).value;
      rows.push({ field: leaf[0], claimed: leaf[1], computed: computed, differs: !!diff });
      delete differs[leaf[0]];
    });
  }
  Object.keys(differs).forEach(function (field) {
    rows.push({ field: field, claimed: differs[field].claimed, computed: differs[field].computed, differs: true });
  });
  var self = this;
  var sources = this.sources();
  var disputes = el("ul", { class: "disputes" });
  rows.forEach(function (row) {
    if (row.differs) disputes.appendChild(self.disputeLine(row, sources));
  });
  if (disputes.firstChild) section.appendChild(disputes);
  var table = el("table", { class: "claims-table" },
    el("caption", { class: "visually-hidden", text: t("Each claimed value (the score sheet) and the value the replay computed") }),
    el("thead", null, el("tr", null, el("th", { scope: "col", text: t("What") }),
      el("th", { scope: "col", text: t("Score sheet") }), el("th", { scope: "col", text: t("Replay") }))));
  var body = el("tbody");
  rows.forEach(function (row) {
    body.appendChild(el("tr", { class: row.differs ? "differs" : "matches", dataset: { field: row.field } },
      el("td", null, el("span", { class: "what", title: row.field, text: claimWords(claimParts(row.field, self.players)) }), el("br"),
        el("span", { class: "verdict", text: row.differs ? "✗ " + t("differs") : "✓ " + t("matches") })),
      el("td", { class: "claimed", text: show(row.claimed) }),
      el("td", { class: "computed", text: show(row.computed) })));
  });
  table.appendChild(body);
  section.appendChild(el("div", { class: "table-scroll", tabindex: "0" }, table));
  return section;
}

// The steps that gave players points (the game's renderer says which; by default the steps with a
// collector), each with its round and turn.
export function sources(h) {
  var steps = this.steps;
  var found = this.game.pointSources ? this.game.pointSources(this.result, h || this.helpers())
    : defaultPointSources(steps);
  return (found || []).map(function (s) {
    var step = steps[s.index] || {};
    return { player: s.player, index: s.index, points: s.points, title: s.title || s.label,
      round: step.round === undefined ? null : step.round, turn: step.turn === undefined ? null : step.turn };
  });
}

// One difference in words: "Round 1, Alice: score sheet 19, replay 23 — from turns 2, 4 and 5",
// each turn a button to the step that scored it (a score, total or collection of one player).
var SOURCED = { scores: true, totals: true, collected: true };

export function disputeLine(row, sources) {
  var parts = claimParts(row.field, this.players);
  var line = el("li", { class: "differs", dataset: { field: row.field } },
    tn("{what}: score sheet {claimed}, replay {computed}", {
      what: el("strong", { class: "what", text: claimWords(parts) }),
      claimed: el("b", { class: "claimed", text: show(row.claimed) }),
      computed: el("b", { class: "computed", text: show(row.computed) }) }));
  if (!sources.length || parts.player === null || !SOURCED[parts.key]) return line;
  var mine = sources.filter(function (s) {
    return s.player === parts.player && (parts.round === null || s.round === parts.round);
  });
  if (!mine.length) {
    line.appendChild(document.createTextNode(" — " + (parts.round === null ? t("nothing collected") : t("nothing collected this round"))));
    return line;
  }
  var self = this;
  var byRound = [];
  mine.forEach(function (s) {
    var group = byRound[byRound.length - 1];
    if (!group || group.round !== s.round) byRound.push(group = { round: s.round, turns: [] });
    var turn = group.turns[group.turns.length - 1];
    if (turn && turn.turn === s.turn) turn.steps.push(s);
    else group.turns.push({ turn: s.turn, steps: [s] });
  });
  var from = [" — " + t("from") + " "];
  byRound.forEach(function (group, g) {
    if (g > 0) from.push("; ");
    if (parts.round === null && group.round !== null) from.push(t("round {n}", { n: group.round }) + " ");
    var withTurns = group.turns.filter(function (x) { return x.turn !== null; }).length === group.turns.length;
    from.push(withTurns ? nt("turn", "turns", group.turns.length) + " " : nt("step", "steps", group.turns.length) + " ");
    from = from.concat(listWords(group.turns.map(function (tu) {
      var first = tu.steps[0];
      var points = tu.steps.reduce(function (sum, s) { return sum + (s.points || 0); }, 0);
      var button = self.stepButton(first.index, String(withTurns ? tu.turn : first.index));
      button.classList.add("source");
      button.setAttribute("aria-label", (parts.player) + ": " + (group.round !== null ? t("round {n}", { n: group.round }) + ", " : "") +
        (withTurns ? t("turn {n}", { n: tu.turn }) : t("step {n}", { n: first.index })) + ", +" + points + " (" + t("step {n}", { n: first.index }) + ")");
      button.title = tu.steps.map(function (s) { return s.title || ""; }).join("; ") + " (+" + points + ")";
      return button;
    })));
  });
  append(line, from);
  return line;
}

export function pointsSection(h) {
  var sources = this.game.pointSources ? this.game.pointSources(this.result, h) : defaultPointSources(this.steps);
  if (!sources || !sources.length) return null;
  var byPlayer = {};
  var order = this.players.slice();
  sources.forEach(function (s) {
    if (!byPlayer[s.player]) { byPlayer[s.player] = []; if (order.indexOf(s.player) < 0) order.push(s.player); }
    byPlayer[s.player].push(s);
  });
  var self = this;
  var section = el("section", { class: "points", "aria-labelledby": "points-title" });
  section.appendChild(el("h3", { id: "points-title", text: t("Where the points came from") }));
  var list = el("ul", { class: "points-list" });
  order.forEach(function (player) {
    var items = byPlayer[player];
    if (!items) return;
    var total = items.reduce(function (sum, s) { return sum + (s.points || 0); }, 0);
    list.appendChild(el("li", { dataset: { player: player } },
      el("strong", { text: player }), " — " + nt("{n} point", "{n} points", total) + " " + nt("in {n} collection", "in {n} collections", items.length),
      el("div", { class: "jumps" }, items.map(function (s) {
        var button = self.stepButton(s.index, s.label || t("step {n}", { n: s.index }));
        button.setAttribute("aria-label", player + ": " + (s.title || s.label || "") + ", " + t("step {n}", { n: s.index }));
        if (s.title) button.title = s.title;
        return button;
      }))));
  });
  section.appendChild(list);
  return section;
}

function defaultPointSources(steps) {
  return steps.filter(function (s) { return s.data && typeof s.data.collector === "string"; })
    .map(function (s) { return { player: s.data.collector, index: s.index, points: s.data.icons || 0, label: t("step {n}", { n: s.index }) }; });
}
