// popreplay/web/static/words.js: a replay's values in words (English: no page, no catalogue).
import assert from "node:assert/strict";
import { test } from "node:test";
import { claimLeaves, claimParts, claimWords, dropLead, kindWord, listWords, show, statusWord }
  from "../../../popreplay/web/static/words.js";

test("claimLeaves flattens maps key by key and rounds entry by entry", () => {
  const leaves = claimLeaves({ rounds: [{ scores: { Alice: 3 } }], totals: { "a/b": 4 }, winners: ["Alice"] }, "", [], false);
  assert.deepEqual(leaves, [["/rounds/0/scores/Alice", 3], ["/totals/a~1b", 4], ["/winners", ["Alice"]]]);
});

test("a claimed field in words: the round counted from 1, the player, the key", () => {
  const players = ["Alice", "Bruno"];
  assert.equal(claimWords(claimParts("/rounds/0/scores/Alice", players)), "Round 1, Alice");
  assert.equal(claimWords(claimParts("/totals/Bruno", players)), "Bruno, total");
  assert.equal(claimWords(claimParts("/layout_cards_left", players)), "Layout cards left");
  assert.equal(claimWords(claimParts("", players)), "The whole outcome");
  const parts = claimParts("/rounds/2/collected/Alice/1", players);
  assert.deepEqual([parts.round, parts.player, parts.key], [3, "Alice", "collected"]);
});

test("a step kind: the game's own word first, then the shared one, then the code", () => {
  assert.equal(kindWord("deal"), "deal");
  assert.equal(kindWord("explode", { explode: "BOOM" }), "BOOM");
  assert.equal(kindWord("unknown-kind", {}), "unknown-kind");
  assert.equal(statusWord("illegal"), "illegal");
  assert.equal(statusWord("odd"), "odd");
});

test("show, dropLead and listWords", () => {
  assert.equal(show(null), "—");
  assert.equal(show([1, 2]), "1, 2");
  assert.equal(show([]), "(none)");
  assert.equal(show({ a: 1 }), '{"a":1}');
  assert.equal(dropLead("Round 1: 5 starting cards", "Round 1"), "5 starting cards");
  assert.equal(dropLead("Round 1\u202f: cinq cartes", "Round 1"), "cinq cartes");
  assert.equal(dropLead("Round 12: x", "Round 1"), "Round 12: x");
  assert.deepEqual(listWords(["2", "4", "5"]), ["2", ", ", "4", " and ", "5"]);
});
