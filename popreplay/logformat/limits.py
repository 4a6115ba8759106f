"""Resource limits on one log, beyond which it is refused as a shape error (docs/reliability.md)."""

from __future__ import annotations

from typing import Any

MAX_DEPTH = 32  # JSON nesting depth anywhere in a log, ``meta`` included


def depth_exceeds(value: Any, budget: int) -> bool:
    """True when ``value`` nests more than ``budget`` levels of arrays/objects."""
    if isinstance(value, dict):
        if budget <= 0:
            return True
        return any(depth_exceeds(v, budget - 1) for v in value.values())
    if isinstance(value, list):
        if budget <= 0:
            return True
        return any(depth_exceeds(v, budget - 1) for v in value)
    return False

# Sizes beyond anything a real game needs; they keep one request's work bounded. A log past them
# is invalid (a shape error at the offending list), not a rule violation.
MAX_PLAYERS = 16
MAX_NAME_LENGTH = 100
MAX_ROUNDS = 16
MAX_TURNS = 64
MAX_ROWS = 64
MAX_CARDS = 64  # in one hand, play, draw or Chief list
