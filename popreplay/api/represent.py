"""Stored games as the API shows them."""

from __future__ import annotations

from typing import Any

from flask import current_app, request

from ..db.models import GameRecord


def base_url() -> str:
    """``POPREPLAY_PUBLIC_URL`` when set, else the URL this request came to."""
    return current_app.config.get("PUBLIC_BASE_URL") or request.host_url.rstrip("/")


def share_url(record: GameRecord) -> str:
    return f"{base_url()}/r/{record.slug}"


def game_view(record: GameRecord) -> dict[str, Any]:
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
