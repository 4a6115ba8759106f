"""The pages' translations beyond the templates: the JavaScript's dictionary and the helpers
the templates use for dates. The templates themselves go through Flask-Babel (``_()``,
``{% trans %}``); the page JavaScript calls ``t("English text", {name: value})`` and
``nt("singular", "plural", n, {…})`` and ``tn("text with {a_link}", {a_link: node})``, extracted by pybabel with those keywords (babel.cfg,
scripts/i18n) into the same catalogue, and served per language as ``/assets/i18n/<lang>.js``
(an ES module of data, imported by ``static/i18n.js``).
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po

from .lang import LANGS, TRANSLATIONS



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
            assert isinstance(message.string, (tuple, list))  # a plural's forms
            out[message.id[0]] = list(message.string)
        elif message.string:
            out[message.id] = message.string
    return out


@lru_cache(maxsize=None)
def js_bundle(lang: str) -> tuple[str, str]:
    """(the module, its version): the dictionary as an ES module, ``export default {lang,
    messages}``; the runtime (``t``, ``nt``, ``tn``) is ``static/i18n.js``, which imports it."""
    lang = lang if lang in LANGS else "en"
    data = json.dumps({"lang": lang, "messages": js_messages(lang)}, ensure_ascii=False,
                      sort_keys=True)
    data = data.replace("<", "\\u003c")
    script = "export default " + data + ";\n"
    return script, hashlib.sha256(script.encode()).hexdigest()[:12]
