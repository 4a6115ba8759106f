"""The recorder's drafts and what-if branches, service side (issue 25): a draft's shape before
the engine, a stored game's cut, and whether a log really is a branch of a game at a step.

No rules here: the shape is logformat's, the cut is the engine's (``Game.cut``).
"""

from __future__ import annotations

import json
from typing import Any

from .engine import get_game
from .logformat import ShapeError, check_parsed_shape
from .logformat.envelope import draft_may_lack

# Errors a draft may have where a whole log may not: a top-level list that needs one entry and
# has none yet (a game's ``at_least_one``: POP!'s ``rounds`` before the first layout). Nothing
# else is let through: a top-level ``[]`` of the wrong type (``mode: []``, ``deal: []``, an
# unknown key) is a shape error like any other.


def draft_shape(log: dict[str, Any]) -> tuple[dict[str, Any] | None, list[Any]]:
    """The draft made exact, or its shape errors."""
    try:
        return check_parsed_shape(log), []
    except ShapeError as error:
        errors = error.errors
    empty = {f"/{key}" for key, value in log.items() if value == []}
    if errors and all(e.path in empty and draft_may_lack(str(e.message)) for e in errors):
        try:
            get_game(log["game"])
        except (KeyError, TypeError):
            return None, errors
        return log, []
    return None, errors


def cut_of(raw: bytes, game: str, step: int) -> dict[str, Any]:
    """The engine's cut of a stored log (its bytes) at ``step``: the draft a branch starts from."""
    return get_game(game).cut(json.loads(raw.decode("utf-8-sig")), step)


IGNORED = ("meta", "claimed")  # a branch has its own title and claims


def extends(log: Any, cut: Any, *, top: bool = True) -> bool:
    """Whether ``log`` continues ``cut``: every value of the cut is in the log as it is, but that
    the last entry of a list may go on (more entries after it, or its own last list longer: a
    turn cut inside continued), and an object may gain keys (a round's ``kept``)."""
    if isinstance(cut, dict):
        if not isinstance(log, dict):
            return False
        return all(key in log and extends(log[key], value, top=False)
                   for key, value in cut.items() if not (top and key in IGNORED))
    if isinstance(cut, list):
        if not isinstance(log, list) or len(log) < len(cut):
            return False
        if not cut:
            return True
        return log[:len(cut) - 1] == cut[:-1] and extends(log[len(cut) - 1], cut[-1], top=False)
    return type(log) is type(cut) and log == cut
