"""A rule violation in a player's words, for pages: "Round 2, turn 3 — Bruno: Bruno does not hold
30: it is in the starting layout, row 1, queue A" — 1-based round and turn, the player by name,
and no JSON Pointer (the API keeps ``path``; pages show it only in a "details" toggle)."""

from __future__ import annotations

import re
from typing import Any, Mapping

from ..engine.where import where
from . import clean, render

_SEE = re.compile(r" \((?:see|voir) /[^()]*\)$")


def plain(params: Any) -> Any:
    """Message parameters without a pointer: a place given as ``{places} (see {path})`` becomes
    its ``places``."""
    if isinstance(params, Mapping):
        inner = params.get("params")
        if "id" in params and isinstance(inner, Mapping) and "path" in inner and "places" in inner:
            return plain(inner["places"])
        return {k: plain(v) for k, v in params.items()}
    if isinstance(params, list):
        return [plain(v) for v in params]
    return params


def error_words(error: Mapping[str, Any], log: Any, lang: str) -> dict[str, Any]:
    """``{"where", "text", "line"}``: where the error is (or ``None``), its message without a
    pointer, and the one line a page shows."""
    lang = clean(lang)
    key, params = error.get("message_id"), error.get("params")
    message = str(error.get("message") or "")
    text = render(key, plain(params), lang, message) if key else message
    text = _SEE.sub("", text)
    spot = where(error, log) if error.get("code") not in ("json", "schema") else None
    place = render(spot["id"], spot["params"], lang) if spot else None
    line = render("core.where.said", {"place": place, "message": text}, lang) if place else text
    return {"where": place, "text": text, "line": line}


def with_words(errors: Any, log: Any, lang: str) -> Any:
    """The error entries, each with its ``words`` (a list that is not one is given back as is)."""
    if not isinstance(errors, list):
        return errors
    return [{**e, "words": error_words(e, log, lang)} if isinstance(e, Mapping) else e
            for e in errors]
