"""The kit's ``bound``: what a cube log may not exceed that one list's length cannot say. Apart
from the shape (``logformat.py``) because both shape paths read it, the fast one without
marshmallow."""

from __future__ import annotations

from typing import Any

from ...logformat.limits import MAX_CUBE_EVENTS, cube_events_past_limit


def past_limit(log: Any) -> tuple[str, str] | None:
    """``(pointer, message)`` of the bound on a replay's work that one list's length cannot say
    (the kit's ``bound``): the events of all turns together (``limits.MAX_CUBE_EVENTS``)."""
    where = cube_events_past_limit(log)
    if where is None:
        return None
    return where, (f"at most {MAX_CUBE_EVENTS} events in one log (all turns together): "
                   "this one is past the limit")
