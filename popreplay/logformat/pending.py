"""The shape of the recorder's ``pending`` (the entry being built, docs/recorder.md), per game,
checked with every field's type before the engine sees it (issue 25, finding 4).

A wrong one is not a bad request: ``POST /record/check`` answers 200 with ``choices.error``
(code ``pending``, the pointer under ``/pending``), as the contract says.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from ..engine.messages import Msg, msg
from ..engine.pointer import pointer
from ..games import KITS

Check = Callable[[Any], bool]


def string(value: Any) -> bool:
    return isinstance(value, str)


def boolean(value: Any) -> bool:
    return isinstance(value, bool)


def integer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def list_(value: Any) -> bool:
    return isinstance(value, list)


def object_(value: Any) -> bool:
    return isinstance(value, dict)


def or_null(check: Check) -> Check:
    return lambda value: value is None or check(value)


# A field: its check and message, and for a list (or an object of lists, by player) the check and
# message of each card in it (null: a card not seen). Each game's fields are its kit's ``pending``
# (``popreplay/games/<g>/logformat.py``: ``PENDING``); a game without one ignores ``pending``.
Field = tuple[Check, str, Check | None, str | None]


def fields_of(game: str) -> Mapping[str, Field]:
    kit = KITS.get(game)
    return kit.load("pending") if kit is not None and kit.pending else {}


def pending_error(game: str, pending: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The ``choices.error`` of a ``pending`` of the wrong shape for ``game``, or ``None``.
    Unknown keys are refused where the game reads ``pending`` at all (slap and Bloops do not:
    theirs is ignored)."""
    if pending is None:
        return None
    fields = fields_of(game)
    if not fields:
        return None
    for key, value in pending.items():
        if key not in fields:
            return _error(msg("shape.unknown-key"), key)
        check, message, card, card_message = fields[key]
        if not check(value):
            return _error(msg(message), key)
        if card is None:
            continue
        lists = value.items() if isinstance(value, dict) else [(None, value)]
        for name, cards in lists:
            where = (key,) if name is None else (key, name)
            if not isinstance(cards, list):
                return _error(msg("shape.list"), *where)
            for k, item in enumerate(cards):
                if not card(item):
                    return _error(msg(card_message or "shape.string"), *where, k)
    return None


def _error(message: Msg, *tokens: Any) -> dict[str, Any]:
    return {"code": "pending", "message": message, "round": None, "turn": None,
            "path": pointer("pending", *tokens)}
