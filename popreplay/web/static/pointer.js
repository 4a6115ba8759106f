/*
 * JSON Pointer (RFC 6901), the pages' one copy: a log's places, the claims' fields, the engine's
 * offers. Pure: no DOM (tested with `node --test`, tests/web/js/).
 */

// "/rounds/0/a~1b" -> ["rounds", "0", "a/b"]; "" (the whole document) -> []
export function tokens(pointer) {
  if (!pointer) return [];
  return pointer.split("/").slice(1).map(function (t) { return t.replace(/~1/g, "/").replace(/~0/g, "~"); });
}

export function escapeToken(token) { return String(token).replace(/~/g, "~0").replace(/\//g, "~1"); }

export function join(parts) { return parts.map(function (p) { return "/" + escapeToken(p); }).join(""); }

export function child(node, token) { return Array.isArray(node) ? node[Number(token)] : node[token]; }

// {found, value}: what `pointer` names in `doc`
export function resolve(doc, pointer) {
  var ts = tokens(pointer);
  var node = doc;
  for (var i = 0; i < ts.length; i++) {
    if (node === null || typeof node !== "object" || !(ts[i] in node)) return { found: false };
    node = node[ts[i]];
  }
  return { found: true, value: node };
}

// Put `value` at `pointer` inside `doc`, making the objects and lists on the way (a list when the
// next token is a number).
export function put(doc, pointer, value) {
  var ts = tokens(pointer);
  var node = doc;
  for (var i = 0; i < ts.length - 1; i++) {
    var next = child(node, ts[i]);
    if (next === undefined || next === null) {
      next = /^\d+$/.test(ts[i + 1]) ? [] : {};
      if (Array.isArray(node)) node[Number(ts[i])] = next; else node[ts[i]] = next;
    }
    node = next;
  }
  var last = ts[ts.length - 1];
  if (Array.isArray(node)) node[Number(last)] = value; else node[last] = value;
  return doc;
}
