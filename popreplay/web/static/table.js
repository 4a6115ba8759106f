/*
 * The table page (GET /t/<id>, docs/table.md): one game recorded together, a phone per seat.
 *
 * Everything comes from the tables API: the page follows the table's stream (table-stream.js,
 * /api/v1/tables/<id>/stream) and sends this phone's entries (POST .../entries). It writes no
 * rule: the cards offered for a slot are the engine's `offers`, the server says who fills what.
 * The tokens stay in localStorage "popreplay-table:<id>" ({host, key, seat, player}); a link's
 * "#key=…" (join) or "#seat=…" (a seat handed over by the host) is taken in and removed.
 *
 * POP!: the server's `gathering` (slots, each seat its own). cube, Bloops, slap: the recorder's own
 * entry panel (static/games/<game>.record.js, the contract at the top of record.js) is drawn with
 * the draft as this seat sees it and the engine's `choices` for it (`view.choices`); what the
 * panel commits is turned into `place` entries by comparing JSON (no rule), and the checked table
 * is drawn by the game's replay renderer (static/games/<game>.js) from /api/v1/record/check's
 * latest steps. After every render the page dispatches "popreplay:table" (detail: the view).
 *
 * Nothing lost (docs/table.md, "Offline, busy, refused a stream"): the entries not sent yet are kept
 * in localStorage "popreplay-table-queue:<id>:<seat>" (each with its own id, `seen` and slot key)
 * and sent again, same id, when the page opens, when the network is back, or after a 503's
 * Retry-After; a stream the server refuses (503: too many streams) becomes a poll of the table.
 */
(function () {
  "use strict";

  var LANG = document.documentElement.lang === "fr" ? "fr" : "en";
  var root, data, api, store, view = null, picked = {}, feed = [], source = null, lastId = null, queue = [], sending = {};
  var panels = window.PopReplayRecorders || {}, renderers = window.PopReplayGames || {};
  var checked = null;  // {seq, steps, result}: /api/v1/record/check of the draft this phone sees
  var queueLine, queueKept = null, stuck = false, note = "", timer = null, polling = null, refollow = null;

  function el(tag, attrs) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      var v = attrs[k];
      if (v === false || v === null || v === undefined) return;
      if (k === "text") node.textContent = v;
      else if (k === "class") node.className = v;
      else if (k === "dataset") Object.keys(v).forEach(function (d) { node.dataset[d] = v[d]; });
      else if (k === "on") Object.keys(v).forEach(function (e) { node.addEventListener(e, v[e]); });
      else node.setAttribute(k, v === true ? "" : v);
    });
    for (var i = 2; i < arguments.length; i++) {
      var c = arguments[i];
      if (c === null || c === undefined) continue;
      node.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    }
    return node;
  }

  function status(text, bad) {
    var line = document.getElementById("tb-status");
    line.textContent = text || "";
    line.classList.toggle("rp-error", !!bad);
  }

  function save() { localStorage.setItem("popreplay-table:" + data.table, JSON.stringify(store)); }

  function token() { return store.seat || store.key || store.host; }

  function call(method, path, body, tok) {
    var headers = { Accept: "application/json", "Accept-Language": LANG };
    if (body) headers["Content-Type"] = "application/json";
    headers.Authorization = "Bearer " + (tok || token());
    return fetch(api + path, { method: method, headers: headers, body: body ? JSON.stringify(body) : undefined })
      .then(function (r) {  // a proxy's HTML page (a 502 while a host restarts) is no JSON: {}
        var retry = parseInt(r.headers.get("Retry-After"), 10);
        return r.json().catch(function () { return {}; })
          .then(function (b) { return { status: r.status, body: b || {}, retry: retry > 0 ? retry : null }; });
      });
  }

  // --- following the table ----------------------------------------------------------------------

  function follow() {  // table-stream.js: the token in a header, never in the URL
    clearInterval(polling); clearTimeout(refollow); polling = refollow = null;
    if (source) source.close();
    var es = source = window.PopReplayTableStream.open(api + "/stream", { token: token(), lastId: view ? lastId : null }, {
      open: function () { status(""); },
      event: function (name, d, id) {
        if (id !== undefined) lastId = id;
        if (name === "snapshot" || name === "table") show(d);
        else if (name === "entry") { feed.unshift(d); feed = feed.slice(0, 30); }
        else if (name === "end") poll();  // this token no longer holds its seat: the poll says why
      },
      refused: function () { if (es === source) poll(); },  // 429, 503: too many streams here
      lost: function () {
        if (es === source) { status(t("Connection lost: reconnecting…"), true); refollow = setTimeout(follow, 2000); }
      },
    });
  }

  // the stream refused: the table read every 2 s, the stream asked for again after 10 s
  function poll() {
    if (source) { source.close(); source = null; }
    clearInterval(polling); clearTimeout(refollow);
    status(t("Live updates are refused for now: the table is read every 2 s."));
    var read = function () {
      call("GET", "").then(function (a) {
        if (a.status === 200 && a.body.seq !== undefined) show(a.body);
        else if (a.status === 401 || a.status === 403 || a.status === 404) {
          clearInterval(polling); clearTimeout(refollow);
          status(a.body.message || String(a.status), true);
        }
      }).catch(function () { /* offline: the next read */ });
    };
    read();
    polling = setInterval(read, 2000);
    refollow = setTimeout(follow, 10000);  // the server's Retry-After for a stream (STREAM_RETRY)
  }

  function show(next) {
    if (view && next.seq < view.seq) return;
    view = next;
    var open = {};  // taps kept only for slots still open to this phone (same entry, same slot)
    Object.keys(view.gathering || {}).forEach(function (kind) {
      var g = view.gathering[kind];
      g.slots.forEach(function (slot) { if (slot.yours && !slot.filled) open[pickKey(kind, g, slot)] = true; });
    });
    Object.keys(picked).forEach(function (k) { if (!open[k] || sending[k]) delete picked[k]; });
    if (view.you.player && store.player !== view.you.player) { store.player = view.you.player; save(); }
    if (view.choices && (!checked || checked.seq !== view.seq)) askSteps(view);
    render();
  }

  // the latest steps of the draft this phone sees, for the game's renderer (the checked table)
  function askSteps(v) {
    fetch("/api/v1/record/check", { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json", "Accept-Language": LANG },
      body: JSON.stringify({ log: v.log, pending: null, steps: "tail" }) })
      .then(function (r) { return r.json(); })
      .then(function (a) { if (view && view.seq === v.seq) { checked = { seq: v.seq, steps: a.steps || [], result: a.result || null }; render(); } })
      .catch(function () { /* the table box waits for the next entry */ });
  }

  // --- entries ----------------------------------------------------------------------------------

  function newId() { return (store.player || "host") + "-" + Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 8); }

  function pickKey(kind, g, slot) { return [kind, g.round, g.turn, slot.index].join(":"); }

  // entries go one at a time, in the order they were made (a tap never waits for the network);
  // each is kept in localStorage until the server has it (an answer 200 or 201) or refuses it
  function send(entry, key, then) {
    queue.push({ entry: entry, key: key, id: newId(), seen: view ? view.seq : 0, then: then });
    sending[key] = true;
    keep();
    next();
  }

  function queueKey() { return "popreplay-table-queue:" + data.table + ":" + (store.player || "host"); }

  function keep() {
    var name = queueKey();
    try {
      if (queueKept && queueKept !== name) localStorage.removeItem(queueKept);
      if (queue.length) localStorage.setItem(name, JSON.stringify(queue.map(function (q) {
        return { entry: q.entry, key: q.key, id: q.id, seen: q.seen };
      })));
      else localStorage.removeItem(name);
      queueKept = name;
    } catch (e) { /* storage full or off: the queue still lives in this page */ }
    if (!queue.length) { stuck = false; note = ""; }
    queueLine.textContent = queue.length && stuck ? (note ? note + " " : "")
      + nt("{n} entry is waiting to be sent.", "{n} entries are waiting to be sent.", queue.length) : "";
  }

  function restore() {
    try { queue = JSON.parse(localStorage.getItem(queueKey()) || "[]") || []; } catch (e) { queue = []; }
    queue.forEach(function (q) { sending[q.key] = true; });
    stuck = queue.length > 0;
    keep();
  }

  function later(seconds, why) {  // the same entry (same id) again, later
    stuck = true; note = why; keep();
    clearTimeout(timer);
    timer = setTimeout(function () { timer = null; next(); }, seconds * 1000);
  }

  function next() {
    var item = queue[0];
    if (!item || item.busy || timer) return;
    item.busy = true;
    var stale = 0;
    var done = function (ok) { delete sending[item.key]; queue.shift(); keep(); if (item.then) item.then(ok); next(); };
    var go = function () {
      return call("POST", "/entries", { id: item.id, seen: item.seen, entry: item.entry }).then(function (a) {
        var first = (a.body.errors || [])[0] || {};
        if (a.status === 201 || a.status === 200) { item.busy = false; if (!polling) status(""); done(true); if (a.body.view) show(a.body.view); return; }
        if (a.status === 409 && first.code === "stale" && a.body.view) {  // what it missed: again
          show(a.body.view);
          item.seen = a.body.view.seq;
          keep();
          if (++stale < 5) return go();
          item.busy = false;
          return later(2, t("Not sent yet: the table keeps changing. Trying again…"));
        }
        if (a.status === 503 || a.status === 429 || a.status === 502 || a.status === 504) {
          item.busy = false;  // busy (or a host restarting) is no refusal
          var wait = a.retry || 2;
          return later(wait, t("The server is busy: sending again in {n} s", { n: wait }));
        }
        item.busy = false;
        status(t("Refused: {message}", { message: first.message || a.body.message || String(a.status) }), true);
        done(false);
        render();
      });
    };
    go().catch(function () {  // offline: the same entry (same id) again, later
      item.busy = false;
      later(3, t("Not sent yet: no network. Trying again…"));
    });
  }

  function queuedCards(key, index) {
    var item = queue.filter(function (q) { return q.key === key; })[0];
    return item && item.entry.slots ? item.entry.slots[index] || null : null;
  }

  function tap(kind, g, slot, card) {
    var key = pickKey(kind, g, slot);
    if (sending[key]) return;
    var list = picked[key] = picked[key] || [];
    var at = list.indexOf(card);
    if (at >= 0) list.splice(at, 1); else list.push(card);
    if (list.length === slot.count) {
      var slots = {};
      slots[slot.index] = list.slice();
      send({ type: "part", entry: kind, slots: slots }, key);
    }
    render();
  }

  // --- drawing ----------------------------------------------------------------------------------

  function cards(list, cls) {
    return el.apply(null, ["div", { class: "tb-cards" }].concat((list || []).map(function (c) {
      return el("span", { class: "tb-card " + (cls || ""), text: c === null ? "·" : String(c) });
    })));
  }

  function slotName(slot) {
    if (slot.role === "layout") return t("Layout, row {row}", { row: slot.index + 1 });
    if (slot.role === "hand") return t("{name}'s hand", { name: slot.player });
    if (slot.role === "chief") return t("The Multicolour Chief");
    if (slot.role === "draw") return t("{name} draws", { name: slot.player });
    if (slot.role === "kept") return t("The card {name} kept", { name: slot.player });
    return t("{name} reveals", { name: slot.player });
  }

  function entryName(kind, g) {
    if (kind === "round") return t("Round {round}: the deal", { round: g.round });
    if (kind === "turn") return t("Round {round}, turn {turn}", { round: g.round, turn: g.turn });
    return t("Round {round}: the cards kept", { round: g.round });
  }

  function seatsBox() {
    var box = el("section", { class: "rp-box", "aria-labelledby": "tb-seats-h" },
      el("h2", { id: "tb-seats-h", class: "rp-head", text: t("Who are you?") }));
    var row = el("div", { class: "rp-row" });
    view.seats.forEach(function (s) {
      row.appendChild(el("button", { type: "button", class: "rp-big", disabled: s.taken && !store.host, dataset: { act: "seat", player: s.player },
        on: { click: function () { takeSeat(s.player); } } }, s.taken ? t("{name} (taken)", { name: s.player }) : s.player));
    });
    box.appendChild(row);
    box.appendChild(el("p", { class: "rp-hint", text: t("Tap your name to enter your own moves, or just watch.") }));
    return box;
  }

  function takeSeat(player) {
    call("POST", "/seats", { player: player }, store.host || store.key).then(function (a) {
      if (a.status !== 201) { status(a.body.message, true); return; }
      store.seat = a.body.seat_token;
      store.player = player;
      save();
      view = null;
      follow();
    });
  }

  function hostBox() {
    var url = location.origin + "/t/" + encodeURIComponent(data.table) + "#key=" + encodeURIComponent(store.key);
    return el("section", { class: "rp-box tb-qr", "aria-labelledby": "tb-join-h" },
      el("h2", { id: "tb-join-h", class: "rp-head", text: t("Join this table") }),
      store.qr ? el("img", { src: "data:image/svg+xml;charset=utf-8," + encodeURIComponent(store.qr), alt: t("QR code of the join link") }) : null,
      el("p", { class: "tb-link" }, el("a", { href: url, dataset: { act: "join-link" }, text: url })),
      el("div", { class: "rp-row" }, el("button", { type: "button", class: "rp-big", dataset: { act: "store" }, disabled: view.status !== "live",
        on: { click: storeGame } }, t("Store the game"))));
  }

  function storeGame() {
    call("POST", "/store", { visibility: "public" }, store.host).then(function (a) {
      if (a.status !== 201) { status(t("Refused: {message}", { message: a.body.message }), true); return; }
      status(t("Stored: {url}", { url: a.body.share_url }));
    });
  }

  function tableBox() {
    var box = el("section", { class: "rp-box", "aria-labelledby": "tb-now-h" },
      el("h2", { id: "tb-now-h", class: "rp-head", text: t("The table") }));
    var rounds = (view.log && view.log.rounds) || [];
    var rnd = rounds[rounds.length - 1];
    if (rnd) {
      box.appendChild(el("p", { class: "rp-sub", text: t("Round {round}: the layout", { round: rounds.length }) }));
      (rnd.layout || []).forEach(function (row) { box.appendChild(cards(row)); });
      var turn = (rnd.turns || [])[rnd.turns.length - 1];
      if (turn) {
        box.appendChild(el("p", { class: "rp-sub", text: t("Turn {turn} revealed", { turn: rnd.turns.length }) }));
        var list = el("ul", { class: "tb-revealed", dataset: { turn: String(rnd.turns.length) } });
        view.players.forEach(function (name) {
          list.appendChild(el("li", {}, name + ": " + ((turn.plays || {})[name] || []).join(", ")));
        });
        if (turn.chief) list.appendChild(el("li", {}, t("Chief: {cards}", { cards: turn.chief.join(", ") })));
        box.appendChild(list);
      }
    } else box.appendChild(el("p", { class: "rp-hint", text: t("Nothing dealt yet.") }));
    var outcome = view.result && view.result.outcome;
    if (outcome && outcome.totals) {
      box.appendChild(el("p", { class: "rp-sub", dataset: { act: "totals" } }, t("Scores: {scores}", {
        scores: view.players.map(function (n) { return n + " " + outcome.totals[n]; }).join(" · ") })));
    }
    if (view.over) box.appendChild(el("p", { class: "rp-done", text: t("The game is over.") }));
    return box;
  }

  function entryBoxes() {
    var boxes = [];
    Object.keys(view.gathering || {}).forEach(function (kind) {
      var g = view.gathering[kind];
      var box = el("section", { class: "rp-box", dataset: { entry: kind } },
        el("h2", { class: "rp-head", text: entryName(kind, g) }));
      g.slots.forEach(function (slot) {
        var line = el("div", { class: "tb-slot", dataset: { slot: String(slot.index) } },
          el("p", { class: "rp-sub" }, slotName(slot) + " — ",
            slot.filled ? el("span", { class: "tb-ok", text: t("entered") }) : el("span", { class: "tb-wait", text: t("waiting") })));
        if (slot.cards) line.appendChild(cards(slot.cards, "tb-picked"));
        var queued = !slot.filled && queuedCards(pickKey(kind, g, slot), slot.index);
        if (queued) {  // tapped, not sent yet (offline, busy): shown as it will be sent
          line.appendChild(cards(queued, "tb-picked"));
          line.appendChild(el("p", { class: "rp-hint", dataset: { act: "unsent" }, text: t("Not sent yet") }));
        } else if (slot.yours && !slot.filled && slot.offers && (slot.player === store.player || slot.player === null || !store.player)) {
          var mine = picked[pickKey(kind, g, slot)] || [];
          line.appendChild(el("p", { class: "rp-hint", text: nt("Tap {n} card", "Tap {n} cards", slot.count - mine.length) }));
          // many cards (the 1–50 a deal or an unrecorded hand may hold): the recorder's grid, rows of
          // ten, a card not offered disabled; a hand's few cards: a row
          var grid = slot.offers.length > 12 && slot.offers.every(function (c) { return typeof c === "number" && c >= 1 && c <= 50; });
          var row = el("div", { class: grid ? "tb-grid" : "tb-cards", role: "group" });
          var keys = grid ? [] : slot.offers;
          if (grid) for (var n = 1; n <= 50; n++) keys.push(n);
          keys.forEach(function (c) {
            var offered = slot.offers.indexOf(c) >= 0;
            row.appendChild(el("button", { type: "button", class: "tb-card" + (mine.indexOf(c) >= 0 ? " tb-picked" : ""), disabled: !offered,
              dataset: { act: "card", card: String(c), slot: String(slot.index) }, "aria-pressed": mine.indexOf(c) >= 0 ? "true" : "false",
              on: { click: function () { tap(kind, g, slot, c); } } }, String(c)));
          });
          line.appendChild(row);
        }
        box.appendChild(line);
      });
      boxes.push(box);
    });
    return boxes;
  }

  // --- cube, Bloops, slap: the recorder's entry panel ---------------------------------------------

  function clone(v) { return v === undefined ? undefined : JSON.parse(JSON.stringify(v)); }
  function same(a, b) { return JSON.stringify(a) === JSON.stringify(b); }
  function isObj(v) { return v !== null && typeof v === "object" && !Array.isArray(v); }
  function esc(k) { return String(k).replace(/~/g, "~0").replace(/\//g, "~1"); }

  // What changed from `old` to `neu`, as the server's `place` entries (JSON only, no rule): a list
  // one item longer is an append, one changed item or key is looked into, anything else is set.
  // A key the new draft lacks is left as it is (a panel that entered one player's hand).
  function diff(old, neu, path, out) {
    if (same(old, neu)) return out;
    if (Array.isArray(old) && Array.isArray(neu) && path !== "") {
      if (neu.length === old.length + 1 && old.every(function (v, i) { return same(v, neu[i]); })) {
        out.push({ type: "place", at: path, how: "append", value: neu[neu.length - 1] });
        return out;
      }
      if (neu.length === old.length) {
        var changed = [];
        neu.forEach(function (v, i) { if (!same(v, old[i])) changed.push(i); });
        if (changed.length === 1) return diff(old[changed[0]], neu[changed[0]], path + "/" + changed[0], out);
      }
    } else if (isObj(old) && isObj(neu)) {
      Object.keys(neu).forEach(function (k) {
        if (old[k] === undefined) out.push({ type: "place", at: path + "/" + esc(k), how: "set", value: neu[k] });
        else diff(old[k], neu[k], path + "/" + esc(k), out);
      });
      return out;
    }
    out.push({ type: "place", at: path, how: "set", value: neu });
    return out;
  }

  // The deal is {player: cards}: a seat's first hand entered before any deal gives every other
  // player as many unseen cards (null: the recorder's "rest unseen").
  function withDeal(entries) {
    return entries.map(function (e) {
      if (e.at !== "/deal" || e.how !== "set" || !isObj(e.value)) return e;
      var mine = Object.keys(e.value)[0];
      var size = mine ? (e.value[mine] || []).length : 0;
      var deal = {};
      view.players.forEach(function (n) { deal[n] = e.value[n] || new Array(size).fill(null); });
      return { type: "place", at: e.at, how: e.how, value: deal };
    });
  }

  function dealt(log, me) { return ((log.deal || {})[me] || []).some(function (c) { return c !== null; }); }

  // Whose move it is: the engine's `current` player (cube, Bloops), else none.
  function mover(choices) { return (choices && choices.current) || null; }

  // slap: one phone records (the host's, or a seat that says so), the others watch
  function recordsHere() {
    if (view.game !== "slap") return true;
    return store.records === undefined ? !!store.host : !!store.records;
  }

  var panelBox = null, panelRec = null, openFold = false;

  function panelSection() {
    var me = view.you.player;
    var panel = panels[view.game];
    var box = el("section", { class: "rp-box tb-panel", dataset: { act: "panel", game: view.game }, "aria-labelledby": "tb-panel-h" });
    if (!panel) return null;
    if (!me && view.you.role !== "host") return null;  // a spectator enters nothing
    var now = mover(view.choices);
    var theirs = !!(now && me && now !== me && !view.over && view.game !== "slap");
    var title = view.over ? t("The game is over.") : view.game === "slap" ? (recordsHere()
      ? t("This phone records the game (the others watch).") : t("One phone records the flips and slaps; this one watches."))
      : theirs ? t("{name} to play: waiting", { name: now }) : t("Your move");
    box.appendChild(el("h2", { id: "tb-panel-h", class: "rp-head", text: title }));
    if (view.game === "slap") {
      box.appendChild(el("button", { type: "button", class: "rp-big", dataset: { act: "records" }, on: { click: function () {
        store.records = !recordsHere(); save(); render(); } } }, recordsHere() ? t("Only watch on this phone") : t("Record from this phone")));
      if (!recordsHere()) return box;
    }
    var inner = el("div", { class: "tb-panel-body" });
    var draft = clone(view.log), choices = clone(view.choices) || {};
    if (me && view.private && !dealt(view.log, me)) {
      // the seat's own hand only: the panel's deal asks for this player alone
      if (choices.next && choices.next.deal) choices.next.deal.players = [me];
      if (view.game === "bloops" && !(draft.events || []).length) delete draft.deal;
    }
    panelRec = {
      game: view.game, mode: view.mode, players: me && view.private ? [me] : clone(view.players),
      recordHands: !!view.hands_recorded || view.private, draft: draft, choices: choices,
      result: view.result, steps: (checked && checked.steps) || [], offline: false,
      commit: function (mutate, label) { return commit(panel, draft, mutate, label); },
      ask: function (pending) { return askPending(pending); },
      refresh: function () { drawPanel(panel, inner, panelRec); },
      helpers: { el: hel, clear: function (n) { while (n.firstChild) n.removeChild(n.firstChild); } },
    };
    panelBox = inner;
    drawPanel(panel, inner, panelRec);
    // another player's move is that seat's to enter (its cards stay its own): the panel is folded,
    // open for what anyone may enter out of turn (a counter-discard, an F.M.C. show, a rearrangement)
    if (theirs) {
      var fold = el("details", { class: "tb-other", open: !!openFold || null,
        on: { toggle: function () { openFold = fold.open; } } },
        el("summary", { dataset: { act: "out-of-turn" }, text: t("Enter a move out of turn (or for {name})", { name: now }) }), inner);
      box.appendChild(fold);
      box.dataset.theirs = "1";
    } else box.appendChild(inner);
    return box;
  }

  function hel() { return (window.PopReplayViewer ? window.PopReplayViewer.el : el).apply(null, arguments); }

  function drawPanel(panel, node, rec) {
    while (node.firstChild) node.removeChild(node.firstChild);
    try { panel.renderPanel(node, rec); }
    catch (e) { node.appendChild(el("p", { class: "rp-error", text: t("The entry panel failed: {why}", { why: e.message }) })); }
  }

  function commit(panel, draft, mutate, label) {
    var next = clone(draft);
    var changed = mutate(next);
    if (changed && typeof changed === "object") next = changed;
    var entries = withDeal(diff(view.log, next, "", []));
    if (!entries.length) return Promise.resolve(true);
    return new Promise(function (resolve) {
      var left = entries.length, ok = true;
      entries.forEach(function (entry, i) {
        send(entry, "panel:" + view.seq + ":" + i, function (kept) {
          ok = ok && kept;
          if (--left === 0) {
            if (ok) { if (panel.reset) panel.reset(); openFold = false; status(label || ""); }
            resolve(ok);
          }
        });
      });
    });
  }

  function askPending(pending) {
    return fetch("/api/v1/record/check", { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json", "Accept-Language": LANG },
      body: JSON.stringify({ log: view.log, pending: pending || null, steps: "none" }) })
      .then(function (r) { return r.json(); })
      .then(function (a) { return a.choices || { error: { message: a.message || "", path: "" }, next: {} }; })
      .catch(function () { return null; });
  }

  // the checked table, drawn by the game's replay renderer from the latest steps
  function checkedBox() {
    var box = el("section", { class: "rp-box tb-checked", dataset: { act: "checked" }, "aria-labelledby": "tb-now-h" },
      el("h2", { id: "tb-now-h", class: "rp-head", text: t("The table") }));
    var renderer = renderers[view.game];
    var steps = (checked && checked.steps) || [];
    var step = steps.length ? steps[steps.length - 1] : null;
    var result = (checked && checked.result) || view.result;
    if (step && step.state && renderer && renderer.renderState) {
      var stage = el("div", { class: "stage" });
      var index = steps.length - 1;
      var helpers = { el: hel, index: index, steps: steps, prev: index > 0 ? steps[index - 1] : null, next: null,
        players: view.players, isRevealed: function () { return true; }, revealButton: function () { return document.createTextNode(""); },
        stepButton: function (i, text) { return el("span", { text: text }); }, goTo: function () {} };
      try { renderer.renderState(stage, step, Object.assign({ steps: steps }, result || {}), helpers); }
      catch (e) { stage.appendChild(el("p", { class: "rp-error", text: t("The table could not be drawn: {why}", { why: e.message }) })); }
      box.appendChild(stage);
      if (step.note) box.appendChild(el("p", { class: "rp-sub tb-note", dataset: { act: "note" }, text: step.note }));
    } else box.appendChild(el("p", { class: "rp-hint", text: t("Nothing entered yet.") }));
    if (result && result.outcome && renderer && renderer.renderOutcome) {
      var out = el("div", { class: "rp-outcome", "aria-label": t("Running scores") });
      try { renderer.renderOutcome(out, Object.assign({ steps: steps }, result), { el: hel, players: view.players }); box.appendChild(out); }
      catch (e) { /* the table above still shows the state */ }
    }
    if (view.over) box.appendChild(el("p", { class: "rp-done", text: t("The game is over.") }));
    return box;
  }

  // a tap must not land on a page being redrawn (a press on one button, a release on its
  // replacement, is no click): a redraw waits until the finger or the mouse is up
  var holding = false, deferred = false;

  function render() {
    if (holding) { deferred = true; return; }
    while (root.lastChild !== queueLine) root.removeChild(root.lastChild);
    if (!view) return;
    root.dataset.seq = String(view.seq);
    root.dataset.game = view.game;
    root.dataset.checked = checked ? String(checked.seq) : "";  // the checked table drawn is of this entry
    var who = view.you.player ? t("You are {name}.", { name: view.you.player })
      : view.you.role === "host" ? t("You are the host.") : t("You are watching.");
    root.appendChild(el("p", { class: "rp-sub", dataset: { act: "you" } }, who));
    var now = view.choices && !view.over && view.game !== "slap" ? mover(view.choices) : null;
    if (now) root.appendChild(el("p", { class: "tb-turn", dataset: { act: "turn" } },
      now === view.you.player ? t("Your turn.") : t("{name} to play.", { name: now })));
    if (view.refused) root.appendChild(el("p", { class: "rp-error", text: t("Refused: {message}", { message: view.refused.error.message }) }));
    if (!store.seat && view.status === "live") root.appendChild(seatsBox());
    if (view.you.player && view.hand) {
      root.appendChild(el("section", { class: "rp-box", dataset: { act: "hand" } },
        el("h2", { class: "rp-head", text: t("Your hand (only you see it)") }), cards(view.hand)));
    }
    if (view.choices) {  // this phone's move: its panel first; else the checked table first
      var p = panelSection();
      if (p && !p.dataset.theirs) root.appendChild(p);
      root.appendChild(checkedBox());
      if (p && p.dataset.theirs) root.appendChild(p);
    } else {
      entryBoxes().forEach(function (b) { root.appendChild(b); });
      root.appendChild(tableBox());
    }
    if (store.host && store.key) root.appendChild(hostBox());
    window.dispatchEvent(new CustomEvent("popreplay:table", {detail: view}));
  }

  function boot() {
    root = document.getElementById("table");
    root.addEventListener("pointerdown", function () { holding = true; });
    var release = function () {
      setTimeout(function () { holding = false; if (deferred) { deferred = false; render(); } }, 0);
    };
    document.addEventListener("pointerup", release);
    document.addEventListener("pointercancel", release);
    queueLine = el("p", { class: "rp-status tb-queue", id: "tb-queue", role: "status", "aria-live": "polite", dataset: { act: "queue" } });
    root.insertBefore(queueLine, document.getElementById("tb-status").nextSibling);
    data = JSON.parse(document.getElementById("table-data").textContent);
    api = data.api;
    try { store = JSON.parse(localStorage.getItem("popreplay-table:" + data.table) || "{}") || {}; } catch (e) { store = {}; }
    var hash = new URLSearchParams(location.hash.slice(1));
    if (hash.get("key")) store.key = hash.get("key");
    if (hash.get("seat")) { store.seat = hash.get("seat"); store.player = null; }
    if (location.hash) history.replaceState(null, "", location.pathname + location.search);
    save();
    if (!token()) { status(t("This table needs its join link (ask the host for the QR code)."), true); return; }
    restore();
    window.addEventListener("online", function () { if (timer) { clearTimeout(timer); timer = null; } next(); });
    follow();
    next();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
  else boot();
})();
