/*
 * popreplay home page: paste or drop a log, check it (POST /api/v1/validate, stores nothing),
 * store it (POST /api/v1/games) and open its replay. Every error is shown with its place in the
 * log: the JSON Pointer, in words, and the line and column in the text (click to select it).
 */

import { el, whenReady } from "./dom.js";
import { loadGames } from "./games.js";
import { lang, t, tn } from "./i18n.js";
import { jsonErrorRange, inWords, lineCol, locate } from "./logtext.js";
import { claimParts, claimWords, show, statusWord } from "./words.js";

var STATUS_TEXT = {
  complete: t("Legal and complete: every move follows the rules."),
  incomplete: t("Legal so far: the log stops before the end of the game."),
  illegal: t("Illegal: the replay stops at the first rule violation."),
  invalid: t("Not a readable log: nothing can be replayed."),
};

// the games' renderers: each says its own places in a log (`placeWord`)
var renderers = {};
function placeWord(text) {
  var game = null;
  try { game = JSON.parse(text).game; } catch (e) { game = null; }
  return (renderers[game] || {}).placeWord || null;
}

function boot() {
  var form = document.getElementById("upload-form");
  if (!form) return;
  var textarea = document.getElementById("log-text");
  var out = document.getElementById("upload-result");
  var fileInput = document.getElementById("log-file");
  var zone = document.getElementById("dropzone");
  var visibility = document.getElementById("visibility");
  var checkButton = document.getElementById("validate-button");
  var storeButton = document.getElementById("store-button");

  function say(nodes) {
    while (out.firstChild) out.removeChild(out.firstChild);
    (Array.isArray(nodes) ? nodes : [nodes]).forEach(function (n) { if (n) out.appendChild(n); });
  }

  function readFile(file) {
    if (!file) return;
    var reader = new FileReader();
    reader.onload = function () {
      textarea.value = String(reader.result);
      say(el("p", { text: t("Read {name} ({size} bytes). Check it or store it.", { name: file.name, size: file.size.toLocaleString(lang === "fr" ? "fr-FR" : "en-GB") }) }));
    };
    reader.onerror = function () { say(el("p", { class: "violation", text: t("Could not read {name}.", { name: file.name }) })); };
    reader.readAsText(file);
  }

  fileInput.addEventListener("change", function () { readFile(fileInput.files[0]); });
  ["dragenter", "dragover"].forEach(function (type) {
    zone.addEventListener(type, function (e) { e.preventDefault(); zone.classList.add("dragover"); });
  });
  ["dragleave", "drop"].forEach(function (type) {
    zone.addEventListener(type, function () { zone.classList.remove("dragover"); });
  });
  zone.addEventListener("drop", function (e) {
    e.preventDefault();
    if (e.dataTransfer && e.dataTransfer.files.length) readFile(e.dataTransfer.files[0]);
  });

  document.querySelectorAll("[data-load-example]").forEach(function (button) {
    button.addEventListener("click", function () {
      fetch(button.getAttribute("data-load-example"), { headers: { Accept: "application/json" } })
        .then(function (r) { return r.text(); })
        .then(function (text) {
          textarea.value = text;
          textarea.focus();
          say(el("p", { text: t("Example loaded into the form. Check it or store it.") }));
        });
    });
  });

  function selectInLog(range) {
    textarea.focus();
    textarea.setSelectionRange(range[0], range[1]);
    var line = lineCol(textarea.value, range[0]).line;
    var lineHeight = parseFloat(window.getComputedStyle(textarea).lineHeight) || 16;
    textarea.scrollTop = Math.max(0, (line - 3) * lineHeight);
  }

  function errorItem(error, text) {
    var syntax = error.code === "json" ? jsonErrorRange(text, error.message) : null;
    var where = syntax
      ? el("div", { class: "place" }, t("at line {line}, column {column}", { line: syntax.line, column: syntax.column }) + " ")
      : el("div", { class: "place" }, t("at {place}", { place: inWords(error.path || "", placeWord(text)) }));
    if (syntax) {
      where.appendChild(el("button", { type: "button", class: "link", text: t("show in the log"), on: { click: function () { selectInLog(syntax.range); } } }));
    }
    var found = error.path ? locate(text, error.path) : null;
    if (found) {
      var lc = lineCol(text, found.range[0]);
      where.appendChild(document.createTextNode(" — " + (found.exact ? t("line {line}, column {column}", lc) : t("in the part starting at line {line}, column {column}", lc)) + " "));
      where.appendChild(el("button", { type: "button", class: "link", text: t("show in the log"), on: { click: function () { selectInLog(found.range); } } }));
    }
    // one line in words (the server's: 1-based round and turn, the player by name); the code
    // and the JSON Pointer only in the details
    var line = error.words ? error.words.line : error.message;
    var li = el("li", { "data-code": error.code, "data-path": error.path || "" }, el("strong", { class: "error-line", text: line }));
    li.appendChild(where);
    li.appendChild(el("details", { class: "error-details" }, el("summary", { text: t("Details") }),
      el("code", { text: error.code }), " ", el("code", { text: error.path || "/" })));
    return li;
  }

  function showResult(result, text, heading) {
    var nodes = [];
    if (heading) nodes.push(heading);
    nodes.push(el("p", null, el("span", { class: "badge status-" + result.status, id: "check-status", text: statusWord(result.status) }), " " + (STATUS_TEXT[result.status] || "")));
    if (result.errors && result.errors.length) {
      var list = el("ol", { class: "errors", id: "check-errors" });
      result.errors.forEach(function (error) { list.appendChild(errorItem(error, text)); });
      nodes.push(list);
    }
    if (result.claims && !result.claims.match) {
      var diffs = el("ul", { class: "errors", id: "claim-differences" });
      // In words, as the replay page says them: "Alice, total: score sheet 40, replay 42".
      var players = [];
      try { players = JSON.parse(text).players || []; } catch (e) { /* words without names */ }
      result.claims.differences.forEach(function (d) {
        var li = el("li", { "data-field": d.field });
        tn("{what}: score sheet {claimed}, replay {computed}", {
          what: el("strong", { title: d.field, text: claimWords(claimParts(d.field, players)) }),
          claimed: show(d.claimed), computed: show(d.computed) }).forEach(function (part) {
          li.appendChild(typeof part === "string" ? document.createTextNode(part) : part);
        });
        diffs.appendChild(li);
      });
      nodes.push(el("p", { text: t("The score sheet (claimed) differs from the replay:") }), diffs);
    } else if (result.claims && result.claims.match) {
      nodes.push(el("p", { text: t("The claimed results match the replay.") }));
    }
    say(nodes);
  }

  function busy(on) { checkButton.disabled = storeButton.disabled = on; }

  function post(url, text) {
    // the API answers in the page's language (its messages; the codes never change)
    return fetch(url, { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json", "Accept-Language": lang }, body: text })
      .then(function (response) {
        return response.text().then(function (body) {
          var data = null;
          try { data = JSON.parse(body); } catch (e) { data = null; }
          return { status: response.status, data: data };
        });
      });
  }

  function failed(reason) {
    say(el("p", { class: "violation", text: t("The server could not be reached ({reason}). Try again.", { reason: reason }) }));
  }

  function empty() {
    if (textarea.value.trim()) return false;
    say(el("p", { text: t("The form is empty: paste a log, drop a file or load an example first.") }));
    textarea.focus();
    return true;
  }

  checkButton.addEventListener("click", function () {
    if (empty()) return;
    var text = textarea.value;
    busy(true);
    say(el("p", { text: t("Checking…") }));
    post("/api/v1/validate", text).then(function (r) {
      busy(false);
      if (r.status === 200 && r.data) showResult(r.data, text, null);
      else say(el("p", { class: "violation", text: (r.data && r.data.message) || t("The check failed (HTTP {status}).", { status: r.status }) }));
    }, function (e) { busy(false); failed(e.message); });
  });

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    if (empty()) return;
    var text = textarea.value;
    busy(true);
    say(el("p", { text: t("Storing…") }));
    post("/api/v1/games?visibility=" + encodeURIComponent(visibility.value) , text).then(function (r) {
      busy(false);
      if ((r.status === 201 || r.status === 200) && r.data && r.data.share_url) {
        // a share link made from a French page opens in French
        var path = new URL(r.data.share_url, window.location.href).pathname + (lang === "fr" ? "?lang=fr" : "");
        if (r.data.owner_token) {
          try { window.localStorage.setItem("popreplay-owner:" + r.data.slug, r.data.owner_token); } catch (e) { /* private mode */ }
        }
        say(el("p", null, (r.status === 201 ? t("Stored. Opening the replay…") : t("This log was already stored. Opening its replay…")) + " ",
          el("a", { href: path, text: path })));
        window.location.assign(path);
      } else if (r.data && r.data.errors && r.data.errors.length) {
        showResult({ status: "invalid", errors: r.data.errors, claims: null }, text,
          el("p", { text: r.data.message || t("The log is not valid: nothing was stored.") }));
      } else {
        say(el("p", { class: "violation", text: (r.data && r.data.message) || t("Storing failed (HTTP {status}).", { status: r.status }) }));
      }
    }, function (e) { busy(false); failed(e.message); });
  });
}

loadGames("renderer").then(function (games) { renderers = games; });
whenReady(boot);
