/*
 * A panel's new draft as the tables API's `place` entries (pure, JSON only, no rule; tested with
 * `node --test`, tests/web/js/).
 */
import { escapeToken } from "./pointer.js";

export function clone(v) { return v === undefined ? undefined : JSON.parse(JSON.stringify(v)); }
function same(a, b) { return JSON.stringify(a) === JSON.stringify(b); }
function isObj(v) { return v !== null && typeof v === "object" && !Array.isArray(v); }

// What changed from `old` to `neu`, as the server's `place` entries (JSON only, no rule): a list
// one item longer is an append, one changed item or key is looked into, anything else is set.
// A key the new draft lacks is left as it is (a panel that entered one player's hand).
export function diff(old, neu, path, out) {
  if (same(old, neu)) return out;
  if (Array.isArray(old) && Array.isArray(neu) && path !== "") {
    if (neu.length === old.length + 1 && old.every(function (v, i) { return same(v, neu[i]); })) {
      out.push({ type: "place", at: path, how: "append", value: neu[neu.length - 1] });
      return out;
    }
    if (neu.length === old.length) {
      var changed = [];
      neu.forEach(function (v, i) { if (!same(v, old[i])) changed.push(i); });
      if (changed.length === 1) return diff(old[changed[0]], neu[changed[0]], path + "/" + changed[0], out);
    }
  } else if (isObj(old) && isObj(neu)) {
    Object.keys(neu).forEach(function (k) {
      if (old[k] === undefined) out.push({ type: "place", at: path + "/" + escapeToken(k), how: "set", value: neu[k] });
      else diff(old[k], neu[k], path + "/" + escapeToken(k), out);
    });
    return out;
  }
  out.push({ type: "place", at: path, how: "set", value: neu });
  return out;
}

// The deal is {player: cards}: a seat's first hand entered before any deal gives every other
// player as many unseen cards (null: the recorder's "rest unseen").
export function withDeal(entries, players) {
  return entries.map(function (e) {
    if (e.at !== "/deal" || e.how !== "set" || !isObj(e.value)) return e;
    var mine = Object.keys(e.value)[0];
    var size = mine ? (e.value[mine] || []).length : 0;
    var deal = {};
    players.forEach(function (n) { deal[n] = e.value[n] || new Array(size).fill(null); });
    return { type: "place", at: e.at, how: e.how, value: deal };
  });
}

export function dealt(log, me) { return ((log.deal || {})[me] || []).some(function (c) { return c !== null; }); }
