"""Bloops at a table: what a live table (``popreplay/tables``) needs of this game's drafts. Formats only,
no rule (docs/table.md)."""

from __future__ import annotations

import copy
from typing import Any, Mapping

BLOOPS_PRIVATE = {"draw": ("player",), "give": ("player", "target"), "look": ("player",)}


def seen_by(log: Mapping[str, Any], watcher: str | None) -> dict[str, Any]:
    """What ``watcher`` may see of a Bloops draft: their own dealt cards, the cards they drew, gave,
    were given or looked at, a penalty card they took, their own unseen rearrangement; every other
    such value is ``null`` (``"unknown"`` for an order). Discards, counters and the reveal are
    shown to everyone."""
    seen = copy.deepcopy(dict(log))
    for name, cards in (seen.get("deal") or {}).items():
        if name != watcher and isinstance(cards, list):
            seen["deal"][name] = [None] * len(cards)
    for event in seen.get("events") or []:
        kind = event.get("type")
        who = BLOOPS_PRIVATE.get(kind)
        if who is not None and "value" in event:
            if watcher not in [event.get(k) for k in who]:
                event["value"] = None
        elif kind == "counter" and event.get("penalty") is not None:
            if event.get("player") != watcher:
                event["penalty"] = None
        elif kind == "rearrange" and isinstance(event.get("order"), list):
            if event.get("player") != watcher:
                event["order"] = "unknown"
    return seen
