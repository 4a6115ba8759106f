/*
 * popreplay home page: paste or drop a log, check it (POST /api/v1/validate, stores nothing),
 * store it (POST /api/v1/games) and open its replay. Every error is shown with its place in the
 * log: the JSON Pointer, in words, and the line and column in the text (click to select it).
 */
(function () {
  "use strict";

  var t = window.t, tn = window.tn, lang = window.PopReplayLang || "en"; // the page's language (/assets/i18n/<lang>.js)

  function statusWord(status) {
    return { complete: t("complete"), incomplete: t("incomplete"), illegal: t("illegal"),
      invalid: t("invalid") }[status] || status;
  }

  var STATUS_TEXT = {
    complete: t("Legal and complete: every move follows the rules."),
    incomplete: t("Legal so far: the log stops before the end of the game."),
    illegal: t("Illegal: the replay stops at the first rule violation."),
    invalid: t("Not a readable log: nothing can be replayed."),
  };

  function el(tag, attrs) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) {
      var value = attrs[key];
      if (value === null || value === undefined) return;
      if (key === "text") node.textContent = value;
      else if (key === "class") node.className = value;
      else if (key === "onclick") node.addEventListener("click", value);
      else node.setAttribute(key, value);
    });
    for (var i = 2; i < arguments.length; i++) {
      var child = arguments[i];
      if (child === null || child === undefined) continue;
      node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    }
    return node;
  }

  // ---- where a JSON Pointer is in the text ----

  function tokens(pointer) {
    if (!pointer) return [];
    return pointer.split("/").slice(1).map(function (t) { return t.replace(/~1/g, "/").replace(/~0/g, "~"); });
  }

  function escapeToken(t) { return String(t).replace(/~/g, "~0").replace(/\//g, "~1"); }

  // Map every pointer of the document to its [start, end) in the text. Stops quietly at a syntax
  // error (the map then covers what came before it).
  function scan(text) {
    var i = 0;
    var map = {};
    function ws() { while (i < text.length && " \t\r\n".indexOf(text[i]) >= 0) i++; }
    function str() {
      var start = i;
      if (text[i] !== '"') throw new Error("string expected");
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
      i++;
      return JSON.parse(text.slice(start, i));
    }
    function value(path, depth) {
      if (depth > 200) throw new Error("too deep");
      ws();
      var start = i;
      var ch = text[i];
      if (ch === "{") {
        i++; ws();
        if (text[i] === "}") i++;
        else {
          for (;;) {
            ws();
            var key = str();
            ws();
            if (text[i] !== ":") throw new Error(": expected");
            i++;
            value(path + "/" + escapeToken(key), depth + 1);
            ws();
            if (text[i] === ",") { i++; continue; }
            if (text[i] === "}") { i++; break; }
            throw new Error(", or } expected");
          }
        }
      } else if (ch === "[") {
        i++; ws();
        if (text[i] === "]") i++;
        else {
          for (var n = 0; ; n++) {
            value(path + "/" + n, depth + 1);
            ws();
            if (text[i] === ",") { i++; continue; }
            if (text[i] === "]") { i++; break; }
            throw new Error(", or ] expected");
          }
        }
      } else if (ch === '"') {
        str();
      } else {
        while (i < text.length && ",]} \t\r\n".indexOf(text[i]) < 0) i++;
        if (i === start) throw new Error("value expected");
      }
      map[path] = [start, i];
    }
    try { value("", 0); } catch (e) { /* partial map */ }
    return map;
  }

  function locate(text, pointer) {
    var map = scan(text);
    var parts = tokens(pointer);
    while (parts.length >= 0) {
      var p = parts.map(escapeToken).map(function (t) { return "/" + t; }).join("");
      if (map[p]) return { range: map[p], exact: parts.length === tokens(pointer).length };
      if (!parts.length) break;
      parts.pop();
    }
    return null;
  }

  // Columns count code points, as the server's messages do (an emoji is one column, not two).
  function codePoints(text) { return Array.from(text).length; }
  function lineCol(text, offset) {
    var before = text.slice(0, offset).split("\n");
    return { line: before.length, column: codePoints(before[before.length - 1]) + 1 };
  }
  function offsetOfColumn(text, start, end, column) {
    var at = start;
    for (var n = 1; n < column && at < end; n++) at += text.codePointAt(at) > 0xffff ? 2 : 1;
    return Math.min(at, end);
  }

  // A JSON syntax error's place: the engine's message ends "at line L, column C" (1-based, as
  // Python's json module counts): the range from there to the end of that line, to select.
  function jsonErrorRange(text, message) {
    var match = /at line (\d+), column (\d+)/.exec(message || "");
    if (!match) return null;
    var line = Number(match[1]), column = Number(match[2]);
    var start = 0;
    for (var n = 1; n < line; n++) {
      var next = text.indexOf("\n", start);
      if (next < 0) return null;
      start = next + 1;
    }
    var end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    var at = offsetOfColumn(text, start, end, column);
    return { line: line, column: column, range: at < end ? [at, end] : [start, end] };
  }

  function inWords(pointer) {
    var parts = tokens(pointer);
    var words = [];
    parts.forEach(function (t, i) {
      var parent = i ? parts[i - 1] : null;
      if (/^\d+$/.test(t) && (parent === "rounds" || parent === "turns")) words[words.length - 1] = parent === "rounds" ? window.t("round {n}", { n: Number(t) + 1 }) : window.t("turn {n}", { n: Number(t) + 1 });
      else if (/^\d+$/.test(t) && parent === "layout") words.push(window.t("row {n}", { n: Number(t) + 1 }));
      else if (/^\d+$/.test(t) && i > 1 && parts[i - 2] === "layout" && Number(t) < 5) words.push(window.t("queue {letter}", { letter: "ABCDE"[Number(t)] }));
      else if (/^\d+$/.test(t) && (parent === "chief" || (i > 1 && ["plays", "hands", "draws"].indexOf(parts[i - 2]) >= 0))) words.push(window.t("card {n}", { n: Number(t) + 1 }));
      else if (/^\d+$/.test(t)) words.push(window.t("item {n}", { n: Number(t) + 1 }));
      else words.push(t);
    });
    return words.length ? words.join(" › ") : window.t("the whole log");
  }

  // ---- the page ----

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
        : el("div", { class: "place" }, t("at {place}", { place: inWords(error.path || "") }));
      if (syntax) {
        where.appendChild(el("button", { type: "button", class: "link", text: t("show in the log"), onclick: function () { selectInLog(syntax.range); } }));
      }
      var found = error.path ? locate(text, error.path) : null;
      if (found) {
        var lc = lineCol(text, found.range[0]);
        where.appendChild(document.createTextNode(" — " + (found.exact ? t("line {line}, column {column}", lc) : t("in the part starting at line {line}, column {column}", lc)) + " "));
        where.appendChild(el("button", { type: "button", class: "link", text: t("show in the log"), onclick: function () { selectInLog(found.range); } }));
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
        var words = window.PopReplayViewer;
        var players = [];
        try { players = JSON.parse(text).players || []; } catch (e) { /* words without names */ }
        result.claims.differences.forEach(function (d) {
          if (!words) {
            diffs.appendChild(el("li", null, el("code", { text: d.field }), ": " + t("claimed {claimed}, computed {computed}", { claimed: JSON.stringify(d.claimed), computed: JSON.stringify(d.computed) })));
            return;
          }
          var li = el("li", { "data-field": d.field });
          tn("{what}: score sheet {claimed}, replay {computed}", {
            what: el("strong", { title: d.field, text: words.claimWords(words.claimParts(d.field, players)) }),
            claimed: words.show(d.claimed), computed: words.show(d.computed) }).forEach(function (part) {
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

  window.PopReplayHome = { scan: scan, locate: locate, inWords: inWords };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
  else boot();
})();
