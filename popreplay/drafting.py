"""A recorder draft's shape (shared by the recorder's API and the tables service): a draft may be
a log that is not whole yet."""

from __future__ import annotations

from typing import Any

from .engine import get_game
from .logformat import ShapeError, check_parsed_shape


def draft_shape(log: dict[str, Any]) -> tuple[dict[str, Any] | None, list[Any]]:
    """The draft made exact, or its shape errors. A draft may hold an empty list where a whole
    log needs at least one entry (POP!'s ``rounds`` before the first layout): nothing is there
    yet to be wrong."""
    try:
        return check_parsed_shape(log), []
    except ShapeError as error:
        errors = error.errors
    empty = {f"/{key}" for key, value in log.items() if value == []}
    if errors and all(e.path in empty for e in errors) and isinstance(log.get("game"), str):
        try:
            get_game(log["game"])
        except KeyError:
            return None, errors
        return log, []
    return None, errors
