/*
 * The table page's host box and stored box (docs/table.md "Store or continue").
 *
 * The host's first screen: the QR code and a short join link (the whole address behind it, a
 * button to copy or share it), "You host this table: tap your name". Storing is on purpose: only
 * the host's phone has "Store the game", and it first asks, saying what happens to an unfinished
 * game. Once the view's `status` is "stored" (its `stored` the replay's slug), every phone shows
 * the stored box instead of anything to enter: the replay link, then the sign-off (table-sign.js).
 */
import { el } from "./dom.js";
import { t } from "./i18n.js";
import { S, call, status } from "./table-state.js";

var asking = false;  // the host tapped "Store the game": the question is open

export function joinUrl() {
  return location.origin + "/t/" + encodeURIComponent(S.data.table) + "#key=" + encodeURIComponent(S.store.key);
}

// the address people read: the host and the table, the key left out (it is in the link)
function shortUrl() { return location.host + "/t/" + S.data.table; }

function copy(url, out) {
  var said = function () { out.textContent = t("Link copied."); };
  if (navigator.share) { navigator.share({ url: url }).catch(function () { /* closed */ }); return; }
  if (navigator.clipboard) navigator.clipboard.writeText(url).then(said, function () { out.textContent = url; });
  else out.textContent = url;
}

export function hostBox() {
  var url = joinUrl();
  var out = el("span", { class: "tb-copied", role: "status" });
  var box = el("section", { class: "rp-box tb-qr", dataset: { act: "host" }, "aria-labelledby": "tb-join-h" },
    el("h2", { id: "tb-join-h", class: "rp-head", text: t("Join this table: scan or open the link") }),
    S.store.qr ? el("img", { src: "data:image/svg+xml;charset=utf-8," + encodeURIComponent(S.store.qr), alt: t("QR code of the join link") }) : null,
    el("p", { class: "tb-link" }, el("a", { href: url, dataset: { act: "join-link" }, text: shortUrl() }), " ",
      el("button", { type: "button", class: "tb-copy", dataset: { act: "copy-link" }, on: { click: function () { copy(url, out); } } }, t("Copy the link")), " ", out));
  if (S.view.status === "live") box.appendChild(storeRow());
  return box;
}

function storeRow() {
  if (!asking) {
    return el("div", { class: "rp-row" }, el("button", { type: "button", class: "rp-big", dataset: { act: "store" },
      on: { click: function () { asking = true; S.hooks.render(); } } }, t("Store the game")));
  }
  var ask = el("div", { class: "tb-ask", role: "group", "aria-labelledby": "tb-ask-q", dataset: { act: "store-ask" } },
    el("p", { id: "tb-ask-q", text: S.view.over
      ? t("Store the game? Nobody can enter anything more; the replay and the sign-off open on every phone.")
      : t("The game is not over. Store it now? It is kept as an unfinished game: the replay stops at the last entry, and nobody can enter anything more at this table.") }));
  ask.appendChild(el("div", { class: "rp-row" },
    el("button", { type: "button", class: "rp-big primary", dataset: { act: "store-yes" }, on: { click: storeGame } }, t("Store the game")),
    el("button", { type: "button", class: "rp-big", dataset: { act: "store-no" }, on: { click: function () { asking = false; S.hooks.render(); } } }, t("Cancel"))));
  return ask;
}

function storeGame() {
  asking = false;
  call("POST", "/store", { visibility: "public" }, S.store.host).then(function (a) {
    if (a.status !== 201) { status(t("Refused: {message}", { message: a.body.message }), true); S.hooks.render(); return; }
    status("");
    S.view.status = "stored";  // the stream says so too (a `table` event), to every phone
    S.view.stored = a.body.slug || S.view.stored;
    S.hooks.render();
  });
}

export function replayUrl(step) {
  return "/r/" + encodeURIComponent(S.view.stored) + (step === undefined ? "" : "#step=" + step);
}

export function storedBox() {
  return el("section", { class: "rp-box tb-stored", dataset: { act: "stored" }, "aria-labelledby": "tb-stored-h" },
    el("h2", { id: "tb-stored-h", class: "rp-head", text: S.view.over ? t("The game is stored.") : t("The game is stored unfinished.") }),
    S.view.stored ? el("p", {}, el("a", { class: "rp-big primary tb-replay", href: replayUrl(), dataset: { act: "replay" } }, t("Open the replay"))) : null,
    el("p", { class: "rp-hint", text: t("Nothing more to enter here. Sign off the result below.") }));
}
