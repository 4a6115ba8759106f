// popreplay/web/static/record-group.js: the member at each seat, where a table of a group is made.
import assert from "node:assert/strict";
import { test } from "node:test";
import { seatMembers, tableUrl } from "../../../popreplay/web/static/record-group.js";

test("each seat's member id, null for a guest's seat", () => {
  const inputs = [{ dataset: { member: "7" } }, { dataset: {} }, { dataset: { member: "12" } }];
  assert.deepEqual(seatMembers(inputs), [7, null, 12]);
});

test("a table of a group is made through the group's recorder, any other through the API", () => {
  assert.equal(tableUrl({ group: { slug: "les jeudis" } }), "/g/les%20jeudis/record/table");
  assert.equal(tableUrl({}), "/api/v1/tables");
});
