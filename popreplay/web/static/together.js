/*
 * "Record together" (the recorder's setup): start a table with the recorder's first draft and
 * open its page (/t/<id>). The table's tokens stay in this browser (localStorage
 * "popreplay-table:<id>"): this phone is the host. docs/table.md. For a group
 * (/g/<slug>/record), the table is the group's, each seat its member (record-group.js).
 */
import { tableUrl } from "./record-group.js";

export function start(draft, setup, lang) {
  var body = { log: draft, record_hands: !!setup.recordHands };
  if (setup.group) body.members = setup.members || [];  // a table of a group: a member per seat
  return fetch(tableUrl(setup), {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json", "Accept-Language": lang || "en" },
    body: JSON.stringify(body),
  }).then(function (r) {
    return r.json().then(function (body) {
      if (r.status !== 201) throw new Error(body.message || String(r.status));
      localStorage.setItem("popreplay-table:" + body.table, JSON.stringify({ host: body.host_token, key: body.join_key, qr: body.qr_svg }));
      location.href = "/t/" + encodeURIComponent(body.table);
    });
  });
}
