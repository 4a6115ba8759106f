/*
 * The pages' words for a replay's values (pure: no DOM; tested with `node --test`, tests/web/js/):
 * a status, a step kind, a value, a claimed field ("/rounds/0/scores/Alice" -> "Round 1, Alice").
 * A game's own step kinds are its renderer's `kindWords` (docs/viewer.md).
 */
import { t } from "./i18n.js";
import { escapeToken, tokens as pointerTokens } from "./pointer.js";

export function statusWord(status) {
  return { complete: t("complete"), incomplete: t("incomplete"), illegal: t("illegal"),
    invalid: t("invalid") }[status] || status;
}

// the step kinds every game may have (the note's label; data-kind keeps the code); a game's own
// kinds come from its renderer (`kindWords`)
var KIND_WORDS = { deal: t("deal"), draw: t("draw"), "game-end": t("game-end"), place: t("place"),
  reveal: t("reveal"), "round-end": t("round-end"), violation: t("violation"), play: t("play"),
  discard: t("discard") };

export function kindWord(kind, gameWords) {
  if (gameWords && Object.prototype.hasOwnProperty.call(gameWords, kind)) return gameWords[kind];
  return Object.prototype.hasOwnProperty.call(KIND_WORDS, kind) ? KIND_WORDS[kind] : kind;
}

export function show(value) {
  if (value === null || value === undefined) return "—";
  if (typeof value === "string") return value;
  if (Array.isArray(value) && value.every(function (v) { return typeof v !== "object" || v === null; })) {
    return value.length ? value.join(", ") : t("(none)");
  }
  return JSON.stringify(value);
}

// Flatten a (partial) claimed object into [pointer, value] leaves, the way claims are compared:
// maps key by key, the `rounds` list entry by entry, any other list as a whole.
export function claimLeaves(claimed, prefix, out, inRounds) {
  if (claimed !== null && typeof claimed === "object" && !Array.isArray(claimed)) {
    Object.keys(claimed).forEach(function (k) {
      claimLeaves(claimed[k], prefix + "/" + escapeToken(k), out, k === "rounds");
    });
  } else if (Array.isArray(claimed) && inRounds) {
    claimed.forEach(function (entry, i) { claimLeaves(entry, prefix + "/" + i, out, false); });
  } else {
    out.push([prefix, claimed]);
  }
  return out;
}

// A claimed field in words: "/rounds/0/scores/Alice" -> "Round 1, Alice" (rounds counted from 1
// as the tables show them; a round's score needs no word), "/totals/Alice" -> "Alice, total".
var CLAIM_WORDS = {
  scores: "", totals: t("total"), winners: t("winners"), winner: t("winner"), collected: t("cards collected"),
  kept: t("kept card"), chief_pending: t("left with the Chief"), tie_break: t("tie-break"),
  cards_left: t("cards left"), failed_turn: t("failed turn"), cards_left_in_play: t("cards left in play"),
  turns_played: t("turns played"), layout_cards_left: t("layout cards left"), won_by: t("won by"),
  ended_by: t("ended by"), central_pile: t("central pile"), folies_pile: t("Folies pile"),
};

export function claimParts(field, players) {
  var tokens = pointerTokens(field);
  var parts = { round: null, player: null, key: null, words: [] };
  for (var i = 0; i < tokens.length; i++) {
    var token = tokens[i];
    if (token === "rounds" && /^\d+$/.test(tokens[i + 1] || "")) {
      parts.round = parseInt(tokens[i + 1], 10) + 1;
      i += 1;
    } else if (players.indexOf(token) >= 0) {
      parts.player = token;
    } else {
      if (parts.key === null) parts.key = token;
      var word = Object.prototype.hasOwnProperty.call(CLAIM_WORDS, token) ? CLAIM_WORDS[token]
        : /^\d+$/.test(token) ? "#" + (parseInt(token, 10) + 1) : token.replace(/_/g, " ");
      if (word) parts.words.push(word);
    }
  }
  return parts;
}

export function claimWords(parts) {
  var head = [];
  if (parts.round !== null) head.push(t("Round {n}", { n: parts.round }));
  if (parts.player !== null) head.push(parts.player);
  if (parts.words.length) head.push(parts.words.join(" "));
  var text = head.join(", ") || t("the whole outcome");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// "Round 1: 5 starting cards" -> "5 starting cards" when "Round 1" is already said ("Round 1 :"
// in French: any spaces before the colon)
export function dropLead(text, lead) {
  if (typeof text !== "string" || text.indexOf(lead) !== 0) return text;
  var rest = text.slice(lead.length).replace(/^[\s\u00a0\u202f]*:[\s\u00a0\u202f]*/, "");
  return rest.length < text.length - lead.length ? rest : text;
}

// "2, 4 and 5"
export function listWords(items) {
  if (items.length <= 1) return items.slice();
  var out = [];
  items.forEach(function (item, i) {
    if (i > 0) out.push(i === items.length - 1 ? t(" and ") : ", ");
    out.push(item);
  });
  return out;
}
