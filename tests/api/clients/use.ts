// Type-checked by tests/api/test_generated_clients.py against the types openapi-typescript
// generates from the live document (./popreplay-api.d.ts): the shapes a TypeScript client uses.
import type { components, operations, paths } from "./popreplay-api";

type Schemas = components["schemas"];
type Page = paths["/api/v1/games"]["get"]["responses"][200]["content"]["application/json"];
type Stored = operations["storeGame"]["responses"][201]["content"]["application/json"];
type Upload = operations["storeGame"]["requestBody"]["content"]["application/json"];

export function slugs(page: Page): string[] {
  return page.items.map((game) => game.slug);
}

export function ownerToken(stored: Stored): string | undefined {
  return stored.owner_token;
}

// A slap log that ends on time (`time_up` is the constant true) with a claimed map of counts.
export const timed: Upload = {
  format: "popreplay/1", game: "slap", mode: "timed", players: ["Ana", "Bruno"],
  events: [{ flip: "Ana", card: "red-7" }, { time_up: true }],
  claimed: { cards: { Ana: 50, Bruno: null }, ended_by: "time" },
};

export const meta: Schemas["LogPop"]["meta"] = { title: "Friday", anything: [1, 2] };

export function tooMany(
  answer: operations["storeGame"]["responses"][429],
): string | undefined {
  return answer.headers["Retry-After"]?.toString();
}

export function winners(result: Schemas["Result"]): unknown {
  return result.outcome;
}
