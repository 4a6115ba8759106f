"""The API's engine work within its budget (popreplay/budget.py): how long a request waits."""

from __future__ import annotations

import hashlib
from typing import Any, Callable, Hashable

from flask import current_app

from .. import budget
from ..checking import check_json, check_text
from ..engine import ENGINE_VERSION
from ..i18n import localize
from ..i18n.words import with_words
from ..logformat import ShapeError, parse_json
from ..logformat.types import Result
from ..jsonout import compact


def work_wait() -> float | None:
    """The budget of a request's engine work: ``POPREPLAY_REPLAY_WAIT`` seconds (None: no limit,
    computed in the request)."""
    return current_app.config["REPLAY_WAIT"]


def within_budget(key: Hashable | None, function: Callable[..., Any], *args: Any) -> Any:
    """:func:`budget.run` with this request's budget."""
    return budget.run(key, function, *args, wait=work_wait())


def engine_check(data: Any) -> Result:
    """A parsed log's result (an upload, a draft stored or replaced), beside the request."""
    return within_budget(None, check_json, data)


def text_check(raw: bytes, with_steps: bool, lang: str) -> bytes:
    """A log's result from its bytes in ``lang``, encoded (``POST /validate``), beside the
    request, kept for the same bytes."""
    key = ("validate", hashlib.sha256(raw).hexdigest(), with_steps, lang, ENGINE_VERSION)
    return within_budget(key, _checked_text, raw, with_steps, lang)


def _checked_text(raw: bytes, with_steps: bool, lang: str) -> bytes:
    result = localize(check_text(raw, with_steps=with_steps), lang)
    if result["errors"]:  # each in words for pages (the home page's check): 1-based, by name
        result["errors"] = with_words(result["errors"], _parsed(raw), lang)
    return compact(result).encode("utf-8")


def _parsed(raw: bytes) -> Any:
    """The log the errors are about, to name its rounds and players (None: not a log)."""
    try:
        return parse_json(raw)
    except ShapeError:
        return None
