"""Bloops at a table: what a live table (``popreplay/tables``) needs of this game's drafts. Formats only,
no rule (docs/table.md)."""

from __future__ import annotations

import copy
from typing import Any, Mapping

from ...engine.pointer import split

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


# --- who may make which entry (popreplay/tables/authority.py) ------------------------------------

SHARED_BY = "any"  # nobody's own (the reveal, a claim): any seat


def authors(log: Mapping[str, Any], at: str, value: Any) -> tuple[frozenset[str], bool]:
    """Whose a whole entry is: a player's dealt places that player's; an event its ``player``'s
    (a card given: the giver's); anything else (the reveal, a claim) nobody's own."""
    path = split(at)
    if path[:1] == ["deal"]:
        if len(path) > 1:
            return frozenset({path[1]}), False
        dealt = value if isinstance(value, dict) else {}
        return frozenset(str(p) for p, cards in dealt.items()
                         if not (isinstance(cards, list) and all(c is None for c in cards))), False
    if path[:1] == ["events"]:
        found = log.get("events")
        events: list[Any] = found if isinstance(found, list) else []
        if len(path) == 1:
            event = value
        else:
            index = int(path[1]) if path[1].isdigit() else -1
            event = events[index] if 0 <= index < len(events) else value
        if isinstance(event, dict) and event.get("player") is not None:
            return frozenset({str(event["player"])}), False
    return frozenset(), True
