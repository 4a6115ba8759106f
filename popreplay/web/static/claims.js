/*
 * The recorder's end screen: the score sheet's fields, built from what the engine declares can be
 * claimed for the draft's game and mode (Game.claimable, page data `claims[mode]`: each field with
 * its label and choices in the reader's language, from the catalogue). No rule here: the engine
 * compares the claims (docs/recorder.md, "The end").
 */
import { el } from "./dom.js";
import { t } from "./i18n.js";

// The end screen's fields: what the engine declares can be claimed for this mode (page data
// `claims`, each field with its label and its choices in words), for the keys the result has.
// Returns a function that reads the form into a `claimed` object.
export function claimForm(form, fields, outcome, players) {
  var readers = [];
  var rounds = null;  // the per-round inputs, for a total row that follows them
  var sheet = null;   // the table of per-player numbers (one row per field)
  function number(attrs) {
    return el("input", Object.assign({ type: "number", inputmode: "numeric", step: "1" }, attrs));
  }
  fields.forEach(function (f) {
    if (!(f.key in outcome)) return;
    if (f.kind === "rounds") {
      var count = (outcome.rounds || []).length;
      if (!count) return;
      var table = el("table", { class: "rp-sheet" });
      var head = el("tr", null, el("th", { scope: "col", text: "" }));
      players.forEach(function (name) { head.appendChild(el("th", { scope: "col", text: name })); });
      table.appendChild(el("thead", null, head));
      var body = el("tbody");
      rounds = { field: f.field, inputs: [], body: body, table: table };
      for (var r = 0; r < count; r++) {
        var row = el("tr", null, el("th", { scope: "row", text: t("Round {n}", { n: r + 1 }) }));
        players.forEach(function (name) {
          var input = number({ dataset: { claim: f.key, round: String(r), player: name },
            "aria-label": t("Round {n}, {player}", { n: r + 1, player: name }) });
          rounds.inputs.push(input);
          row.appendChild(el("td", null, input));
        });
        body.appendChild(row);
      }
      table.appendChild(body);
      form.appendChild(el("fieldset", { class: "rp-claims" }, el("legend", { text: f.label }), table));
      readers.push(function (claimed) {
        var list = [];
        rounds.inputs.forEach(function (input) {
          var i = Number(input.dataset.round);
          while (list.length <= i) list.push({});
          if (input.value === "") return;
          list[i][f.field] = list[i][f.field] || {};
          list[i][f.field][input.dataset.player] = Number(input.value);
        });
        var last = list.length;
        while (last > 0 && !Object.keys(list[last - 1]).length) last -= 1;
        if (last) claimed[f.key] = list.slice(0, last);
      });
    } else if (f.kind === "per-player") {
      var inputs = [];
      if (f.sum_of && rounds) {  // the score sheet's total row, filled as the rounds are
        var row = el("tr", { class: "rp-sheet-total" }, el("th", { scope: "row", text: f.label }));
        players.forEach(function (name) {
          var input = number({ dataset: { claim: f.key, player: name }, "aria-label": f.label + ", " + name });
          inputs.push(input);
          row.appendChild(el("td", null, input));
        });
        rounds.body.appendChild(row);
        var follow = function () {
          inputs.forEach(function (total) {
            if (total.dataset.typed === "1") return;
            var mine = rounds.inputs.filter(function (i) { return i.dataset.player === total.dataset.player; });
            var all = mine.every(function (i) { return i.value !== ""; });
            total.value = all ? String(mine.reduce(function (sum, i) { return sum + Number(i.value); }, 0)) : "";
          });
        };
        rounds.inputs.forEach(function (i) { i.addEventListener("input", follow); });
        inputs.forEach(function (i) { i.addEventListener("input", function () { i.dataset.typed = i.value === "" ? "" : "1"; }); });
      } else {  // a row of the sheet: the field, then one box per player (players in columns)
        if (!sheet) {
          sheet = el("tbody");
          var top = el("tr", null, el("th", { scope: "col", text: "" }));
          players.forEach(function (name) { top.appendChild(el("th", { scope: "col", text: name })); });
          form.appendChild(el("div", { class: "rp-claims rp-claim-sheet" },
            el("table", { class: "rp-sheet" }, el("thead", null, top), sheet)));
        }
        var line = el("tr", null, el("th", { scope: "row", text: f.label }));
        players.forEach(function (name, i) {
          var input = number({ id: "claim-" + f.key + "-" + i, dataset: { claim: f.key, player: name },
            "aria-label": f.label + ", " + name });
          inputs.push(input);
          line.appendChild(el("td", null, input));
        });
        sheet.appendChild(line);
      }
      readers.push(function (claimed) {
        inputs.forEach(function (input) {
          if (input.value === "") return;
          (claimed[f.key] = claimed[f.key] || {})[input.dataset.player] = Number(input.value);
        });
      });
    } else if (f.kind === "players") {
      var boxes = [];
      var group = el("fieldset", { class: "rp-claims" }, el("legend", { text: f.label }));
      players.forEach(function (name, i) {
        var id = "claim-" + f.key + "-" + i;
        var box = el("input", { id: id, type: "checkbox", dataset: { claim: f.key, player: name } });
        boxes.push(box);
        group.appendChild(el("div", { class: "rp-check" }, box, el("label", { for: id, text: name })));
      });
      form.appendChild(group);
      readers.push(function (claimed) {
        var names = boxes.filter(function (b) { return b.checked; }).map(function (b) { return b.dataset.player; });
        if (names.length) claimed[f.key] = names;
      });
    } else {  // one player, one of a list, yes or no: a choice in words
      var options = f.kind === "player" ? players.map(function (name) { return { value: name, label: name }; }) : (f.choices || []);
      var id = "claim-" + f.key;
      var select = el("select", { id: id, dataset: { claim: f.key } }, el("option", { value: "", text: "—" }));
      options.forEach(function (c) { select.appendChild(el("option", { value: JSON.stringify(c.value), text: c.label })); });
      form.appendChild(el("div", { class: "rp-claims rp-claim-value" },
        el("div", { class: "rp-field" }, el("label", { for: id, text: f.label }), select)));
      readers.push(function (claimed) { if (select.value !== "") claimed[f.key] = JSON.parse(select.value); });
    }
  });
  return function () {
    var claimed = {};
    readers.forEach(function (r) { r(claimed); });
    return claimed;
  };
}
