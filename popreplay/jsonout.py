"""JSON output that never fails: readable UTF-8, or ``\\u`` escapes when a string holds a lone
surrogate (JSON logs may contain ``"\\ud800"``; UTF-8 cannot carry it)."""

from __future__ import annotations

import json
from typing import Any

from flask.json.provider import DefaultJSONProvider


def dumps(value: Any, **kwargs: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, **kwargs)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(value, ensure_ascii=True, **kwargs)
    return text


def compact(value: Any) -> str:
    return dumps(value, separators=(",", ":"))


class SafeJSONProvider(DefaultJSONProvider):
    ensure_ascii = False
    sort_keys = False

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        text = super().dumps(obj, **kwargs)
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            kwargs["ensure_ascii"] = True
            return super().dumps(obj, **kwargs)
        return text
