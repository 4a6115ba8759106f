/*
 * The recorder's setup form: game, mode, players, options, title, date and place.
 * Methods of recorder.js's Recorder (its header has the panel contract).
 */

import { clear, el } from "./dom.js";
import { lang, t } from "./i18n.js";
import { clone } from "./record-lib.js";
import { groupLine, memberChips, seatMembers } from "./record-group.js";
import { start as startTable } from "./together.js";

// ---------------------------------------------------------------------------------------------
// setup

export function setupForm() {
  var self = this;
  var main = this.mainNode();
  clear(main);
  var names = this.page.games.map(function (g) { return g.name; });
  var setup = { game: names[0], mode: this.games[names[0]].modes[0], players: [], options: {}, recordHands: true, meta: {} };
  var list = el("datalist", { id: "rec-known" }, this.page.known_players.map(function (n) { return el("option", { value: n }); }));
  var form = el("form", { class: "rp-box rp-setup", "aria-labelledby": "rec-setup-h" });
  var gameSel = el("select", { id: "rec-game", name: "game" }, this.page.games.map(function (g) {
    return el("option", { value: g.name, text: g.title });
  }));
  var modeSel = el("select", { id: "rec-mode", name: "mode" });
  var playersBox = el("fieldset", { class: "rp-players" });
  var optionsBox = el("div", { class: "rp-options" });
  var hands = el("input", { type: "checkbox", id: "rec-hands", checked: true });
  var when = el("input", { type: "datetime-local", id: "rec-when" });
  var where = el("input", { type: "text", id: "rec-where", autocomplete: "off" });
  var title = el("input", { type: "text", id: "rec-name", autocomplete: "off" });
  var inputs = [];

  var group = this.page.group || null;  // the recorder of a group: its members as chips
  var chips = group ? memberChips(group, function () { return inputs; }, function () {
    var before = count;
    playerFields(1);
    return count > before;
  }, function (text) { self.say(text, Boolean(text)); }) : null;

  var count = 0;
  function playerFields(change) {
    var range = self.games[setup.game].players[setup.mode];
    var old = inputs.map(function (i) { return i.value; });
    var oldMembers = inputs.map(function (i) { return i.dataset.member; });
    count = Math.max(range[0], Math.min(range[1], (count || range[0]) + (change || 0)));
    clear(playersBox);
    playersBox.appendChild(el("legend", { text: range[0] === range[1] ? t("Players, in seat order ({n})", { n: range[0] }) : t("Players, in seat order ({min} to {max})", { min: range[0], max: range[1] }) }));
    inputs = [];
    for (var n = 1; n <= count; n++) {
      var input = el("input", { type: "text", id: "rec-player-" + n, list: "rec-known", autocomplete: "off",
        required: true, maxlength: 100, value: old[n - 1] || "" });
      if (oldMembers[n - 1] && old[n - 1]) input.dataset.member = oldMembers[n - 1];
      if (chips) input.addEventListener("input", chips.typed);
      inputs.push(input);
      playersBox.appendChild(el("div", { class: "rp-field" }, el("label", { for: input.id, text: t("Player {n}", { n: n }) }), input));
    }
    playersBox.appendChild(el("div", { class: "rp-row" },
      el("button", { type: "button", dataset: { act: "add-player" }, disabled: count >= range[1], on: { click: function () { playerFields(1); } } }, "+ " + t("player")),
      el("button", { type: "button", dataset: { act: "remove-player" }, disabled: count <= range[0], on: { click: function () { playerFields(-1); } } }, "− " + t("player"))));
    if (chips) chips.draw();
  }
  function modes() {
    clear(modeSel);
    self.games[setup.game].modes.forEach(function (m) { modeSel.appendChild(el("option", { value: m, text: self.modeWord(setup.game, m) })); });
    modeSel.value = setup.mode;
  }
  var handsBox = el("label", { class: "rp-check" }, hands, " " + t("Record the hands and the deal (this phone enters every card; at a table, each player enters their own hand). Off: only the cards played face up."));
  function options() {
    // a panel that has no hands to record (slap: every card is face up when it counts) says so
    handsBox.hidden = (self.panels[setup.game] || {}).recordsHands === false;
    clear(optionsBox);
    setup.options = {};
    var panel = self.panels[setup.game];
    if (panel && panel.setupForm) panel.setupForm(optionsBox, setup, { el: el, clear: clear });
  }
  gameSel.addEventListener("change", function () {
    setup.game = gameSel.value; setup.mode = self.games[setup.game].modes[0]; modes(); playerFields(); options();
  });
  modeSel.addEventListener("change", function () { setup.mode = modeSel.value; playerFields(); options(); });
  form.addEventListener("submit", function (ev) {
    ev.preventDefault();
    setup.players = inputs.map(function (i) { return i.value.trim(); });
    if (group) {
      setup.group = { slug: group.slug, name: group.name, "private": group.private };
      setup.members = seatMembers(inputs);
    }
    setup.recordHands = hands.checked;
    setup.meta = {};
    if (title.value.trim()) setup.meta.title = title.value.trim();
    if (where.value.trim()) setup.meta.location = where.value.trim();
    // a recorded game is listed by what it is ("POP! battle · Alice, Bruno, Chloé") and when
    // it was recorded, unless the form says otherwise
    if (!setup.meta.title) setup.meta.title = t("{game} {mode} · {players}", { game: self.games[setup.game].title.replace(/ \(.*\)$/, ""),
      mode: self.modeWord(setup.game, setup.mode), players: setup.players.join(", ") }).replace(/ +·/, " ·");
    setup.meta.played_at = localIso(when.value || nowLocal());
    setup.meta.source = "recorder";
    var panel = self.panels[setup.game];
    var draft = panel && panel.start ? panel.start(clone(setup)) : null;
    if (!draft) {
      draft = { format: "popreplay/1", game: setup.game, mode: setup.mode, players: setup.players };
      if (Object.keys(setup.options).length) draft.options = clone(setup.options);
      draft.meta = clone(setup.meta);
    }
    if (ev.submitter && ev.submitter.dataset.act === "together") {  // docs/table.md
      startTable(draft, setup, lang).catch(function (e) { self.say(t("Refused: {message}", { message: e.message }), true); });
      return;
    }
    self.begin(clone(setup), draft, null);
  });
  form.appendChild(el("h2", { id: "rec-setup-h", class: "rp-head", text: t("New game") }));
  if (group) form.appendChild(el("p", { class: "rp-sub" }, groupLine(group)));
  form.appendChild(el("div", { class: "rp-field" }, el("label", { for: "rec-game", text: t("Game") }), gameSel));
  form.appendChild(el("div", { class: "rp-field" }, el("label", { for: "rec-mode", text: t("Mode") }), modeSel));
  form.appendChild(optionsBox);
  if (chips) form.appendChild(chips.node);  // who plays, just above the seats they fill
  form.appendChild(playersBox);
  form.appendChild(list);
  form.appendChild(handsBox);
  form.appendChild(el("div", { class: "rp-field" }, el("label", { for: "rec-name", text: t("Title (optional)") }), title));
  form.appendChild(el("div", { class: "rp-field" }, el("label", { for: "rec-when", text: t("Played at (optional)") }), when));
  form.appendChild(el("div", { class: "rp-field" }, el("label", { for: "rec-where", text: t("Location (optional)") }), where));
  form.appendChild(el("div", { class: "rp-row" }, el("button", { type: "submit", class: "rp-big primary", dataset: { act: "start" } }, t("Start recording")),
    el("button", { type: "submit", class: "rp-big", dataset: { act: "together" } }, t("Record together"))));
  main.appendChild(form);
  var saved = el("form", { class: "rp-box", "aria-label": t("Continue a saved game"), on: { submit: function (ev) {
    ev.preventDefault();
    var slug = document.getElementById("rec-slug").value.trim();
    if (slug) self.continueForm(slug);
  } } }, el("h2", { class: "rp-head", text: t("Continue a saved game") }),
    el("div", { class: "rp-field" }, el("label", { for: "rec-slug", text: t("Game id (slug)") }), el("input", { id: "rec-slug", type: "text", autocomplete: "off" })),
    el("div", { class: "rp-row" }, el("button", { type: "submit", dataset: { act: "open-saved" } }, t("Open"))));
  main.appendChild(saved);
  modes(); playerFields(); options();
  this.say("");
}

function nowLocal() {  // the phone's clock as a datetime-local value: "2026-11-27T20:15"
  var d = new Date();
  function two(n) { return (n < 10 ? "0" : "") + n; }
  return d.getFullYear() + "-" + two(d.getMonth() + 1) + "-" + two(d.getDate()) + "T" + two(d.getHours()) + ":" + two(d.getMinutes());
}

// "2026-11-27T20:15" (the phone's clock) as an ISO date with the phone's offset.
function localIso(value) {
  var date = new Date(value);
  var offset = -date.getTimezoneOffset();
  var sign = offset >= 0 ? "+" : "-";
  function two(n) { return (n < 10 ? "0" : "") + n; }
  return value + ":00" + sign + two(Math.floor(Math.abs(offset) / 60)) + ":" + two(Math.abs(offset) % 60);
}
