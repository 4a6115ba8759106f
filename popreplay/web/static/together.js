/*
 * "Record together" (the recorder's setup): start a table with the recorder's first draft and
 * open its page (/t/<id>). The table's tokens stay in this browser (localStorage
 * "popreplay-table:<id>"): this phone is the host. docs/table.md.
 */
export function start(draft, setup, lang) {
  return fetch("/api/v1/tables", {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json", "Accept-Language": lang || "en" },
    body: JSON.stringify({ log: draft, record_hands: !!setup.recordHands }),
  }).then(function (r) {
    return r.json().then(function (body) {
      if (r.status !== 201) throw new Error(body.message || String(r.status));
      localStorage.setItem("popreplay-table:" + body.table, JSON.stringify({ host: body.host_token, key: body.join_key, qr: body.qr_svg }));
      location.href = "/t/" + encodeURIComponent(body.table);
    });
  });
}
