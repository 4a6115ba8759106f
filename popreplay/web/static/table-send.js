/*
 * The table page's send queue (docs/table.md, "Offline, busy, refused a stream"): the entries not
 * sent yet are kept in localStorage "popreplay-table-queue:<id>:<seat>" (each with its own id,
 * `seen` and slot key) and sent again, same id, when the page opens, when the network is back, or
 * after a 503's Retry-After.
 */
import { nt, t } from "./i18n.js";
import { S, call, status } from "./table-state.js";

var queueKept = null, stuck = false, note = "", timer = null;

function newId() { return (S.store.player || "host") + "-" + Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 8); }

// entries go one at a time, in the order they were made (a tap never waits for the network);
// each is kept in localStorage until the server has it (an answer 200 or 201) or refuses it
export function send(entry, key, then) {
  S.queue.push({ entry: entry, key: key, id: newId(), seen: S.view ? S.view.seq : 0, then: then });
  S.sending[key] = true;
  keep();
  next();
}

function queueKey() { return "popreplay-table-queue:" + S.data.table + ":" + (S.store.player || "host"); }

function keep() {
  var name = queueKey();
  try {
    if (queueKept && queueKept !== name) localStorage.removeItem(queueKept);
    if (S.queue.length) localStorage.setItem(name, JSON.stringify(S.queue.map(function (q) {
      return { entry: q.entry, key: q.key, id: q.id, seen: q.seen };
    })));
    else localStorage.removeItem(name);
    queueKept = name;
  } catch (e) { /* storage full or off: the queue still lives in this page */ }
  if (!S.queue.length) { stuck = false; note = ""; }
  S.queueLine.textContent = S.queue.length && stuck ? (note ? note + " " : "")
    + nt("{n} entry is waiting to be sent.", "{n} entries are waiting to be sent.", S.queue.length) : "";
}

export function restore() {
  try { S.queue = JSON.parse(localStorage.getItem(queueKey()) || "[]") || []; } catch (e) { S.queue = []; }
  S.queue.forEach(function (q) { S.sending[q.key] = true; });
  stuck = S.queue.length > 0;
  keep();
}

function later(seconds, why) {  // the same entry (same id) again, later
  stuck = true; note = why; keep();
  clearTimeout(timer);
  timer = setTimeout(function () { timer = null; next(); }, seconds * 1000);
}

export function next() {
  var item = S.queue[0];
  if (!item || item.busy || timer) return;
  item.busy = true;
  var stale = 0;
  // `then(ok, error)` says whether it showed a refusal itself (a slip shown on its card)
  var done = function (ok, error) {
    delete S.sending[item.key]; S.queue.shift(); keep();
    var shown = item.then ? item.then(ok, error) : false;
    next();
    return shown;
  };
  var go = function () {
    return call("POST", "/entries", { id: item.id, seen: item.seen, entry: item.entry }).then(function (a) {
      var first = (a.body.errors || [])[0] || {};
      if (a.status === 201 || a.status === 200) { item.busy = false; if (!S.polling) status(""); done(true); if (a.body.view) S.hooks.show(a.body.view); return; }
      if (a.status === 409 && first.code === "stale" && a.body.view) {  // what it missed: again
        S.hooks.show(a.body.view);
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
      if (!done(false, first)) status(t("Refused: {message}", { message: first.message || a.body.message || String(a.status) }), true);
      S.hooks.render();
    });
  };
  go().catch(function () {  // offline: the same entry (same id) again, later
    item.busy = false;
    later(3, t("Not sent yet: no network. Trying again…"));
  });
}

export function queuedCards(key, index) {
  var item = S.queue.filter(function (q) { return q.key === key; })[0];
  return item && item.entry.slots ? item.entry.slots[index] || null : null;
}

// the network is back: the queue goes now
export function online() {
  if (timer) { clearTimeout(timer); timer = null; }
  next();
}
