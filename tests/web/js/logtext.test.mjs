// popreplay/web/static/logtext.js: where a pointer or a syntax error is in a log's text.
import assert from "node:assert/strict";
import { test } from "node:test";
import { inWords, jsonErrorRange, lineCol, locate, scan } from "../../../popreplay/web/static/logtext.js";

const TEXT = '{\n  "players": ["Alice", "Bruno"],\n  "rounds": [{"layout": [[1, 2]]}]\n}';

test("scan maps every pointer to its range in the text", () => {
  const map = scan(TEXT);
  const [start, end] = map["/players/1"];
  assert.equal(TEXT.slice(start, end), '"Bruno"');
  assert.equal(TEXT.slice(...map["/rounds/0/layout/0/1"]), "2");
  assert.deepEqual(map[""], [0, TEXT.length]);
});

test("locate falls back to the nearest part that exists", () => {
  assert.deepEqual(locate(TEXT, "/players/0").exact, true);
  const near = locate(TEXT, "/rounds/0/turns/3");
  assert.equal(near.exact, false);
  assert.equal(TEXT.slice(...near.range), '{"layout": [[1, 2]]}');
  assert.deepEqual(lineCol(TEXT, near.range[0]), { line: 3, column: 14 });
});

test("a syntax error's place counts columns in code points", () => {
  const text = '{"a": "é😀", x}';
  const place = jsonErrorRange(text, "Expecting property name enclosed in double quotes: line 1 column 13 (char 12) at line 1, column 13");
  assert.equal(place.line, 1);
  assert.equal(text.slice(...place.range), "x}");
  assert.equal(jsonErrorRange(text, "no place"), null);
});

test("a pointer in words: rounds and turns shared, the rest the game's", () => {
  const pop = (token, parent) => (parent === "layout" ? "row " + (Number(token) + 1) : null);
  assert.equal(inWords("/rounds/0/turns/3/plays/Alice/0"), "round 1 › turn 4 › plays › Alice › item 1");
  assert.equal(inWords("/rounds/0/layout/1", pop), "round 1 › layout › row 2");
  assert.equal(inWords(""), "the whole log");
});
