"""The pages' translations beyond the templates: the JavaScript's dictionary and the helpers
the templates use for dates. The templates themselves go through Flask-Babel (``_()``,
``{% trans %}``); the page JavaScript calls ``t("English text", {name: value})`` and
``nt("singular", "plural", n, {…})`` and ``tn("text with {a_link}", {a_link: node})``, extracted by pybabel with those keywords (babel.cfg,
scripts/i18n) into the same catalogue, and served per language as ``/i18n/<lang>.js``.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po

from .lang import LANGS, TRANSLATIONS

RUNTIME_JS = r"""
(function () {
  "use strict";
  var data = window.PopReplayI18n || { lang: "en", messages: {} };
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
  // t("English text", {name: value}): the text in the page's language, {name} filled in
  window.t = function (text, params) {
    var found = data.messages[text];
    return fill(typeof found === "string" && found ? found : text, params);
  };
  // nt("1 card", "{n} cards", n, {…}): the plural form for n ({n} is n unless given)
  window.nt = function (one, many, n, params) {
    var p = {}; var k;
    p.n = n;
    for (k in (params || {})) if (Object.prototype.hasOwnProperty.call(params, k)) p[k] = params[k];
    var found = data.messages[one];
    var plural = data.lang === "fr" ? n > 1 : n !== 1;
    if (Array.isArray(found) && found[plural ? 1 : 0]) return fill(found[plural ? 1 : 0], p);
    return fill(plural ? many : one, p);
  };
  // tn("Saved as {link}.", {link: node}): the same, as a list of strings and nodes (for el())
  window.tn = function (text, params) {
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
  };
  window.PopReplayLang = data.lang;
})();
"""


def po_path(lang: str) -> Path:
    return TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po"


@lru_cache(maxsize=None)
def js_messages(lang: str) -> dict[str, Any]:
    """The catalogue's messages found in the page JavaScript: msgid -> translation (a plural
    entry: [singular, plural]). English needs none: ``t()`` falls back to the msgid."""
    path = po_path(lang)
    if lang == "en" or not path.is_file():
        return {}
    with path.open("rb") as handle:
        catalog = read_po(handle, locale=lang)
    out: dict[str, Any] = {}
    for message in catalog:
        if not message.id or message.fuzzy:
            continue
        if not any(filename.endswith(".js") for filename, _ in message.locations):
            continue
        if isinstance(message.id, (tuple, list)):
            out[message.id[0]] = list(message.string)
        elif message.string:
            out[message.id] = message.string
    return out


@lru_cache(maxsize=None)
def js_bundle(lang: str) -> tuple[str, str]:
    """(the script, its version): the dictionary and the tiny ``t``/``nt`` runtime."""
    lang = lang if lang in LANGS else "en"
    data = json.dumps({"lang": lang, "messages": js_messages(lang)}, ensure_ascii=False,
                      sort_keys=True)
    data = data.replace("<", "\\u003c")
    script = "window.PopReplayI18n = " + data + ";\n" + RUNTIME_JS
    return script, hashlib.sha256(script.encode()).hexdigest()[:12]
