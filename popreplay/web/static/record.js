/*
 * popreplay recorder (GET /record): the game-agnostic frame — setup form, draft in localStorage,
 * undo/redo, offline queue, live check, table drawn by the replay renderers, running scores, step
 * notes, end screen with claims, saving/continuing, what-if branches.
 *
 * THE PER-GAME PANEL CONTRACT (the full text, with the engine and API sides: docs/recorder.md,
 * section "Contracts for game panels")
 * ---------------------------------------------------------------------------------------------
 * The page loads static/games/<game>.js (replay renderer), static/games/<game>.record.js (the
 * entry panel), the recorder's parts (record-share.js: saving and continuing; record-setup.js:
 * the setup form; record-end.js: the end screen), then this file. A panel registers:
 *
 *   window.PopReplayRecorders = window.PopReplayRecorders || {};
 *   window.PopReplayRecorders["<game>"] = {
 *     renderPanel(container, rec),          // required: draw the entry panel into container
 *     reset(),                              // optional: drop any half-built entry
 *     start(setup) -> log,                  // optional: the empty draft for this setup
 *     setupForm(container, setup, helpers), // optional: the game's options in the setup form
 *   };
 *
 * setup = {game, mode, players: [names], options: {}, recordHands: bool, meta: {}}
 *
 * rec (fresh for each renderPanel call):
 *   game, mode, players, recordHands   from the setup
 *   draft        deep copy of the current draft log
 *   choices      the engine's `choices` answer for the draft ({over, next, ...}), null unchecked
 *   result       the last result object (no steps), or null
 *   steps        the last steps ("tail": all notes, the last two steps whole), or []
 *   offline      true while the network is down (entries queued, checked when it is back)
 *   waiting      entries made offline since the last check (choices are then narrowed by them)
 *   commit(mutate, label) -> Promise<bool>
 *                mutate(log) edits a deep copy of the draft in place (or returns a new log);
 *                the frame checks it; refused (engine message shown, draft unchanged) -> false
 *   ask(pending) -> Promise<choices answer | null offline>   (POST /api/v1/record/check, steps "none")
 *   refresh()    re-render the panel now
 *   helpers      {el(tag, attrs, ...children), clear(node)} as in replay.js
 *
 * Shared classes (static/record.css): rp-box rp-head rp-sub rp-hint rp-row rp-big rp-key rp-toggle
 * rp-on rp-check rp-done rp-error. Buttons carry data-act for tests and a text or aria-label.
 */
(function () {
  "use strict";

  var panels = (window.PopReplayRecorders = window.PopReplayRecorders || {});
  var renderers = (window.PopReplayGames = window.PopReplayGames || {});
  var t = window.t, nt = window.nt, tn = window.tn; // the page's language (/assets/i18n/<lang>.js)
  var LANG = window.PopReplayLang || "en";
  var STORE = "popreplay-recorder";
  // the modes as the engines name them, in the page's language (the rulebooks' words)
  var MODE_WORDS = { battle: t("battle"), coop: t("coop"), solo: t("solo"), puzzle: t("puzzle"),
    elimination: t("elimination"), timed: t("timed"), classic: t("classic"), standard: t("standard") };
  function modeWord(mode) { return MODE_WORDS[mode] || mode; }
  var API = "/api/v1/record";
  var RETRY_MS = 3000;

  // ---------------------------------------------------------------------------------------------
  // helpers (no rule here: only JSON, pointers and the DOM)

  function el() { return window.PopReplayViewer.el.apply(null, arguments); }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }
  function clone(value) { return value === undefined ? undefined : JSON.parse(JSON.stringify(value)); }
  function tokens(pointer) {
    return pointer === "" ? [] : pointer.slice(1).split("/").map(function (t) {
      return t.replace(/~1/g, "/").replace(/~0/g, "~");
    });
  }
  function child(node, token) { return Array.isArray(node) ? node[Number(token)] : node[token]; }

  // Put `value` at `pointer` inside `doc`, making the objects and lists on the way; a list at the
  // end of the way gets the value appended (an entry's card lists are filled that way).
  function put(doc, pointer, value) {
    var ts = tokens(pointer);
    var node = doc;
    for (var i = 0; i < ts.length - 1; i++) {
      var next = child(node, ts[i]);
      if (next === undefined || next === null) {
        next = /^\d+$/.test(ts[i + 1]) ? [] : {};
        if (Array.isArray(node)) node[Number(ts[i])] = next; else node[ts[i]] = next;
      }
      node = next;
    }
    var last = ts[ts.length - 1];
    if (Array.isArray(node)) node[Number(last)] = value; else node[last] = value;
    return doc;
  }

  // An entry built from an engine plan ({at, how, base, slots}) and the cards tapped in slot order
  // (docs/recorder.md): the generic half of every card-tapping panel.
  function buildEntry(plan, cards) {
    var entry = clone(plan.base || {});
    var k = 0;
    plan.slots.forEach(function (slot) {
      var taken = cards.slice(k, k + slot.count);
      k += slot.count;
      if (taken.length) put(entry, slot.path, slot.one ? taken[0] : taken);
    });
    return entry;
  }

  function placeEntry(log, plan, entry) {
    var ts = tokens(plan.at);
    var node = log;
    for (var i = 0; i < ts.length - 1; i++) node = child(node, ts[i]);
    var last = ts[ts.length - 1];
    if (plan.how === "append") {
      var list = child(node, last);
      if (!list) { list = []; if (Array.isArray(node)) node[Number(last)] = list; else node[last] = list; }
      list.push(entry);
    } else if (Array.isArray(node)) node[Number(last)] = entry;
    else node[last] = entry;
    return log;
  }

  // Offline: the engine's answer names the offers that the entries made since take out
  // (`spent`: [{offer, by: [{at, key?, where?}], left?}], docs/recorder.md "How drafts are kept"):
  // a value found `left` times (default once) more in the draft than in the checked draft at a
  // `by` place leaves every list at `offer`. No rule here: the engine's lists and places only.
  function visit(node, ts, fn, parent, key, wild) {
    if (node === undefined || node === null) return;
    if (!ts.length) { fn(node, parent, key, wild); return; }
    var head = ts[0], rest = ts.slice(1);
    if (head !== "*") { visit(child(node, head), rest, fn, node, head, wild); return; }
    Object.keys(node).forEach(function (k) {
      visit(child(node, k), rest, fn, node, k, { parent: node, key: k });
    });
  }
  function counted(log, by) {
    var n = {};
    by.forEach(function (place) {
      visit(log, tokens(place.at), function (item) {
        var where = place.where || {};
        if (Object.keys(where).some(function (k) { return where[k].indexOf(item[k]) < 0; })) return;
        var value = place.key ? item[place.key] : item;
        [].concat(value === undefined ? [] : value).forEach(function (v) {
          if (v !== null && typeof v !== "object") n[String(v)] = (n[String(v)] || 0) + 1;
        });
      });
    });
    return n;
  }
  function narrowed(choices, before, draft) {
    var out = clone(choices);
    (choices.spent || []).forEach(function (rule) {
      var was = counted(before, rule.by), now = counted(draft, rule.by), gone = {};
      Object.keys(now).forEach(function (v) {
        var left = rule.left && rule.left[v] !== undefined ? rule.left[v] : 1;
        if (now[v] - (was[v] || 0) >= left) gone[v] = true;
      });
      visit(out, tokens(rule.offer), function (list, parent, key, wild) {
        if (!Array.isArray(list)) return;
        var kept = list.filter(function (v) { return !gone[String(v)]; });
        if (!kept.length && wild) delete wild.parent[wild.key];  // an offer left with nothing goes
        else parent[key] = kept;
      });
    });
    return out;
  }

  function post(url, body, method, token) {
    // the API answers in the page's language (its messages; the codes never change)
    var headers = { "Content-Type": "application/json", Accept: "application/json", "Accept-Language": LANG };
    if (token) headers.Authorization = "Bearer " + token;
    return fetch(url, { method: method || "POST", headers: headers,
      body: body === undefined ? undefined : JSON.stringify(body) }).then(function (response) {
      return response.json().then(function (data) {
        if (!response.ok) { var e = new Error(data.message || response.statusText); e.body = data; e.status = response.status; throw e; }
        return data;
      });
    });
  }
  function isNetwork(error) { return !error.status; }

  // ---------------------------------------------------------------------------------------------
  // the draft: setup, log, undo/redo, saved game; kept in localStorage

  function Recorder(root, page) {
    this.root = root;
    this.page = page;
    this.games = {};
    var self = this;
    page.games.forEach(function (g) { self.games[g.name] = g; });
    this.state = null; // {setup, draft, undo, redo, saved, branchOf, checked}
    this.answer = null; // {result, steps, choices} for the current draft
    this.offline = false;
    this.error = null;
    this.busy = false;
    this.retry = null;
    this.status = document.getElementById("rec-status");
    window.addEventListener("online", function () { self.recheck(); });
    document.addEventListener("keydown", function (ev) {
      if (!self.state || ev.altKey || !(ev.ctrlKey || ev.metaKey)) return;
      var key = ev.key.toLowerCase();
      if (key === "z" && !ev.shiftKey) { ev.preventDefault(); self.undo(); }
      else if (key === "y" || (key === "z" && ev.shiftKey)) { ev.preventDefault(); self.redo(); }
    });
  }

  Recorder.prototype.load = function () {
    try { return JSON.parse(window.localStorage.getItem(STORE) || "null"); } catch (e) { return null; }
  };
  Recorder.prototype.save = function () {
    try {
      if (this.state) window.localStorage.setItem(STORE, JSON.stringify(this.state));
      else window.localStorage.removeItem(STORE);
    } catch (e) { this.say(t("This browser does not keep the draft (storage is full or off)."), true); }
  };

  Recorder.prototype.say = function (text, bad) {
    this.status.textContent = text || "";
    this.status.className = "rp-status" + (bad && text ? " rp-error" : "");
  };

  Recorder.prototype.start = function () {
    var params = new URLSearchParams(window.location.search);
    var self = this;
    if (params.get("from") && params.get("step") !== null) {
      var kept = this.load();  // a what-if link over a draft asks first, as "New" does
      if (kept && kept.draft && !window.confirm(t("Drop the draft in progress and try this what-if branch instead?"))) {
        window.history.replaceState(null, "", "/record");
        this.state = kept; this.render(); this.recheck();
        return;
      }
      this.say(t("Cutting the game at step {step}…", { step: params.get("step") }));
      fetch(API + "/cut?from=" + encodeURIComponent(params.get("from")) + "&step=" + encodeURIComponent(params.get("step")))
        .then(function (r) { return r.json().then(function (d) { if (!r.ok) throw new Error(d.message); return d; }); })
        .then(function (data) {
          var log = data.log;
          self.begin({ game: log.game, mode: log.mode, players: log.players, options: log.options || {},
            recordHands: hasHands(log), meta: log.meta || {} }, log, data.branch_of);
          window.history.replaceState(null, "", "/record");
        })
        .catch(function (e) { self.say(t("No branch: {why}", { why: e.message }), true); self.setupForm(); });
      return;
    }
    if (params.get("continue")) { this.continueForm(params.get("continue")); return; }
    this.state = this.load();
    if (this.state && this.state.draft) { this.render(); this.recheck(); }
    else { this.state = null; this.setupForm(); }
  };

  function hasHands(log) {
    var first = (log.rounds || [])[0];
    return Boolean(log.deal || (first && first.hands));
  }

  Recorder.prototype.begin = function (setup, draft, branchOf, saved) {
    this.state = { setup: setup, draft: draft, undo: [], redo: [], saved: saved || null,
      branchOf: branchOf || null, checked: false };
    this.answer = null;
    this.error = null;
    var panel = panels[setup.game];
    if (panel && panel.reset) panel.reset();
    this.save();
    this.render();
    this.recheck();
  };

  // ---------------------------------------------------------------------------------------------
  // checking

  Recorder.prototype.check = function (log, pending, steps) {
    return post(API + "/check", { log: log, pending: pending || null, steps: steps || "tail" });
  };

  // The engine's choices know that the last turn of a draft is still open (a cube hand over the
  // limit may still discard its surplus): when they are given, they decide; else the result does.
  function refusal(answer) {
    if (answer.choices) return answer.choices.error || null;
    var result = answer.result;
    if (result && (result.status === "illegal" || result.status === "invalid")) return result.errors[0];
    return null;
  }

  // Check the current draft (after a reload, or when the network is back).
  Recorder.prototype.recheck = function () {
    var self = this;
    if (!this.state) return;
    window.clearTimeout(this.retry);
    var draft = this.state.draft;
    this.check(draft).then(function (answer) {
      if (self.state.draft !== draft) return;
      var was = self.offline;
      self.offline = false;
      self.answer = answer;
      self.state.checked = true;
      self.state.checkedEntries = self.state.undo.length;
      var bad = refusal(answer);
      self.error = bad;
      self.save();
      self.render();
      if (bad) self.say(was ? t("Back online: an entry made offline breaks a rule.") : "", true);
      else if (was) self.say(t("Back online: every entry is checked."));
      self.autosave();
    }).catch(function (e) {
      if (isNetwork(e)) { self.goOffline(); return; }
      self.say(e.message, true);
    });
  };

  Recorder.prototype.goOffline = function () {
    var self = this;
    this.offline = true;
    this.say(t("Offline: entries are kept in this browser and checked when the network is back."), true);
    this.render();
    window.clearTimeout(this.retry);
    this.retry = window.setTimeout(function () { self.recheck(); }, RETRY_MS);
  };

  // An entry: check the new draft; keep it only if the engine does.
  Recorder.prototype.commit = function (mutate, label) {
    var self = this;
    var next = clone(this.state.draft);
    var changed = mutate(next);
    if (changed && typeof changed === "object") next = changed;
    var panel = panels[this.state.setup.game];
    function keep(answer) {
      self.state.undo.push({ draft: self.state.draft, label: label });
      self.state.redo = [];
      self.state.draft = next;
      self.state.checked = Boolean(answer);
      if (answer) self.state.checkedEntries = self.state.undo.length;
      self.answer = answer || self.answer;
      self.error = null;
      self.refused = null;
      if (panel && panel.reset) panel.reset();
      self.save();
      self.render();
      self.say(answer ? label : t("Not checked yet (offline): {entry}", { entry: label }));
      if (answer) self.autosave();
      return true;
    }
    if (this.offline) return Promise.resolve(keep(null));
    this.busy = true;
    return this.check(next).then(function (answer) {
      self.busy = false;
      self.offline = false;
      var bad = refusal(answer);
      if (bad) {
        self.refused = bad;
        self.render();
        self.say("");
        return false;
      }
      return keep(answer);
    }).catch(function (e) {
      self.busy = false;
      if (isNetwork(e)) { var kept = keep(null); self.goOffline(); return kept; }
      self.say(e.message, true);
      return false;
    });
  };

  Recorder.prototype.ask = function (pending) {
    var self = this;
    if (this.offline) return Promise.resolve(null);
    return this.check(this.state.draft, pending, "none").then(function (answer) {
      return answer.choices;
    }).catch(function (e) {
      if (isNetwork(e)) { self.goOffline(); return null; }
      return { error: { message: e.message, path: "" }, next: {} };
    });
  };

  Recorder.prototype.move = function (from, to, what) {
    var stack = this.state[from];
    if (!stack.length) return;
    var entry = stack.pop();
    this.state[to].push({ draft: this.state.draft, label: entry.label });
    this.state.draft = entry.draft;
    this.state.checked = false;
    var panel = panels[this.state.setup.game];
    if (panel && panel.reset) panel.reset();
    this.save();
    this.render();
    this.say(t("{what}: {entry}", { what: what, entry: entry.label }));
    this.recheck();
  };
  Recorder.prototype.undo = function () { if (this.state) this.move("undo", "redo", t("Undone")); };
  Recorder.prototype.redo = function () { if (this.state) this.move("redo", "undo", t("Redone")); };

  Recorder.prototype.mainNode = function () {
    var main = this.root.querySelector(".rp-main");
    if (!main) { main = el("div", { class: "rp-main" }); this.root.appendChild(main); }
    return main;
  };

  // ---------------------------------------------------------------------------------------------
  // the recording screen: toolbar, table, scores, notes, panel

  Recorder.prototype.render = function () {
    var self = this;
    var st = this.state;
    var main = this.mainNode();
    clear(main);
    if (!st) return;
    this.root.dataset.entries = String(st.undo.length);
    this.root.dataset.checked = st.checked && !this.offline ? "1" : "0";
    var setup = st.setup;
    var game = this.games[setup.game] || { title: setup.game };
    document.getElementById("rec-title").textContent = t("Recording: {game} {mode}", { game: game.title, mode: modeWord(setup.mode) });
    var answer = this.answer || {};
    var result = answer.result;
    var choices = answer.choices || null;
    var over = Boolean(choices && choices.over);
    // "Finish and store" is the next thing to do only once nothing is left to enter but optional
    // extras: not while the Bloops reveal waits (it is offered until it is in the draft)
    var finishNow = over && !(choices.next && choices.next.reveal && !st.draft.reveal);
    var toolbar = el("div", { class: "rp-toolbar", role: "toolbar", "aria-label": t("Draft") },
      el("button", { type: "button", dataset: { act: "undo" }, disabled: !st.undo.length, title: t("Undo (Ctrl+Z)"),
        "aria-label": st.undo.length ? t("Undo: {entry}", { entry: st.undo[st.undo.length - 1].label }) : t("Undo"), on: { click: function () { self.undo(); } } }, "↶ " + t("Undo")),
      el("button", { type: "button", dataset: { act: "redo" }, disabled: !st.redo.length, title: t("Redo (Ctrl+Y)"),
        "aria-label": st.redo.length ? t("Redo: {entry}", { entry: st.redo[st.redo.length - 1].label }) : t("Redo"), on: { click: function () { self.redo(); } } }, "↷ " + t("Redo")),
      el("button", { type: "button", dataset: { act: "save" }, disabled: this.offline, on: { click: function () { self.saveDraft().catch(function () {}); } } },
        st.saved ? t("Saved") + " ✓" : t("Save")),
      el("button", { type: "button", class: finishNow ? "primary" : null, dataset: { act: "finish" }, on: { click: function () { self.endScreen(); } } }, over ? t("Finish and store") : t("End here")),
      el("button", { type: "button", dataset: { act: "new" }, on: { click: function () {
        if (window.confirm(t("Drop this draft and start a new game?"))) { self.state = null; self.save(); self.setupForm(); }
      } } }, t("New")));
    main.appendChild(toolbar);
    var facts = [];
    if (st.saved) {
      facts.push(el("span", null, tn("Saved as {game} — owner token {token}", {
        game: el("a", { href: "/r/" + st.saved.slug, text: st.saved.slug }),
        token: el("code", { class: "rp-token", text: st.saved.token }) })));
      facts.push(this.handoff(st.saved));
    }
    if (st.branchOf) facts.push(el("span", null, tn("What if: a branch of {game} from step {step}", {
      game: el("a", { href: "/r/" + st.branchOf.slug + "#step=" + st.branchOf.step, text: st.branchOf.slug }), step: st.branchOf.step })));
    var waiting = this.offline ? st.undo.length - (st.checkedEntries || 0) : 0;
    // offline, the last answer's offers less what the entries made since took out (`spent`);
    // POP!'s panel narrows its own (`narrowsOffline`)
    var checkedDraft = waiting > 0 && st.undo[st.checkedEntries || 0] ? st.undo[st.checkedEntries || 0].draft : null;
    var narrows = Boolean(choices && choices.spent && checkedDraft && !(panels[setup.game] || {}).narrowsOffline);
    if (narrows) choices = narrowed(choices, checkedDraft, st.draft);
    if (this.offline) {
      facts.push(el("strong", { class: "rp-offline", text: t("Offline — entries are kept in this browser and checked when the network is back.") }));
      if (waiting > 0) facts.push(el("span", { class: "rp-waiting", text: nt("{n} entry is waiting to be checked.", "{n} entries are waiting to be checked.", waiting) }));
      if (narrows) {
        facts.push(el("span", { class: "rp-narrowed", text: t("The cards and values below leave out those entered since; who plays next is as before these entries: enter what happened, it is checked when the network is back.") }));
      } else if (waiting > 0 && !(panels[setup.game] || {}).narrowsOffline) {
        facts.push(el("span", { class: "rp-stale", text: t("The choices below are the ones from before these entries: enter what happened, it is checked when the network is back.") }));
      }
    }
    if (facts.length) main.appendChild(el("p", { class: "rp-sub rp-facts" }, facts));
    if (this.error) main.appendChild(this.errorNode(t("This draft breaks a rule:"), this.error, true));
    else if (this.refused) main.appendChild(this.errorNode(t("Refused:"), this.refused, false));
    this.refused = null;  // said once; the next render is the next entry's

    var panelBox = el("section", { class: "rp-panel", "aria-label": t("Entry") });
    var panel = panels[setup.game];
    var rec = {
      game: setup.game, mode: setup.mode, players: clone(setup.players), recordHands: Boolean(setup.recordHands),
      draft: clone(st.draft), choices: choices ? clone(choices) : null, result: result || null,
      steps: answer.steps || [], offline: this.offline, waiting: waiting,
      commit: function (mutate, label) { return self.commit(mutate, label); },
      ask: function (pending) { return self.ask(pending); },
      refresh: function () { self.renderPanel(self.panelBox, self.rec); }, // the box shown now
      helpers: { el: el, clear: clear, buildEntry: buildEntry, placeEntry: placeEntry },
    };
    this.panelBox = panelBox;
    this.rec = rec;
    this.renderPanel(panelBox, rec);
    var layout = el("div", { class: "rp-layout" });
    layout.appendChild(panelBox);
    var side = el("div", { class: "rp-side" });
    side.appendChild(this.tableBox(setup, answer));
    side.appendChild(this.notesBox(answer.steps || []));
    layout.appendChild(side);
    main.appendChild(layout);
  };

  // One message, once, in words (the server's: "Round 2, turn 3 — Bruno: …", 1-based), with
  // "Undo" beside it when the draft itself breaks the rule; the code and the JSON Pointer only in
  // the details.
  Recorder.prototype.errorNode = function (prefix, error, undo) {
    var self = this;
    var line = error.words ? error.words.line : error.message;
    return el("div", { class: "rp-error rp-error-box", role: "alert" },
      el("p", null, el("strong", { text: prefix }), " ", el("span", { class: "rp-error-line", text: line }),
        undo && this.state.undo.length ? [" ", el("button", { type: "button", dataset: { act: "undo-error" },
          on: { click: function () { self.undo(); } } }, "↶ " + t("Undo"))] : null),
      el("details", { class: "error-details" }, el("summary", { text: t("Details") }),
        el("code", { text: error.code || "" }), " ", el("code", { text: error.path || "/" })));
  };

  Recorder.prototype.renderPanel = function (box, rec) {
    clear(box);
    var panel = panels[rec.game];
    if (!panel) { box.appendChild(el("p", { class: "rp-error", text: t("No entry panel for {game}.", { game: rec.game }) })); return; }
    if (!rec.choices && !rec.offline) { box.appendChild(el("p", { class: "rp-hint", text: t("Checking the draft…") })); return; }
    try { panel.renderPanel(box, rec); }
    catch (e) { if (window.console) window.console.error(e); box.appendChild(el("p", { class: "rp-error", text: t("The entry panel failed: {why}", { why: e.message }) })); }
  };

  Recorder.prototype.tableBox = function (setup, answer) {
    var box = el("section", { class: "rp-table", "aria-label": t("The table as checked") });
    var steps = answer.steps || [];
    var step = steps.length ? steps[steps.length - 1] : null;
    var result = answer.result;
    if (result) {
      box.appendChild(el("p", { class: "rp-sub" }, el("span", { class: "badge status-" + result.status, text: window.PopReplayViewer.statusWord(result.status) }),
        " · " + nt("{n} step", "{n} steps", steps.length)));
    }
    var renderer = renderers[setup.game];
    if (step && step.state && renderer && renderer.renderState) {
      var stage = el("div", { class: "stage" });
      var index = steps.length - 1;
      var helpers = { el: el, index: index, steps: steps, prev: index > 0 ? steps[index - 1] : null, next: null,
        players: setup.players, isRevealed: function () { return true; }, revealButton: function () { return document.createTextNode(""); },
        stepButton: function (i, text) { return el("span", { text: text }); }, goTo: function () {} };
      try { renderer.renderState(stage, step, Object.assign({ steps: steps }, result), helpers); }
      catch (e) { stage.appendChild(el("p", { class: "rp-error", text: t("The table could not be drawn: {why}", { why: e.message }) })); }
      box.appendChild(stage);
    }
    if (result && result.outcome && renderer && renderer.renderOutcome) {
      var out = el("div", { class: "rp-outcome", "aria-label": t("Running scores") });
      try { renderer.renderOutcome(out, Object.assign({ steps: steps }, result), { el: el, players: setup.players }); box.appendChild(out); }
      catch (e) { /* the table above still shows the scores */ }
    }
    return box;
  };

  Recorder.prototype.notesBox = function (steps) {
    var list = el("ol", { class: "rp-notes", reversed: true });
    // a violation is said once, in words, above the panel
    steps.filter(function (s) { return s.kind !== "violation"; }).slice(-8).reverse().forEach(function (s) {
      list.appendChild(el("li", { value: String(s.index), class: "note kind-" + s.kind }, s.note));
    });
    return el("section", { class: "rp-box", "aria-label": t("Step notes") }, el("h3", { class: "rp-head", text: t("Latest steps") }), list);
  };

  // ---------------------------------------------------------------------------------------------

  function boot() {
    var root = document.getElementById("recorder");
    var node = document.getElementById("record-data");
    if (!root || !node) return;
    var recorder = new Recorder(root, JSON.parse(node.textContent));
    window.popreplayRecorder = recorder;
    recorder.start();
  }

  // the parts in their own files (record-share.js, record-setup.js, record-end.js), loaded first
  var lib = { panels: panels, LANG: LANG, API: API, modeWord: modeWord, el: el, clear: clear, clone: clone,
    post: post, isNetwork: isNetwork, hasHands: hasHands };
  var parts = window.PopReplayRecordParts || {};
  Object.keys(parts).forEach(function (name) { parts[name](Recorder, lib); });

  window.PopReplayRecorder = { put: put, buildEntry: buildEntry, placeEntry: placeEntry };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
  else boot();
})();
