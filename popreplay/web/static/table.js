/*
 * The table page (GET /t/<id>, docs/table.md): one game recorded together, a phone per seat.
 *
 * Everything comes from the tables API: the page follows the table's stream (EventSource,
 * /api/v1/tables/<id>/stream) and sends this phone's entries (POST .../entries). It writes no
 * rule: the cards offered for a slot are the engine's `offers`, the server says who fills what.
 * The tokens stay in localStorage "popreplay-table:<id>" ({host, key, seat, player}); a link's
 * "#key=…" (join) or "#seat=…" (a seat handed over by the host) is taken in and removed.
 */
(function () {
  "use strict";

  var LANG = document.documentElement.lang === "fr" ? "fr" : "en";
  var root, data, api, store, view = null, picked = {}, feed = [], source = null, queue = [], sending = {};

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
      .then(function (r) { return r.json().then(function (b) { return { status: r.status, body: b }; }); });
  }

  // --- following the table ----------------------------------------------------------------------

  function follow() {
    if (source) source.close();
    source = new EventSource(api + "/stream?token=" + encodeURIComponent(token()));
    var take = function (ev) { show(JSON.parse(ev.data)); };
    source.addEventListener("snapshot", take);
    source.addEventListener("table", take);
    source.addEventListener("entry", function (ev) {
      var e = JSON.parse(ev.data);
      feed.unshift(e);
      feed = feed.slice(0, 30);
    });
    source.onerror = function () { status(t("Connection lost: reconnecting…"), true); };
    source.onopen = function () { status(""); };
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
    render();
  }

  // --- entries ----------------------------------------------------------------------------------

  function newId() { return (store.player || "host") + "-" + Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 8); }

  function pickKey(kind, g, slot) { return [kind, g.round, g.turn, slot.index].join(":"); }

  // entries go one at a time, in the order they were made (a tap never waits for the network)
  function send(entry, key) {
    queue.push({ entry: entry, key: key, id: newId() });
    if (queue.length === 1) next();
  }

  function next() {
    var item = queue[0];
    if (!item) return;
    var done = function () { delete sending[item.key]; queue.shift(); next(); };
    var go = function (seen, left) {
      return call("POST", "/entries", { id: item.id, seen: seen, entry: item.entry }).then(function (a) {
        if (a.status === 409 && left > 0) { show(a.body.view); return go(a.body.view.seq, left - 1); }
        if (a.status === 503 && left > 0) return new Promise(function (ok) { setTimeout(ok, 500); }).then(function () { return go(seen, left - 1); });
        if (a.status === 201 || a.status === 200) { status(""); done(); show(a.body.view); return; }
        var first = (a.body.errors || [])[0];
        status(t("Refused: {message}", { message: first ? first.message : a.body.message }), true);
        done();
        render();
      });
    };
    sending[item.key] = true;
    go(view.seq, 3).catch(function () {  // offline: the same entry (same id) again, later
      delete sending[item.key];
      status(t("Not sent yet: no network. Trying again…"), true);
      setTimeout(next, 3000);
    });
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
      el("img", { src: api + "/qr.svg?key=" + encodeURIComponent(store.key), alt: t("QR code of the join link") }),
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
        if (slot.yours && !slot.filled && slot.offers && (slot.player === store.player || slot.player === null || !store.player)) {
          var mine = picked[pickKey(kind, g, slot)] || [];
          line.appendChild(el("p", { class: "rp-hint", text: nt("Tap {n} card", "Tap {n} cards", slot.count - mine.length) }));
          var row = el("div", { class: "tb-cards" });
          slot.offers.forEach(function (c) {
            row.appendChild(el("button", { type: "button", class: "tb-card" + (mine.indexOf(c) >= 0 ? " tb-picked" : ""),
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

  // a tap must not land on a page being redrawn (a press on one button, a release on its
  // replacement, is no click): a redraw waits until the finger or the mouse is up
  var holding = false, deferred = false;

  function render() {
    if (holding) { deferred = true; return; }
    while (root.children.length > 2) root.removeChild(root.lastChild);
    if (!view) return;
    root.dataset.seq = String(view.seq);
    var who = view.you.player ? t("You are {name}.", { name: view.you.player })
      : view.you.role === "host" ? t("You are the host.") : t("You are watching.");
    root.appendChild(el("p", { class: "rp-sub", dataset: { act: "you" } }, who));
    if (view.refused) root.appendChild(el("p", { class: "rp-error", text: t("Refused: {message}", { message: view.refused.error.message }) }));
    if (!store.seat && view.status === "live") root.appendChild(seatsBox());
    if (view.you.player && view.hand) {
      root.appendChild(el("section", { class: "rp-box", dataset: { act: "hand" } },
        el("h2", { class: "rp-head", text: t("Your hand (only you see it)") }), cards(view.hand)));
    }
    entryBoxes().forEach(function (b) { root.appendChild(b); });
    root.appendChild(tableBox());
    if (store.host && store.key) root.appendChild(hostBox());
    window.dispatchEvent(new CustomEvent("popreplay:table", { detail: view }));
  }

  function boot() {
    root = document.getElementById("table");
    root.addEventListener("pointerdown", function () { holding = true; });
    var release = function () {
      setTimeout(function () { holding = false; if (deferred) { deferred = false; render(); } }, 0);
    };
    document.addEventListener("pointerup", release);
    document.addEventListener("pointercancel", release);
    data = JSON.parse(document.getElementById("table-data").textContent);
    api = data.api;
    try { store = JSON.parse(localStorage.getItem("popreplay-table:" + data.table) || "{}") || {}; } catch (e) { store = {}; }
    var hash = new URLSearchParams(location.hash.slice(1));
    if (hash.get("key")) store.key = hash.get("key");
    if (hash.get("seat")) { store.seat = hash.get("seat"); store.player = null; }
    if (location.hash) history.replaceState(null, "", location.pathname + location.search);
    save();
    if (!token()) { status(t("This table needs its join link (ask the host for the QR code)."), true); return; }
    follow();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
  else boot();
})();
