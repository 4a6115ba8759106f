/*
 * The recorder's helpers (no rule here: only JSON, pointers and the API; pure but for post(),
 * tested with `node --test`, tests/web/js/): building an entry from an engine plan, narrowing the
 * engine's offers offline, what refuses a draft.
 */
import { lang } from "./i18n.js";
import { child, put, tokens } from "./pointer.js";

export var API = "/api/v1/record";

export function clone(value) { return value === undefined ? undefined : JSON.parse(JSON.stringify(value)); }
// An entry built from an engine plan ({at, how, base, slots}) and the cards tapped in slot order
// (docs/recorder.md): the generic half of every card-tapping panel.
export function buildEntry(plan, cards) {
  var entry = clone(plan.base || {});
  var k = 0;
  plan.slots.forEach(function (slot) {
    var taken = cards.slice(k, k + slot.count);
    k += slot.count;
    if (taken.length) put(entry, slot.path, slot.one ? taken[0] : taken);
  });
  return entry;
}

export function placeEntry(log, plan, entry) {
  var ts = tokens(plan.at);
  var node = log;
  for (var i = 0; i < ts.length - 1; i++) node = child(node, ts[i]);
  var last = ts[ts.length - 1];
  if (plan.how === "append") {
    var list = child(node, last);
    if (!list) { list = []; if (Array.isArray(node)) node[Number(last)] = list; else node[last] = list; }
    list.push(entry);
  } else if (Array.isArray(node)) node[Number(last)] = entry;
  else node[last] = entry;
  return log;
}

// Offline: the engine's answer names the offers that the entries made since take out
// (`spent`: [{offer, by: [{at, key?, where?}], left?}], docs/recorder.md "How drafts are kept"):
// a value found `left` times (default once) more in the draft than in the checked draft at a
// `by` place leaves every list at `offer`. No rule here: the engine's lists and places only.
function visit(node, ts, fn, parent, key, wild) {
  if (node === undefined || node === null) return;
  if (!ts.length) { fn(node, parent, key, wild); return; }
  var head = ts[0], rest = ts.slice(1);
  if (head !== "*") { visit(child(node, head), rest, fn, node, head, wild); return; }
  Object.keys(node).forEach(function (k) {
    visit(child(node, k), rest, fn, node, k, { parent: node, key: k });
  });
}
function counted(log, by) {
  var n = {};
  by.forEach(function (place) {
    visit(log, tokens(place.at), function (item) {
      var where = place.where || {};
      if (Object.keys(where).some(function (k) { return where[k].indexOf(item[k]) < 0; })) return;
      var value = place.key ? item[place.key] : item;
      [].concat(value === undefined ? [] : value).forEach(function (v) {
        if (v !== null && typeof v !== "object") n[String(v)] = (n[String(v)] || 0) + 1;
      });
    });
  });
  return n;
}
export function narrowed(choices, before, draft) {
  var out = clone(choices);
  (choices.spent || []).forEach(function (rule) {
    var was = counted(before, rule.by), now = counted(draft, rule.by), gone = {};
    Object.keys(now).forEach(function (v) {
      var left = rule.left && rule.left[v] !== undefined ? rule.left[v] : 1;
      if (now[v] - (was[v] || 0) >= left) gone[v] = true;
    });
    visit(out, tokens(rule.offer), function (list, parent, key, wild) {
      if (!Array.isArray(list)) return;
      var kept = list.filter(function (v) { return !gone[String(v)]; });
      if (!kept.length && wild) delete wild.parent[wild.key];  // an offer left with nothing goes
      else parent[key] = kept;
    });
  });
  return out;
}

export function post(url, body, method, token) {
  // the API answers in the page's language (its messages; the codes never change)
  var headers = { "Content-Type": "application/json", Accept: "application/json", "Accept-Language": lang };
  if (token) headers.Authorization = "Bearer " + token;
  return fetch(url, { method: method || "POST", headers: headers,
    body: body === undefined ? undefined : JSON.stringify(body) }).then(function (response) {
    return response.json().then(function (data) {
      if (!response.ok) { var e = new Error(data.message || response.statusText); e.body = data; e.status = response.status; throw e; }
      return data;
    });
  });
}
export function isNetwork(error) { return !error.status; }

export function hasHands(log) {
  var first = (log.rounds || [])[0];
  return Boolean(log.deal || (first && first.hands));
}

// The engine's choices know that the last turn of a draft is still open (a cube hand over the
// limit may still discard its surplus): when they are given, they decide; else the result does.
export function refusal(answer) {
  if (answer.choices) return answer.choices.error || null;
  var result = answer.result;
  if (result && (result.status === "illegal" || result.status === "invalid")) return result.errors[0];
  return null;
}
