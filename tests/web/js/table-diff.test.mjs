// popreplay/web/static/table-diff.js: a panel's new draft as the tables API's `place` entries.
import assert from "node:assert/strict";
import { test } from "node:test";
import { dealt, diff, withDeal } from "../../../popreplay/web/static/table-diff.js";

test("a list one longer is an append; one changed item is looked into", () => {
  const old = { events: [{ a: 1 }], deal: { Alice: [1, 2] } };
  assert.deepEqual(diff(old, { events: [{ a: 1 }, { b: 2 }], deal: { Alice: [1, 2] } }, "", []),
    [{ type: "place", at: "/events", how: "append", value: { b: 2 } }]);
  assert.deepEqual(diff(old, { events: [{ a: 3 }], deal: { Alice: [1, 2] } }, "", []),
    [{ type: "place", at: "/events/0/a", how: "set", value: 3 }]);
});

test("a new key is set, a key the new draft lacks is left, anything else is set whole", () => {
  assert.deepEqual(diff({ x: 1 }, { "a/b": [1] }, "", []),
    [{ type: "place", at: "/a~1b", how: "set", value: [1] }]);
  assert.deepEqual(diff({ l: [1, 2] }, { l: [3] }, "", []), [{ type: "place", at: "/l", how: "set", value: [3] }]);
  assert.deepEqual(diff({ a: 1 }, { a: 1 }, "", []), []);
});

test("a seat's first hand gives every other player as many unseen cards", () => {
  const entries = withDeal([{ type: "place", at: "/deal", how: "set", value: { Bruno: [4, 5] } }], ["Alice", "Bruno"]);
  assert.deepEqual(entries[0].value, { Alice: [null, null], Bruno: [4, 5] });
  assert.equal(dealt({ deal: { Alice: [null, 3] } }, "Alice"), true);
  assert.equal(dealt({ deal: { Alice: [null] } }, "Alice"), false);
});
