/*
 * A log's text and its places (pure: no DOM; tested with `node --test`, tests/web/js/): where a
 * JSON Pointer is in the text (line, column, range to select), a JSON syntax error's place, a
 * pointer in words.
 */
import { t } from "./i18n.js";
import { escapeToken, tokens } from "./pointer.js";

// Map every pointer of the document to its [start, end) in the text. Stops quietly at a syntax
// error (the map then covers what came before it).
export function scan(text) {
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

export function locate(text, pointer) {
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
export function codePoints(text) { return Array.from(text).length; }
export function lineCol(text, offset) {
  var before = text.slice(0, offset).split("\n");
  return { line: before.length, column: codePoints(before[before.length - 1]) + 1 };
}
export function offsetOfColumn(text, start, end, column) {
  var at = start;
  for (var n = 1; n < column && at < end; n++) at += text.codePointAt(at) > 0xffff ? 2 : 1;
  return Math.min(at, end);
}

// A JSON syntax error's place: the engine's message ends "at line L, column C" (1-based, as
// Python's json module counts): the range from there to the end of that line, to select.
export function jsonErrorRange(text, message) {
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

// A JSON Pointer in words ("round 1 › turn 4 › plays › Alice › card 1"), as the server's
// place_in_log says it: rounds and turns here, a game's own places by its renderer's
// `placeWord(token, parent, grandparent)` (null: no word of its own).
export function inWords(pointer, placeWord) {
  var parts = tokens(pointer);
  var words = [];
  parts.forEach(function (token, i) {
    var parent = i ? parts[i - 1] : null;
    var own = placeWord && /^\d+$/.test(token) ? placeWord(token, parent, i > 1 ? parts[i - 2] : null) : null;
    if (/^\d+$/.test(token) && (parent === "rounds" || parent === "turns")) words[words.length - 1] = parent === "rounds" ? t("round {n}", { n: Number(token) + 1 }) : t("turn {n}", { n: Number(token) + 1 });
    else if (own) words.push(own);
    else if (/^\d+$/.test(token)) words.push(t("item {n}", { n: Number(token) + 1 }));
    else words.push(token);
  });
  return words.length ? words.join(" › ") : t("the whole log");
}
