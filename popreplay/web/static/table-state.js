/*
 * The table page's state, shared by its modules (table.js, table-send.js, table-panel.js), and
 * its one way to the tables API (docs/table.md).
 */
import { lang } from "./i18n.js";

export var S = {
  data: null, api: null, store: null,  // the page's data, the API's address, the tokens (localStorage)
  view: null,  // the table as this phone sees it (the stream's last)
  checked: null,  // {seq, steps, result}: /api/v1/record/check of the draft this phone sees
  queue: [], sending: {},  // the entries not sent yet, and the slots they fill (table-send.js)
  polling: null,  // the poll's timer while the stream is refused
  queueLine: null,  // the line that says what waits to be sent
  hooks: { show: null, render: null },  // table.js's: a new view, a redraw
};

export function status(text, bad) {
  var line = document.getElementById("tb-status");
  line.textContent = text || "";
  line.classList.toggle("rp-error", !!bad);
}

export function save() { localStorage.setItem("popreplay-table:" + S.data.table, JSON.stringify(S.store)); }

export function token() { return S.store.seat || S.store.key || S.store.host; }

export function call(method, path, body, tok) {
  var headers = { Accept: "application/json", "Accept-Language": lang };
  if (body) headers["Content-Type"] = "application/json";
  headers.Authorization = "Bearer " + (tok || token());
  return fetch(S.api + path, { method: method, headers: headers, body: body ? JSON.stringify(body) : undefined })
    .then(function (r) {  // a proxy's HTML page (a 502 while a host restarts) is no JSON: {}
      var retry = parseInt(r.headers.get("Retry-After"), 10);
      return r.json().catch(function () { return {}; })
        .then(function (b) { return { status: r.status, body: b || {}, retry: retry > 0 ? retry : null }; });
    });
}
