"""popreplay: game records and deterministic, annotated replays for card games.

``popreplay.engine`` is standard library only; the web service is built by :func:`create_app`,
which imports Flask only when called.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

if TYPE_CHECKING:
    from flask import Flask


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """The Flask app: REST API under ``/api/v1``, the replay viewer, errors in one JSON shape.

    Settings come from environment variables (``popreplay.config``); ``config`` overrides them
    (tests pass ``{"DATABASE_URL": ...}``).
    """
    from .app import build_app

    return build_app(config)
