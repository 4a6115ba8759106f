// popreplay/web/static/pointer.js: JSON Pointer (RFC 6901), the pages' one copy.
import assert from "node:assert/strict";
import { test } from "node:test";
import { child, escapeToken, join, put, resolve, tokens } from "../../../popreplay/web/static/pointer.js";

test("tokens unescape ~1 then ~0, and the whole document has none", () => {
  assert.deepEqual(tokens(""), []);
  assert.deepEqual(tokens(null), []);
  assert.deepEqual(tokens("/rounds/0/a~1b/c~0d/~01"), ["rounds", "0", "a/b", "c~d", "~1"]);
  assert.deepEqual(tokens("/"), [""]);
});

test("escapeToken and join are tokens' inverse", () => {
  for (const parts of [["a/b", "c~d"], ["~1", "x"], ["", "0"]]) {
    assert.deepEqual(tokens(join(parts)), parts);
  }
  assert.equal(escapeToken("~/"), "~0~1");
});

test("resolve finds values, falsy ones too, and says when nothing is there", () => {
  const doc = { rounds: [{ turns: [] , chief: null }], zero: 0, "a/b": false };
  assert.deepEqual(resolve(doc, "/rounds/0/chief"), { found: true, value: null });
  assert.deepEqual(resolve(doc, "/zero"), { found: true, value: 0 });
  assert.deepEqual(resolve(doc, "/a~1b"), { found: true, value: false });
  assert.deepEqual(resolve(doc, ""), { found: true, value: doc });
  assert.deepEqual(resolve(doc, "/rounds/1"), { found: false });
  assert.deepEqual(resolve(doc, "/zero/x"), { found: false });
});

test("put makes the lists and objects on its way", () => {
  const doc = put({}, "/deal/Alice/0", 7);
  assert.deepEqual(doc, { deal: { Alice: [7] } });
  put(doc, "/deal/Alice/1", 8);
  assert.deepEqual(doc.deal.Alice, [7, 8]);
  assert.equal(child([4, 5], "1"), 5);
});
