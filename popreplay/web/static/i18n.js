/*
 * The page's language for the page modules (docs/i18n.md): t(english, {name: value}),
 * nt(singular, plural, n, {…}), tn(english with "{a_link}", {a_link: node}) and `lang`.
 *
 * The messages are the server's /assets/i18n/<lang>.js?v=… (a module exporting {lang, messages}),
 * named by the page's <link rel="modulepreload" data-i18n>; without one (Node's tests), English.
 */

var link = typeof document !== "undefined" ? document.querySelector("link[data-i18n]") : null;
var data = link ? (await import(link.href)).default : { lang: "en", messages: {} };

export var lang = data.lang;

// French elision before a filled-in name: "de {player}" with Alice is "d'Alice", "que {x}" "qu'…"
var ELIDE = /^[aeiouyhàâäéèêëîïôöûüÿæœ]/i;
function elide(prep, value) {
  if (!prep || data.lang !== "fr" || !ELIDE.test(value)) return (prep || "") + value;
  return prep.slice(0, -2) + "’" + value;
}
function fill(text, params) {
  if (!params) return text;
  return text.replace(/(\b[Dd]e |\b[Qq]ue )?\{(\w+)\}/g, function (all, prep, name) {
    if (!Object.prototype.hasOwnProperty.call(params, name)) return all;
    return elide(prep, String(params[name]));
  });
}

// t(english, {name: value}): the text in the page's language, {name} filled in
export function t(text, params) {
  var found = data.messages[text];
  return fill(typeof found === "string" && found ? found : text, params);
}

// nt(singular, plural, n, {…}): the plural form for n ({n} is n unless given)
export function nt(one, many, n, params) {
  var p = { n: n };
  Object.keys(params || {}).forEach(function (k) { p[k] = params[k]; });
  var found = data.messages[one];
  var plural = data.lang === "fr" ? n > 1 : n !== 1;
  if (Array.isArray(found) && found[plural ? 1 : 0]) return fill(found[plural ? 1 : 0], p);
  return fill(plural ? many : one, p);
}

// tn(english with "{link}", {link: node}): the same, as a list of strings and nodes (for el())
export function tn(text, params) {
  var found = data.messages[text];
  var parts = (typeof found === "string" && found ? found : text).split(/(\{\w+\})/);
  var out = [];
  parts.forEach(function (part) {
    var m = /^\{(\w+)\}$/.exec(part);
    if (m && params && Object.prototype.hasOwnProperty.call(params, m[1])) {
      var v = params[m[1]];
      out.push(v !== null && typeof v === "object" ? v : String(v));
    } else if (part) out.push(part);
  });
  // elide "de " before a text value that starts with a vowel (as fill() does)
  for (var i = 1; i < out.length; i++) {
    if (typeof out[i] === "string" && typeof out[i - 1] === "string" && /(?:^|\s)(?:[Dd]e|[Qq]ue) $/.test(out[i - 1])
        && data.lang === "fr" && ELIDE.test(out[i]) && parts.indexOf(out[i]) < 0) {
      out[i - 1] = out[i - 1].slice(0, -2) + "’";
    }
  }
  return out;
}
