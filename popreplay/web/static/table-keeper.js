/*
 * The table page's keeper (docs/table.md "Who may make which entry"): what is nobody's own (the
 * kit's panel module names it: `keptWords`, e.g. a deal's layout, the flips) is entered by one
 * seat at a time, the view's `keeper` (null: the host's phone). Every phone says who; the host's
 * phone names another keeper; another seat takes over explicitly, after a question. The server
 * decides who may (POST .../keeper: the host names any seat, a seat only itself) and tells every
 * phone through the stream: this module writes no rule.
 */
import { el } from "./dom.js";
import { t } from "./i18n.js";
import { oneRecorder, panelOf } from "./table-panel.js";
import { S, call, status } from "./table-state.js";

var asking = false;  // this seat tapped "Take over": the question is open

// whether this table has a keeper to show: what is nobody's own is one seat's at a time
export function keeperShown() {
  var v = S.view;
  return !!v && v.status === "live" && v.shared_by === "keeper" && !v.over
    && (oneRecorder(v.game) || Object.keys(v.gathering || {}).length > 0 || !!v.keeper);
}

// this phone enters what is nobody's own (the keeper's seat, or the host's phone when none)
export function keepsHere() {
  var v = S.view;
  if (!v) return false;
  return v.keeper ? v.you.player === v.keeper : v.you.role === "host";
}

function what() {
  var panel = panelOf(S.view.game);
  return panel.keptWords ? panel.keptWords() : t("the cards nobody holds");
}

// "Alice enters the layout and the Chief's cards" (or "You enter …")
export function keeperLine() {
  var v = S.view;
  if (keepsHere()) return t("You enter {what}.", { what: what() });
  if (v.keeper) return t("{name} enters {what}.", { name: v.keeper, what: what() });
  return t("The host's phone enters {what}.", { what: what() });
}

function name(player, tok) {
  call("POST", "/keeper", { player: player }, tok).then(function (a) {
    asking = false;
    if (a.status !== 200) { status(t("Refused: {message}", { message: a.body.message || String(a.status) }), true); S.hooks.render(); return; }
    status("");
    S.view.keeper = a.body.player;  // the stream tells every phone too (its next view)
    S.hooks.render();
  }).catch(function () { status(t("Not sent: no network."), true); });
}

function hostPick() {
  var v = S.view;
  var pick = el("select", { id: "tb-keeper-pick", dataset: { act: "keeper-pick" }, on: { change: function () {
    name(pick.value === "" ? null : pick.value, S.store.host);
  } } });
  v.players.forEach(function (p) {
    pick.appendChild(el("option", { value: p, selected: v.keeper === p || null, text: p }));
  });
  pick.appendChild(el("option", { value: "", selected: !v.keeper || null, text: t("The host's phone") }));
  return el("div", { class: "rp-field tb-keeper-pick" },
    el("label", { for: "tb-keeper-pick", text: t("Who enters {what}?", { what: what() }) }), pick);
}

function takeOver() {
  var v = S.view, me = v.you.player, one = oneRecorder(v.game);
  if (!asking) {
    return el("div", { class: "rp-row" }, el("button", { type: "button", class: one ? "rp-big" : "tb-take", dataset: { act: one ? "records" : "take-over" },
      on: { click: function () { asking = true; S.hooks.render(); } } }, one ? t("Record from this phone") : t("Take over from this phone")));
  }
  var other = v.keeper ? t("{name}'s phone", { name: v.keeper }) : t("the host's phone");
  return el("div", { class: "tb-ask", role: "group", "aria-labelledby": "tb-keeper-q", dataset: { act: "take-over-ask" } },
    el("p", { id: "tb-keeper-q", text: t("Enter {what} from this phone instead of {other}? Every phone is told at once; {other} no longer enters them.", { what: what(), other: other }) }),
    el("div", { class: "rp-row" },
      el("button", { type: "button", class: "rp-big primary", dataset: { act: "take-over-yes" }, on: { click: function () { name(me, S.store.seat); } } }, t("Take over")),
      el("button", { type: "button", class: "rp-big", dataset: { act: "take-over-no" }, on: { click: function () { asking = false; S.hooks.render(); } } }, t("Cancel"))));
}

// the keeper's box: the line every phone sees, the host's choice, a seat's take-over
export function keeperBox() {
  var v = S.view;
  var box = el("section", { class: "rp-box tb-keeper", dataset: { act: "keeper", keeper: v.keeper || "" }, "aria-label": t("Who enters what nobody holds") },
    el("p", { class: "tb-keeper-line", dataset: { act: "keeper-line" } }, keeperLine()));
  if (S.store.host) box.appendChild(hostPick());
  else if (v.you.role === "seat" && !keepsHere()) box.appendChild(takeOver());
  return box;
}
