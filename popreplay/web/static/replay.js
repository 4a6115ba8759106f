/*
 * popreplay replay viewer: controls, slider, autoplay, keyboard, #step=N, notes; the result panel
 * is its part static/replay-result.js (loaded before this file, added to the Viewer here).
 *
 * THE PER-GAME RENDERER CONTRACT (also in docs/viewer.md)
 * --------------------------------------------------------
 * The replay page loads static/games/<game>.js (when it exists), replay-result.js and then this
 * file. A game file registers itself:
 *
 *   window.PopReplayGames = window.PopReplayGames || {};
 *   window.PopReplayGames["<game>"] = {
 *     renderState(container, step, result, helpers),   // required: draw step.state into container
 *     renderOutcome(container, result, helpers),       // optional: the mode's outcome (result panel)
 *     pointSources(result, helpers),                   // optional: [{player, index, points, label}]
 *   };
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
 * Without a game file, or when it throws, a generic renderer shows the state as a definition list.
 *
 * Step numbers are the steps' `index` (0-based), the same number as in `#step=N` and in
 * `popreplay replay --step N`.
 */
(function () {
  "use strict";

  var games = (window.PopReplayGames = window.PopReplayGames || {});
  var t = window.t, nt = window.nt, tn = window.tn; // the page's language (/assets/i18n/<lang>.js)

  function statusWord(status) {
    return { complete: t("complete"), incomplete: t("incomplete"), illegal: t("illegal"),
      invalid: t("invalid") }[status] || status;
  }

  function kindWord(kind) {
    // the step kinds as the engines name them (the note's label; data-kind keeps the code)
    return { deal: t("deal"), draw: t("draw"), explode: t("explode"), "game-end": t("game-end"),
      place: t("place"), reveal: t("reveal"), "round-end": t("round-end"), violation: t("violation"),
      play: t("play"), discard: t("discard"), fmc: t("fmc"), lay: t("lay"), reshuffle: t("reshuffle"),
      "challenge-won": t("challenge-won"), flip: t("flip"), "rainbow-penalty": t("rainbow-penalty"),
      slap: t("slap"), "time-up": t("time-up"), bloops: t("bloops"), counter: t("counter"),
      "effect-lost": t("effect-lost"), give: t("give"), keep: t("keep"), look: t("look"),
      rearrange: t("rearrange"), swap: t("swap") }[kind] || kind;
  }
  var SPEEDS = { "0.5": 2000, "1": 1000, "2": 500, "4": 250 };
  var SWIPE_MIN = 50; // CSS pixels a finger travels sideways for a swipe to count

  // ---------------------------------------------------------------------------------------------
  // DOM helpers

  function el(tag, attrs) {
    var node = document.createElement(tag);
    var key;
    attrs = attrs || {};
    for (key in attrs) {
      if (!Object.prototype.hasOwnProperty.call(attrs, key)) continue;
      var value = attrs[key];
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else if (key === "dataset") Object.keys(value).forEach(function (k) { node.dataset[k] = value[k]; });
      else if (key === "on") Object.keys(value).forEach(function (k) { node.addEventListener(k, value[k]); });
      else node.setAttribute(key, value === true ? "" : String(value));
    }
    for (var i = 2; i < arguments.length; i++) append(node, arguments[i]);
    return node;
  }

  function append(node, child) {
    if (child === null || child === undefined || child === false) return;
    if (Array.isArray(child)) { child.forEach(function (c) { append(node, c); }); return; }
    node.appendChild(typeof child === "string" || typeof child === "number"
      ? document.createTextNode(String(child)) : child);
  }

  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }

  function show(value) {
    if (value === null || value === undefined) return "—";
    if (typeof value === "string") return value;
    if (Array.isArray(value) && value.every(function (v) { return typeof v !== "object" || v === null; })) {
      return value.length ? value.join(", ") : t("(none)");
    }
    return JSON.stringify(value);
  }

  // JSON Pointer (RFC 6901)
  function pointerTokens(pointer) {
    if (!pointer) return [];
    return pointer.split("/").slice(1).map(function (t) { return t.replace(/~1/g, "/").replace(/~0/g, "~"); });
  }

  function resolve(doc, pointer) {
    var tokens = pointerTokens(pointer);
    var node = doc;
    for (var i = 0; i < tokens.length; i++) {
      if (node === null || typeof node !== "object" || !(tokens[i] in node)) return { found: false };
      node = node[tokens[i]];
    }
    return { found: true, value: node };
  }

  // Flatten a (partial) claimed object into [pointer, value] leaves, the way claims are compared:
  // maps key by key, the `rounds` list entry by entry, any other list as a whole.
  function claimLeaves(claimed, prefix, out, inRounds) {
    if (claimed !== null && typeof claimed === "object" && !Array.isArray(claimed)) {
      Object.keys(claimed).forEach(function (k) {
        claimLeaves(claimed[k], prefix + "/" + k.replace(/~/g, "~0").replace(/\//g, "~1"), out, k === "rounds");
      });
    } else if (Array.isArray(claimed) && inRounds) {
      claimed.forEach(function (entry, i) { claimLeaves(entry, prefix + "/" + i, out, false); });
    } else {
      out.push([prefix, claimed]);
    }
    return out;
  }

  // A claimed field in words: "/rounds/0/scores/Alice" -> "Round 1, Alice" (rounds counted from 1
  // as the tables show them; a round's score needs no word), "/totals/Alice" -> "Alice, total".
  var CLAIM_WORDS = {
    scores: "", totals: t("total"), winners: t("winners"), winner: t("winner"), collected: t("cards collected"),
    kept: t("kept card"), chief_pending: t("left with the Chief"), tie_break: t("tie-break"),
    cards_left: t("cards left"), failed_turn: t("failed turn"), cards_left_in_play: t("cards left in play"),
    turns_played: t("turns played"), layout_cards_left: t("layout cards left"), won_by: t("won by"),
    ended_by: t("ended by"), central_pile: t("central pile"), folies_pile: t("Folies pile"),
  };

  function claimParts(field, players) {
    var tokens = pointerTokens(field);
    var parts = { round: null, player: null, key: null, words: [] };
    for (var i = 0; i < tokens.length; i++) {
      var token = tokens[i];
      if (token === "rounds" && /^\d+$/.test(tokens[i + 1] || "")) {
        parts.round = parseInt(tokens[i + 1], 10) + 1;
        i += 1;
      } else if (players.indexOf(token) >= 0) {
        parts.player = token;
      } else {
        if (parts.key === null) parts.key = token;
        var word = Object.prototype.hasOwnProperty.call(CLAIM_WORDS, token) ? CLAIM_WORDS[token]
          : /^\d+$/.test(token) ? "#" + (parseInt(token, 10) + 1) : token.replace(/_/g, " ");
        if (word) parts.words.push(word);
      }
    }
    return parts;
  }

  function claimWords(parts) {
    var head = [];
    if (parts.round !== null) head.push(t("Round {n}", { n: parts.round }));
    if (parts.player !== null) head.push(parts.player);
    if (parts.words.length) head.push(parts.words.join(" "));
    var text = head.join(", ") || t("the whole outcome");
    return text.charAt(0).toUpperCase() + text.slice(1);
  }

  // "Round 1: 5 starting cards" -> "5 starting cards" when "Round 1" is already said ("Round 1 :"
  // in French: any spaces before the colon)
  function dropLead(text, lead) {
    if (typeof text !== "string" || text.indexOf(lead) !== 0) return text;
    var rest = text.slice(lead.length).replace(/^[\s\u00a0\u202f]*:[\s\u00a0\u202f]*/, "");
    return rest.length < text.length - lead.length ? rest : text;
  }

  // "2, 4 and 5"
  function listWords(items) {
    if (items.length <= 1) return items.slice();
    var out = [];
    items.forEach(function (item, i) {
      if (i > 0) out.push(i === items.length - 1 ? t(" and ") : ", ");
      out.push(item);
    });
    return out;
  }

  // ---------------------------------------------------------------------------------------------
  // the generic fallback renderer

  var generic = {
    renderState: function (container, step, result, h) {
      if (!step.state) {
        container.appendChild(h.el("p", { class: "empty-note", text: t("No table at this step.") }));
        return;
      }
      var dl = h.el("dl", { class: "kv generic-state" });
      Object.keys(step.state).forEach(function (key) {
        dl.appendChild(h.el("dt", { text: key }));
        dl.appendChild(h.el("dd", null, h.el("code", { text: show(step.state[key]) })));
      });
      container.appendChild(h.el("h3", { text: t("Table after this step") }));
      container.appendChild(dl);
    },
    renderOutcome: function (container, result, h) {
      var outcome = result.outcome;
      if (!outcome) return;
      var dl = h.el("dl", { class: "kv" });
      Object.keys(outcome).forEach(function (key) {
        dl.appendChild(h.el("dt", { text: key }));
        dl.appendChild(h.el("dd", { text: show(outcome[key]) }));
      });
      container.appendChild(dl);
    },
  };

  // ---------------------------------------------------------------------------------------------
  // the viewer

  // Replay format 2 (docs/log-format.md, "Replay formats"): a step after the first carries
  // `state_patch` (JSON Patch ops: add, remove, replace, against the step before's state)
  // instead of `state`. Gives every step its whole `state` again, in place; a new state shares
  // with the one before every object and array its patch does not touch. Format 1 passes as is.
  function withStates(steps) {
    var before = null;
    steps.forEach(function (step) {
      if (step.state_patch) {
        var fresh = new Set();
        var own = function (node) {
          if (fresh.has(node)) return node;
          var copy = Array.isArray(node) ? node.slice() : Object.assign({}, node);
          fresh.add(copy);
          return copy;
        };
        var state = before;
        step.state_patch.forEach(function (op) {
          var keys = op.path.split("/").slice(1).map(function (k) { return k.replace(/~1/g, "/").replace(/~0/g, "~"); });
          if (!keys.length) { state = op.value; return; }
          state = own(state);
          var node = state;
          for (var i = 0; i < keys.length - 1; i++) node = node[keys[i]] = own(node[keys[i]]);
          var last = keys[keys.length - 1];
          if (Array.isArray(node)) {
            if (op.op === "remove") node.splice(Number(last), 1);
            else if (op.op === "add") node.splice(last === "-" ? node.length : Number(last), 0, op.value);
            else node[Number(last)] = op.value;
          } else if (op.op === "remove") delete node[last];
          else node[last] = op.value;
        });
        step.state = state;
        delete step.state_patch;
      }
      before = step.state;
    });
    return steps;
  }

  function Viewer(root, page) {
    this.root = root;
    this.page = page;
    this.result = page.result;
    this.steps = withStates(page.result.steps || []);
    this.game = games[page.result.game] || generic;
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
    append(note, el("span", { class: "kind", dataset: { kind: step.kind }, text: kindWord(step.kind) }));
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

  function cssEscape(value) {
    return window.CSS && window.CSS.escape ? window.CSS.escape(value) : String(value).replace(/["\\]/g, "\\$&");
  }

  // the result panel in its own file (replay-result.js), loaded first
  var parts = window.PopReplayViewerParts || {};
  Object.keys(parts).forEach(function (name) {
    parts[name]({ Viewer: Viewer, append: append, claimLeaves: claimLeaves, claimParts: claimParts, claimWords: claimWords,
      clear: clear, cssEscape: cssEscape, el: el, generic: generic, listWords: listWords, resolve: resolve, show: show,
      statusWord: statusWord });
  });

  // ---------------------------------------------------------------------------------------------

  function boot() {
    var node = document.getElementById("replay-data");
    var root = document.getElementById("viewer");
    if (!node || !root) return;
    var page = JSON.parse(node.textContent);
    if (page.replay_url && !page.result.steps) {
      // a long game: the page carries its result, the steps come from the API (gzip, cached)
      fetch(page.replay_url, { headers: { Accept: "application/json", "Accept-Language": window.PopReplayLang || "en" } })
        .then(function (response) { if (!response.ok) throw new Error(response.status); return response.json(); })
        .then(function (replay) { page.result = replay; start(root, page); })
        .catch(function () { start(root, page); });
      return;
    }
    start(root, page);
  }

  function start(root, page) {
    window.popreplayViewer = new Viewer(root, page);
    keepStepInSwitch();
    ownerNotice(page.slug, root);
  }

  // The owner token is shown once, when the game is stored from the home page: that page keeps
  // it in this browser's localStorage so that it survives the jump to the replay.
  function ownerNotice(slug, root) {
    var token = null;
    try { token = slug ? window.localStorage.getItem("popreplay-owner:" + slug) : null; } catch (e) { token = null; }
    if (!token) return;
    var box = el("section", { class: "panel owner-notice", "aria-label": t("Your owner token") },
      el("p", null, tn("You stored this game from this browser. Keep its owner token: only with it can the game be deleted. {token}", {
        token: el("code", { class: "token", text: token }) })),
      el("details", { class: "error-details" }, el("summary", { text: t("Details") }),
        el("code", { text: "DELETE /api/v1/games/" + slug }), " ", el("code", { text: "Authorization: Bearer …" })),
      el("button", { type: "button", on: { click: function () {
        try { window.localStorage.removeItem("popreplay-owner:" + slug); } catch (e) { /* ignore */ }
        box.parentNode.removeChild(box);
      } } }, t("I have saved it: forget it here")));
    var layout = root.parentNode;
    layout.parentNode.insertBefore(box, layout);
  }

  // The address (what people copy to share this moment) keeps a French page French: ?lang=fr.
  function shareSearch() {
    var search = window.location.search;
    if (window.PopReplayLang !== "fr" || /(?:^\?|&)lang=fr(?:&|$)/.test(search)) return search;
    search = search.replace(/([?&])lang=[^&]*&?/, "$1").replace(/[?&]$/, "");
    return (search ? search + "&" : "?") + "lang=fr";
  }

  // The language switch keeps the step: its links get the current #step=N.
  function keepStepInSwitch() {
    var links = document.querySelectorAll(".lang-switch a[data-lang]");
    function update() {
      var m = /(?:^#|&)step=(\d+)/.exec(window.location.hash);
      links.forEach(function (a) {
        a.setAttribute("href", a.getAttribute("href").split("#")[0] + (m ? "#step=" + m[1] : ""));
      });
    }
    links.forEach(function (a) { a.addEventListener("click", update); a.addEventListener("focus", update); a.addEventListener("mouseenter", update); });
    window.addEventListener("hashchange", update);
    update();
  }

  window.PopReplayViewer = { el: el, statusWord: statusWord, shareSearch: shareSearch, resolve: resolve, claimLeaves: claimLeaves, generic: generic,
    claimParts: claimParts, claimWords: claimWords, show: show };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
  else boot();
})();
