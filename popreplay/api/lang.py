"""The language of an API response: ``?lang=en|fr``, then ``Accept-Language``, else English.

Bodies that depend on it (results, replays, games) carry ``Vary: Accept-Language``; their entity
tags differ per language.
"""

from __future__ import annotations

from typing import Any, Callable

from flask import Response, request

from ..i18n import has_ids, localize, negotiate

__all__ = ["localize", "request_lang", "vary"]

LANG_DESCRIPTION = ("Language of `message`s and `note`s: `en` or `fr` (anything else is "
                    "English). Without it, `Accept-Language` decides; English by default.")


def request_lang() -> str:
    return negotiate(request.args.get("lang"), request.headers.get("Accept-Language"))


def vary(response: Response) -> Response:
    response.vary.add("Accept-Language")
    return response


def localized_result(result: dict[str, Any] | None, lang: str,
                     log: bytes | str | Callable[[], bytes | str] | None = None,
                     ) -> dict[str, Any] | None:
    """A stored result in ``lang``. A stored result keeps its message ids (``language_free``):
    it is rendered as it is, the engine never runs. Only a row stored before the ids were kept
    (``has_ids`` false, until ``popreplay revalidate`` runs) has its log checked again for them,
    when ``log`` is given and it has errors (or remarks, in French); one log, no steps."""
    if result is None:
        return None
    if has_ids(result) or log is None:
        return localize(result, lang)
    outcome = result.get("outcome")
    remarks = isinstance(outcome, dict) and bool(outcome.get("notes")) and lang != "en"
    if result.get("errors") or remarks:
        from ..checking import check_text
        from ..engine import ENGINE_VERSION

        if result.get("engine") == ENGINE_VERSION:
            fresh = check_text(log() if callable(log) else log)  # read only when needed
            if [e.get("code") for e in fresh["errors"]] == [e.get("code") for e in
                                                            result["errors"]]:
                again = {**result, "errors": fresh["errors"]}
                notes = fresh.get("outcome")
                if remarks and isinstance(notes, dict) and isinstance(outcome, dict) and \
                        notes.get("notes") == outcome.get("notes"):
                    again["outcome"] = {**outcome, "notes": notes["notes"]}
                return localize(again, lang)
    return localize(result, lang)
