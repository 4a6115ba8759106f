// popreplay/web/static/record-lib.js: entries from an engine plan, offline offers, refusals.
import assert from "node:assert/strict";
import { test } from "node:test";
import { buildEntry, hasHands, narrowed, placeEntry, refusal } from "../../../popreplay/web/static/record-lib.js";

test("an entry from a plan and the cards tapped in slot order", () => {
  const plan = { at: "/rounds/0/turns", how: "append", base: { kept: {} },
    slots: [{ path: "/plays/Alice", count: 2 }, { path: "/chief", count: 1, one: true }] };
  const entry = buildEntry(plan, [3, 9, 41]);
  assert.deepEqual(entry, { kept: {}, plays: { Alice: [3, 9] }, chief: 41 });
  const log = placeEntry({ rounds: [{}] }, plan, entry);
  assert.deepEqual(log.rounds[0].turns, [entry]);
});

test("offline, an offer the entries since took leaves every list at `offer`", () => {
  const choices = { next: { play: { Alice: [1, 2, 3], Bruno: [2] } },
    spent: [{ offer: "/next/play/*", by: [{ at: "/plays/*" }] }] };
  const before = { plays: { Alice: [] } };
  const draft = { plays: { Alice: [2] } };
  const out = narrowed(choices, before, draft);
  assert.deepEqual(out.next.play, { Alice: [1, 3] });  // Bruno's offer, left with nothing, goes
  assert.deepEqual(choices.next.play.Bruno, [2]);  // the answer itself is untouched
});

test("the engine's choices decide a refusal, else the result", () => {
  assert.deepEqual(refusal({ choices: { error: { code: "x" } } }), { code: "x" });
  assert.equal(refusal({ choices: { next: {} }, result: { status: "illegal", errors: [{}] } }), null);
  assert.deepEqual(refusal({ result: { status: "invalid", errors: [{ code: "json" }] } }), { code: "json" });
  assert.equal(hasHands({ rounds: [{ hands: {} }] }), true);
  assert.equal(hasHands({ rounds: [] }), false);
});
