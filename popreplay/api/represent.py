"""Stored games as the API shows them."""

from __future__ import annotations

import json
from typing import Any, Mapping

from flask import current_app, request

from ..db.models import GameRecord
from ..jsonout import compact
from ..i18n import has_ids
from .lang import localize, localized_result, request_lang
from .work import within_budget


def base_url() -> str:
    """``POPREPLAY_PUBLIC_URL`` when set, else the URL this request came to."""
    return current_app.config.get("PUBLIC_BASE_URL") or request.host_url.rstrip("/")


def share_url(record: GameRecord) -> str:
    return f"{base_url()}/r/{record.slug}"


def game_view(record: GameRecord, lang: str | None = None, *, recheck: bool = True,
              fresh: Mapping[str, Any] | None = None, table: bool = True) -> dict[str, Any]:
    """A stored game as the API shows it, its result's messages in ``lang`` (the request's
    language by default), rendered from the ids stored with them (no engine run). ``recheck``:
    a row stored before the ids were kept gets them back from its log (one game at a time),
    beside the request within its budget, once per log, engine and language (issue 25, finding
    6); a list never does (it never reads the log column: issue 15), so such a row's errors keep
    their English. ``fresh``: the result just computed for this log (an upload, a ``PUT``): its
    messages are used as they are."""
    view = plain_view(record)
    lang = lang or request_lang()
    if fresh is not None:
        view["result"] = localize(fresh, lang)
    elif recheck and needs_recheck(view["result"], lang):
        key = ("result", record.content_hash, record.engine_version, lang)
        result = view["result"]
        view["result"] = json.loads(within_budget(key, _localized_bytes, result, lang,
                                                  record.log))
    else:
        view["result"] = localized_result(view["result"], lang)
    if table:  # a list attaches them to all its games at once (with_tables)
        with_tables([view], lang)
    return view


def with_tables(views: list[dict[str, Any]], lang: str | None = None) -> list[dict[str, Any]]:
    """Each game's ``signoff`` and ``corrections`` when it was recorded at a table (docs/table.md
    "Sign-off"): three queries for the whole list."""
    from ..db.session import get_session
    from ..tables import signoff

    found = signoff.stored(get_session(), [v["slug"] for v in views], lang or request_lang())
    for view in views:
        at: Mapping[str, Any] = found.get(view["slug"]) or {}
        view["signoff"] = at.get("signoff")
        view["corrections"] = at.get("corrections") or []
    return views


def needs_recheck(result: dict[str, Any], lang: str) -> bool:
    """Only a row stored before message ids were kept, with errors (or remarks, in French)."""
    if has_ids(result):
        return False
    outcome = result.get("outcome")
    return bool(result.get("errors")) or (
        lang != "en" and isinstance(outcome, dict) and bool(outcome.get("notes")))


def _localized_bytes(result: dict[str, Any], lang: str, log: bytes) -> bytes:
    return compact(localized_result(result, lang, log)).encode("utf-8")


def plain_view(record: GameRecord) -> dict[str, Any]:
    """A stored game with its result as stored (English)."""
    root = f"{base_url()}/api/v1/games/{record.slug}"
    return {
        "id": record.id,
        "slug": record.slug,
        "share_url": share_url(record),
        "game": record.game,
        "mode": record.mode,
        "players": record.players,
        "title": record.title,
        "played_at": record.played_at,
        "created_at": record.created_at,
        "stored_at": record.stored_at,
        "updated_at": record.updated_at,
        "visibility": record.visibility,
        "status": record.status,
        "legal": record.legal,
        "claims_match": record.claims_match,
        "engine": record.engine_version,
        "sha256": record.content_hash,
        "result": record.result,
        "links": {"self": root, "log": f"{root}/log", "replay": f"{root}/replay",
                  "share": share_url(record)},
    }
