/*
 * The table page (GET /t/<id>, docs/table.md): one game recorded together, a phone per seat.
 *
 * Everything comes from the tables API: the page follows the table's stream (table-stream.js,
 * /api/v1/tables/<id>/stream, the token in a header) and sends this phone's entries (POST .../entries). It writes no
 * rule: the cards offered for a slot are the engine's `offers`, the server says who fills what.
 * The tokens stay in localStorage "popreplay-table:<id>" ({host, key, seat, player}); a link's
 * "#key=…" (join) or "#seat=…" (a seat handed over by the host) is taken in and removed.
 *
 * A game whose table gathers slots (the server's `gathering`, each seat its own): the slots drawn
 * here, named and the table drawn by the kit's panel module (`slotName`, `entryName`,
 * `drawGathered`: docs/recorder.md). A game the engine offers `choices` for: the kit's entry panel and renderer modules
 * (table-panel.js). After every render the page dispatches "popreplay:table" (detail: the view).
 *
 * Nothing lost: the entries not sent yet wait in table-send.js's queue; a stream the server
 * refuses (503: too many streams) becomes a poll of the table. The page's state: table-state.js.
 */
import { el, whenReady } from "./dom.js";
import { loadGames } from "./games.js";
import { lang, nt, t } from "./i18n.js";
import { checkedBox, mover, oneRecorder, panelOf, panelSection, rendererOf, useGames } from "./table-panel.js";
import { lastStage } from "./last-step.js";
import { next, online, queuedCards, restore, send } from "./table-send.js";
import { S, call, save, status, token } from "./table-state.js";
import { hostBox, storedBox } from "./table-host.js";
import { keeperBox, keeperShown } from "./table-keeper.js";
import { open as openStream } from "./table-stream.js";

var root = null, picked = {}, source = null, refollow = null, lastId = null;
var slips = {};  // a slot's card the engine refused, with why: {card, message} (shown on that card only)

// --- following the table ----------------------------------------------------------------------

function follow() {  // table-stream.js: the token in a header, never in the URL
  clearInterval(S.polling); clearTimeout(refollow); S.polling = refollow = null;
  if (source) source.close();
  var es = source = openStream(S.api + "/stream", { token: token(), lastId: S.view ? lastId : null }, {
    open: function () { status(""); },
    event: function (name, d, id) {
      if (id !== undefined) lastId = id;
      if (name === "snapshot" || name === "table") show(d);
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
  clearInterval(S.polling); clearTimeout(refollow);
  status(t("Live updates are refused for now: the table is read every 2 s."));
  var read = function () {
    call("GET", "").then(function (a) {
      if (a.status === 200 && a.body.seq !== undefined) show(a.body);
      else if (a.status === 401 || a.status === 403 || a.status === 404) {
        clearInterval(S.polling); clearTimeout(refollow);
        status(a.body.message || String(a.status), true);
      }
    }).catch(function () { /* offline: the next read */ });
  };
  read();
  S.polling = setInterval(read, 2000);
  refollow = setTimeout(follow, 10000);  // the server's Retry-After for a stream (STREAM_RETRY)
}

function show(next) {
  if (S.view && next.seq < S.view.seq) return;
  S.view = next;
  var open = {};  // taps kept only for slots still open to this phone (same entry, same slot)
  Object.keys(S.view.gathering || {}).forEach(function (kind) {
    var g = S.view.gathering[kind];
    g.slots.forEach(function (slot) { if (slot.yours && !slot.filled) open[pickKey(kind, g, slot)] = true; });
  });
  Object.keys(picked).forEach(function (k) { if (!open[k] || S.sending[k]) delete picked[k]; });
  Object.keys(slips).forEach(function (k) { if (!open[k]) delete slips[k]; });
  if (S.view.you.player && S.store.player !== S.view.you.player) { S.store.player = S.view.you.player; save(); }
  // the table as the replay draws it: every game with a renderer (POP!'s queues, explosions and
  // collected cards too), from the draft this phone sees
  var drawn = S.view.choices || rendererOf(S.view.game);
  if (drawn && (!S.checked || S.checked.seq !== S.view.seq)) askSteps(S.view);
  render();
}

// the latest steps of the draft this phone sees, for the game's renderer (the checked table)
function askSteps(v) {
  fetch("/api/v1/record/check", { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json", "Accept-Language": lang },
    body: JSON.stringify({ log: v.log, pending: null, steps: "tail" }) })
    .then(function (r) { return r.json(); })
    .then(function (a) { if (S.view && S.view.seq === v.seq) { S.checked = { seq: v.seq, steps: a.steps || [], result: a.result || null }; render(); } })
    .catch(function () { /* the table box waits for the next entry */ });
}

// --- entries ----------------------------------------------------------------------------------

function pickKey(kind, g, slot) { return [kind, g.round, g.turn, slot.index].join(":"); }

function tap(kind, g, slot, card) {
  var key = pickKey(kind, g, slot);
  if (S.sending[key]) return;
  var list = picked[key] = picked[key] || [];
  var at = list.indexOf(card);
  if (at >= 0) list.splice(at, 1); else list.push(card);
  delete slips[key];
  if (list.length === slot.count) {
    var slots = {}, sent = list.slice();
    slots[slot.index] = sent;
    send({ type: "part", entry: kind, slots: slots }, key, function (ok, error) { return slipped(key, slot, sent, ok, error); });
  }
  render();
}

// a part refused by the rules: the card the refusal points at (`/entry/slots/<slot>/<k>`) is
// shown refused, with the rule's words; the other cards stay tapped, so one tap replaces it
function slipped(key, slot, sent, ok, error) {
  var at = !ok && error && /^\/entry\/slots\/(\d+)\/(\d+)$/.exec(error.path || "");
  if (!at || Number(at[1]) !== slot.index || Number(at[2]) >= sent.length) return false;
  var card = sent[Number(at[2])];
  picked[key] = sent.filter(function (c) { return c !== card; });
  slips[key] = { card: card, message: error.message || "" };
  return true;
}

// --- drawing ----------------------------------------------------------------------------------

function cards(list, cls) {
  return el.apply(null, ["div", { class: "tb-cards" }].concat((list || []).map(function (c) {
    return el("span", { class: "tb-card " + (cls || ""), text: c === null ? "·" : String(c) });
  })));
}

function seatsBox() {
  var box = el("section", { class: "rp-box", "aria-labelledby": "tb-seats-h" },
    el("h2", { id: "tb-seats-h", class: "rp-head", text: t("Who are you?") }));
  var row = el("div", { class: "rp-row" });
  S.view.seats.forEach(function (s) {
    row.appendChild(el("button", { type: "button", class: "rp-big", disabled: s.taken && !S.store.host, dataset: { act: "seat", player: s.player },
      on: { click: function () { takeSeat(s.player); } } }, s.taken ? t("{name} (taken)", { name: s.player }) : s.player));
  });
  box.appendChild(row);
  box.appendChild(el("p", { class: "rp-hint", text: S.store.host ? t("Tap your name to play from this phone, or keep it to show the code.")
    : t("Tap your name to enter your own moves, or just watch.") }));
  return box;
}

function takeSeat(player) {
  call("POST", "/seats", { player: player }, S.store.host || S.store.key).then(function (a) {
    if (a.status !== 201) { status(a.body.message, true); return; }
    S.store.seat = a.body.seat_token;
    S.store.player = player;
    save();
    S.view = null;
    follow();
  });
}

function tableBox() {
  var box = el("section", { class: "rp-box", "aria-labelledby": "tb-now-h" },
    el("h2", { id: "tb-now-h", class: "rp-head", text: t("The table") }));
  var panel = panelOf(S.view.game);
  if (panel.drawGathered) panel.drawGathered(box, S.view, { el: el, cards: cards });
  var steps = (S.checked && S.checked.steps) || [];
  var stage = lastStage(rendererOf(S.view.game), steps, (S.checked && S.checked.result) || S.view.result, S.view.players);
  if (stage) {  // as on the replay: the rows, the queues, what exploded, who collected what
    stage.classList.add("tb-stage");
    stage.dataset.act = "drawn";
    stage.tabIndex = 0;  // it may scroll sideways: reachable by the keyboard
    stage.setAttribute("role", "group");
    stage.setAttribute("aria-label", t("The table as the replay draws it"));
    box.appendChild(stage);
    var note = steps[steps.length - 1].note;
    if (note) box.appendChild(el("p", { class: "rp-sub tb-note", text: note }));
  }
  var outcome = S.view.result && S.view.result.outcome;
  if (outcome && outcome.totals) {
    box.appendChild(el("p", { class: "rp-sub", dataset: { act: "totals" } }, t("Scores: {scores}", {
      scores: S.view.players.map(function (n) { return n + " " + outcome.totals[n]; }).join(" · ") })));
  }
  if (S.view.over) box.appendChild(el("p", { class: "rp-done", text: t("The game is over.") }));
  return box;
}

function entryBoxes() {
  var boxes = [];
  var panel = panelOf(S.view.game);  // the slots and entries in the game's words
  Object.keys(S.view.gathering || {}).forEach(function (kind) {
    var g = S.view.gathering[kind];
    var box = el("section", { class: "rp-box", dataset: { entry: kind } },
      el("h2", { class: "rp-head", text: panel.entryName ? panel.entryName(kind, g) : kind }));
    var gridShown = false;  // the deal: one grid at a time (the layout's rows, then this seat's hand)
    g.slots.forEach(function (slot) {
      var picking = picked[pickKey(kind, g, slot)] || [];
      var state = slot.filled ? el("span", { class: "tb-ok", text: t("entered") + " ✓" })
        : picking.length ? el("span", { class: "tb-wait", dataset: { act: "progress" }, text: t("{n}/{count} tapped", { n: picking.length, count: slot.count }) })
        : slot.player === null && !slot.yours && S.view.keeper ? el("span", { class: "tb-wait", dataset: { act: "slot-keeper" },
          text: t("{name} enters it", { name: S.view.keeper }) })
        : el("span", { class: "tb-wait", text: t("waiting") });
      var line = el("div", { class: "tb-slot", dataset: { slot: String(slot.index) } },
        el("p", { class: "rp-sub" }, (panel.slotName ? panel.slotName(slot) : slot.role) + " — ", state));
      if (slot.cards) line.appendChild(cards(slot.cards, "tb-picked"));
      var queued = !slot.filled && queuedCards(pickKey(kind, g, slot), slot.index);
      var mineToTap = slot.yours && !slot.filled && slot.offers && (slot.player === S.store.player || slot.player === null || !S.store.player);
      if (queued) {  // tapped, not sent yet (offline, busy): shown as it will be sent
        line.appendChild(cards(queued, "tb-picked"));
        line.appendChild(el("p", { class: "rp-hint", dataset: { act: "unsent" }, text: t("Not sent yet") }));
      } else if (mineToTap && kind === "round" && gridShown) {
        line.appendChild(el("p", { class: "rp-hint", dataset: { act: "next-grid" }, text: t("Next, once the one above is entered.") }));
      } else if (mineToTap) {
        if (kind === "round") gridShown = true;
        var mine = picked[pickKey(kind, g, slot)] || [];
        var slip = slips[pickKey(kind, g, slot)];
        if (slip) {
          line.appendChild(el("p", { class: "rp-error tb-slip", role: "alert", dataset: { act: "slip" } },
            t("{card} is refused: {why}.", { card: String(slip.card), why: slip.message.replace(/[.\s]+$/, "") }) + " "
            + nt("Tap {n} other card.", "Tap {n} other cards.", slot.count - mine.length)));
        } else {
          line.appendChild(el("p", { class: "rp-hint", text: nt("Tap {n} card", "Tap {n} cards", slot.count - mine.length) }));
        }
        // many cards (the 1–50 a deal or an unrecorded hand may hold): the recorder's grid, rows of
        // ten, a card not offered disabled; a hand's few cards: a row
        var grid = slot.offers.length > 12 && slot.offers.every(function (c) { return typeof c === "number" && c >= 1 && c <= 50; });
        var row = el("div", { class: grid ? "tb-grid" : "tb-cards", role: "group" });
        var keys = grid ? [] : slot.offers;
        if (grid) for (var n = 1; n <= 50; n++) keys.push(n);
        keys.forEach(function (c) {
          var offered = slot.offers.indexOf(c) >= 0;
          var bad = slip && slip.card === c;
          var data = { act: "card", card: String(c), slot: String(slot.index) };
          if (bad) data.refused = "1";
          row.appendChild(el("button", { type: "button", class: "tb-card" + (mine.indexOf(c) >= 0 ? " tb-picked" : "") + (bad ? " tb-refused" : ""), disabled: !offered,
            dataset: data, "aria-pressed": mine.indexOf(c) >= 0 ? "true" : "false",
            "aria-invalid": bad ? "true" : null,
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
  while (root.lastChild !== S.queueLine) root.removeChild(root.lastChild);
  if (!S.view) return;
  root.dataset.seq = String(S.view.seq);
  root.dataset.game = S.view.game;
  root.dataset.checked = S.checked ? String(S.checked.seq) : "";  // the checked table drawn is of this entry
  var stored = S.view.status === "stored";
  var hosting = !!(S.store.host && S.store.key);
  var who = S.view.you.player ? t("You are {name}.", { name: S.view.you.player })
    : S.view.you.role === "host" || hosting ? (stored ? t("You host this table.") : t("You host this table: tap your name."))
    : t("You are watching.");
  root.appendChild(el("p", { class: "rp-sub", dataset: { act: "you" } }, who));
  if (stored) {  // every phone: the replay link, the table as it ended, the sign-off (table-sign.js)
    root.appendChild(storedBox());
    root.appendChild(S.view.choices ? checkedBox() : tableBox());
    window.dispatchEvent(new CustomEvent("popreplay:table", {detail: S.view}));
    return;
  }
  var now = S.view.choices && !S.view.over && !oneRecorder(S.view.game) ? mover(S.view.choices) : null;
  if (now) root.appendChild(el("p", { class: "tb-turn", dataset: { act: "turn" } },
    now === S.view.you.player ? t("Your turn.") : t("{name} to play.", { name: now })));
  if (S.view.refused) root.appendChild(el("p", { class: "rp-error", text: t("Refused: {message}", { message: S.view.refused.error.message }) }));
  var first = hosting && !S.store.seat;  // the host's first screen: the QR code, then the names
  if (first) root.appendChild(hostBox());
  if (!S.store.seat) root.appendChild(seatsBox());
  // who enters what nobody holds: every phone (the host's first screen once something is entered:
  // its first seat becomes the keeper)
  if (keeperShown() && !(first && S.view.seq === 0)) root.appendChild(keeperBox());
  if (S.view.you.player && S.view.hand) {
    root.appendChild(el("section", { class: "rp-box", dataset: { act: "hand" } },
      el("h2", { class: "rp-head", text: t("Your hand (only you see it)") }), cards(S.view.hand)));
  }
  if (S.view.choices) {  // this phone's move: its panel first; else the checked table first
    var p = panelSection();
    if (p && !p.dataset.theirs) root.appendChild(p);
    root.appendChild(checkedBox());
    if (p && p.dataset.theirs) root.appendChild(p);
  } else {
    entryBoxes().forEach(function (b) { root.appendChild(b); });
    root.appendChild(tableBox());
  }
  if (hosting && !first) root.appendChild(hostBox());
  window.dispatchEvent(new CustomEvent("popreplay:table", {detail: S.view}));
}

function boot() {
  root = document.getElementById("table");
  Promise.all([loadGames("renderer"), loadGames("panel")]).then(function (found) {
    useGames({ renderers: found[0], panels: found[1] });
    start();
  });
}

function start() {
  S.hooks = { show: show, render: render };
  root.addEventListener("pointerdown", function () { holding = true; });
  var release = function () {
    setTimeout(function () { holding = false; if (deferred) { deferred = false; render(); } }, 0);
  };
  document.addEventListener("pointerup", release);
  document.addEventListener("pointercancel", release);
  S.queueLine = el("p", { class: "rp-status tb-queue", id: "tb-queue", role: "status", "aria-live": "polite", dataset: { act: "queue" } });
  root.insertBefore(S.queueLine, document.getElementById("tb-status").nextSibling);
  S.data = JSON.parse(document.getElementById("table-data").textContent);
  S.api = S.data.api;
  try { S.store = JSON.parse(localStorage.getItem("popreplay-table:" + S.data.table) || "{}") || {}; } catch (e) { S.store = {}; }
  var hash = new URLSearchParams(location.hash.slice(1));
  if (hash.get("key")) S.store.key = hash.get("key");
  if (hash.get("seat")) { S.store.seat = hash.get("seat"); S.store.player = null; }
  if (location.hash) history.replaceState(null, "", location.pathname + location.search);
  save();
  if (!token()) { status(t("This table needs its join link (ask the host for the QR code)."), true); return; }
  restore();
  window.addEventListener("online", online);
  follow();
  next();
}

whenReady(boot);
