/*
 * popreplay replay viewer: controls, slider, autoplay, keyboard, #step=N, notes; the result panel
 * is its part viewer-result.js.
 *
 * THE PER-GAME RENDERER CONTRACT (also in docs/viewer.md)
 * --------------------------------------------------------
 * A game's renderer is an ES module of its kit (popreplay/games/<g>/static/<g>.js, the kit's
 * `script`), named by the page (a <link rel="modulepreload" data-game data-part="renderer">, see
 * games.js) and imported by the page module. It exports:
 *
 *   export function renderState(container, step, result, helpers)  // required: draw step.state
 *   export function renderOutcome(container, result, helpers)      // optional: the mode's outcome
 *   export function pointSources(result, helpers)                  // optional: [{player, index, points, label}]
 *   export var kindWords = {kind: word}                            // optional: its step kinds in words
 *
 * - `container` is an empty element; the renderer appends to it (it is emptied before every step).
 * - `step` is one entry of `result.steps`: {index, kind, round, turn, note, data, state}. `state`
 *   may be null (a violation before any table exists).
 * - `result` is the replay: the result object (spec section 6) plus `steps`.
 * - `helpers`:
 *     el(tag, attrs, ...children)  build an element; attrs: {class, text, dataset:{}, on:{click}}
 *                                  or any attribute; children: nodes, strings, arrays, null.
 *     index, steps, prev, next     the step number, all steps, the step before / after (or null)
 *     players                      the players in log order (from the page; may be [])
 *     isRevealed(player)           whether this player's hand is shown (hidden by default)
 *     revealButton(player)         a labelled toggle button that shows / hides that hand
 *     stepButton(index, text)      a button that jumps to a step
 *     goTo(index)                  jump to a step
 * Without a renderer module, or when it throws, a generic renderer shows the state as a definition list.
 *
 * Step numbers are the steps' `index` (0-based), the same number as in `#step=N` and in
 * `popreplay replay --step N`.
 */

import { append, clear, cssEscape, el } from "./dom.js";
import { generic } from "./generic.js";
import { lang, t } from "./i18n.js";
import { resolve } from "./pointer.js";
import { withStates } from "./replay-format.js";
import { dropLead, kindWord } from "./words.js";
import { claimsSection, disputeLine, pointsSection, renderResult, sources } from "./viewer-result.js";

var SPEEDS = { "0.5": 2000, "1": 1000, "2": 500, "4": 250 };
var SWIPE_MIN = 50; // CSS pixels a finger travels sideways for a swipe to count

// `game`: the game's renderer module (its exports, the contract above), or null
export function Viewer(root, page, game) {
  this.root = root;
  this.page = page;
  this.result = page.result;
  this.steps = withStates(page.result.steps || []);
  this.game = game || generic;
  this.players = page.players || [];
  this.index = 0;
  this.timer = null;
  this.revealed = {};
  this.build();
  this.renderResult();
  var start = this.hashStep();
  this.go(start === null ? 0 : start, { updateHash: start !== null });
  var self = this;
  window.addEventListener("hashchange", function () {
    var n = self.hashStep();
    if (n !== null && n !== self.index) self.go(n, { updateHash: false });
  });
  document.addEventListener("keydown", function (event) { self.onKey(event); });
}

Viewer.prototype.last = function () { return Math.max(this.steps.length - 1, 0); };

Viewer.prototype.hashStep = function () {
  var match = /(?:^#|&)step=(\d+)/.exec(window.location.hash);
  if (!match) return null;
  return Math.min(parseInt(match[1], 10), this.last());
};

Viewer.prototype.build = function () {
  var self = this;
  var q = function (sel) { return self.root.querySelector(sel); };
  this.el = {
    first: q("[data-action=first]"), prev: q("[data-action=prev]"),
    next: q("[data-action=next]"), last: q("[data-action=last]"),
    play: q("[data-action=play]"), speed: q("#speed"), slider: q("#step-slider"),
    count: q("#step-count"), note: q("#step-note"), stage: q("#stage"),
    result: document.getElementById("result-panel"),
  };
  this.el.slider.max = String(this.last());
  this.el.slider.disabled = this.steps.length === 0;
  this.el.first.addEventListener("click", function () { self.stop(); self.go(0); });
  this.el.prev.addEventListener("click", function () { self.stop(); self.go(self.index - 1); });
  this.el.next.addEventListener("click", function () { self.stop(); self.go(self.index + 1); });
  this.el.last.addEventListener("click", function () { self.stop(); self.go(self.last()); });
  this.el.play.addEventListener("click", function () { self.timer ? self.stop() : self.play(); });
  this.el.speed.addEventListener("change", function () { if (self.timer) { self.stop(); self.play(); } });
  this.el.slider.addEventListener("input", function () { self.go(parseInt(self.el.slider.value, 10)); });
  this.swipeToStep(this.el.stage);
  document.querySelectorAll("[data-jump]").forEach(function (button) {
    button.hidden = false;
    button.addEventListener("click", function () {
      self.stop();
      self.go(parseInt(button.getAttribute("data-jump"), 10));
      self.el.note.scrollIntoView({ block: "nearest" });
    });
  });
};

// A swipe on the table steps: to the left is the next step (the table moves on like a page
// turned), to the right the previous one. Mostly-vertical moves are the page scrolling.
Viewer.prototype.swipeToStep = function (area) {
  var self = this;
  var start = null;
  area.addEventListener("touchstart", function (event) {
    start = event.touches.length === 1 ? { x: event.touches[0].clientX, y: event.touches[0].clientY } : null;
  }, { passive: true });
  area.addEventListener("touchend", function (event) {
    if (!start || event.changedTouches.length !== 1) return;
    var dx = event.changedTouches[0].clientX - start.x;
    var dy = event.changedTouches[0].clientY - start.y;
    start = null;
    if (Math.abs(dx) < SWIPE_MIN || Math.abs(dx) < 1.5 * Math.abs(dy)) return;
    self.stop();
    self.go(self.index + (dx < 0 ? 1 : -1));
  }, { passive: true });
  area.addEventListener("touchcancel", function () { start = null; }, { passive: true });
};

Viewer.prototype.onKey = function (event) {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  var target = event.target;
  var tag = target && target.tagName;
  if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || (target && target.isContentEditable)) return;
  var to = null;
  if (event.key === "ArrowRight") to = this.index + 1;
  else if (event.key === "ArrowLeft") to = this.index - 1;
  else if (event.key === "Home") to = 0;
  else if (event.key === "End") to = this.last();
  if (to === null) return;
  event.preventDefault();
  this.stop();
  this.go(to);
};

Viewer.prototype.play = function () {
  var self = this;
  if (this.index >= this.last()) this.go(0);
  var delay = SPEEDS[this.el.speed.value] || 1000;
  this.timer = window.setInterval(function () {
    if (self.index >= self.last()) { self.stop(); return; }
    self.go(self.index + 1);
  }, delay);
  this.el.play.dataset.playing = "true";
  this.el.play.querySelector(".label").textContent = t("Pause");
  this.el.play.querySelector(".icon").textContent = "‖";
};

Viewer.prototype.stop = function () {
  if (!this.timer) return;
  window.clearInterval(this.timer);
  this.timer = null;
  this.el.play.dataset.playing = "false";
  this.el.play.querySelector(".label").textContent = t("Play");
  this.el.play.querySelector(".icon").textContent = "▶";
};

Viewer.prototype.helpers = function () {
  var self = this;
  var i = this.index;
  return {
    el: el,
    index: i,
    steps: this.steps,
    prev: i > 0 ? this.steps[i - 1] : null,
    next: i + 1 < this.steps.length ? this.steps[i + 1] : null,
    players: this.players,
    isRevealed: function (player) { return !!self.revealed[player]; },
    revealButton: function (player) {
      var shown = !!self.revealed[player];
      return el("button", {
        type: "button", class: "hand-toggle",
        dataset: { player: player },
        on: { click: function () {
          self.revealed[player] = !self.revealed[player];
          self.renderStep();
          var again = self.el.stage.querySelector('.hand-toggle[data-player="' + cssEscape(player) + '"]');
          if (again) again.focus();
        } },
      }, shown ? t("Hide {player}’s hand", { player: player }) : t("Show {player}’s hand", { player: player }));
    },
    stepButton: function (index, text) { return self.stepButton(index, text); },
    goTo: function (index) { self.stop(); self.go(index); },
  };
};

Viewer.prototype.stepButton = function (index, text) {
  var self = this;
  return el("button", {
    type: "button", class: "jump", dataset: { step: String(index) },
    "aria-label": text ? null : t("Go to step {n}", { n: index }),
    on: { click: function () { self.stop(); self.go(index); self.el.note.scrollIntoView({ block: "nearest" }); } },
  }, text || t("step {n}", { n: index }));
};

Viewer.prototype.go = function (index, options) {
  options = options || {};
  if (!this.steps.length) { this.renderEmpty(); return; }
  this.index = Math.max(0, Math.min(index, this.last()));
  this.renderStep();
  if (options.updateHash !== false) {
    var hash = "#step=" + this.index;
    if (window.location.hash !== hash || window.location.search !== shareSearch()) {
      window.history.replaceState(null, "", shareSearch() + hash);
    }
  }
};

Viewer.prototype.renderEmpty = function () {
  this.el.count.textContent = t("No steps");
  this.el.note.textContent = t("This log has no replayable steps.");
  [this.el.first, this.el.prev, this.el.next, this.el.last, this.el.play].forEach(function (b) { b.disabled = true; });
};

Viewer.prototype.renderStep = function () {
  var step = this.steps[this.index];
  var last = this.last();
  this.el.slider.value = String(this.index);
  this.el.slider.setAttribute("aria-valuetext", t("Step {n} of {last}: {note}", { n: this.index, last: last, note: step.note }));
  this.el.count.textContent = t("Step {n} / {last}", { n: this.index, last: last });
  this.el.first.disabled = this.el.prev.disabled = this.index === 0;
  this.el.next.disabled = this.el.last.disabled = this.index === last;
  this.root.dataset.step = String(this.index);

  var note = this.el.note;
  clear(note);
  note.className = "note kind-" + step.kind;
  var where = [];
  if (step.round !== null && step.round !== undefined) where.push(t("Round {n}", { n: step.round }));
  if (step.turn !== null && step.turn !== undefined) where.push(t("turn {n}", { n: step.turn }));
  append(note, el("span", { class: "kind", dataset: { kind: step.kind }, text: kindWord(step.kind, this.game.kindWords) }));
  if (where.length) append(note, el("span", { class: "where", text: t("{where}:", { where: where.join(", ") }) }));
  // the note without the words the line already shows ("Round 1: Round 1: …"), and a
  // violation without its JSON Pointer (the stage's box has it in its details)
  var text = step.kind === "violation" && step.data && step.data.error ? this.errorWords(step.data.error, "text") : step.note;
  if (step.round !== null && step.round !== undefined) text = dropLead(text, t("Round {n}", { n: step.round }));
  if (step.turn !== null && step.turn !== undefined) text = dropLead(text, t("Turn {n}", { n: step.turn }));
  append(note, el("span", { class: "text", text: text }));

  var stage = this.el.stage;
  clear(stage);
  if (step.kind === "violation" && step.data && step.data.error) {
    stage.appendChild(this.errorBox(step.data.error));
  }
  var box = el("div", { class: "state" });
  stage.appendChild(box);
  try {
    (this.game.renderState || generic.renderState)(box, step, this.result, this.helpers());
  } catch (error) {
    clear(box);
    generic.renderState(box, step, this.result, this.helpers());
    if (window.console) window.console.error(error);
  }
  var current = String(this.index);
  document.querySelectorAll(".jump").forEach(function (b) {
    if (b.dataset.step === current) b.setAttribute("aria-current", "step");
    else b.removeAttribute("aria-current");
  });
};

// An error in words (the server's: 1-based round and turn, the player by name), the code and
// the JSON Pointer only inside a "Details" toggle.
Viewer.prototype.errorWords = function (error, part) {
  var words = this.page.error_words || [];
  var errors = this.result.errors || [];
  for (var i = 0; i < errors.length; i++) {
    if (errors[i].code === error.code && errors[i].path === error.path && words[i]) return words[i][part || "line"];
  }
  return error.message;
};

Viewer.prototype.errorBox = function (error) {
  var log = this.page.log;
  var at = log && error.path !== undefined ? resolve(log, error.path) : { found: false };
  return el("div", { class: "step-error", role: "note" },
    el("strong", { text: t("Illegal move:") + " " }), this.errorWords(error),
    el("details", { class: "error-details" }, el("summary", { text: t("Details") }),
      el("div", null, "(" + error.code + ") " + t("At") + " ", el("code", { text: error.path || "/" }),
        at.found ? [" = ", el("code", { text: JSON.stringify(at.value) })] : null)));
};

// the result panel (viewer-result.js)
Object.assign(Viewer.prototype, { renderResult: renderResult, claimsSection: claimsSection, sources: sources,
  disputeLine: disputeLine, pointsSection: pointsSection });

// The address (what people copy to share this moment) keeps a French page French: ?lang=fr.
export function shareSearch() {
  var search = window.location.search;
  if (lang !== "fr" || /(?:^\?|&)lang=fr(?:&|$)/.test(search)) return search;
  search = search.replace(/([?&])lang=[^&]*&?/, "$1").replace(/[?&]$/, "");
  return (search ? search + "&" : "?") + "lang=fr";
}
