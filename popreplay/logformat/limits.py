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
