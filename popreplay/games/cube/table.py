"""cube at a table: what a live table (``popreplay/tables``) needs of this game's drafts. Formats only,
no rule (docs/table.md)."""

from __future__ import annotations

import copy
from typing import Any, Mapping

def seen_by(log: Mapping[str, Any], watcher: str | None) -> dict[str, Any]:
    """What ``watcher`` (``None``: a spectator) may see of a cube draft: their own dealt and drawn
    cards and every card played, laid, shown or discarded; another player's dealt and drawn cards
    are ``null`` (unseen), and so is a card taken from one other player by another. The engine
    checks such a log as the replay viewer's spoiler-safe one (tests/games/cube/test_hidden.py)."""
    seen = copy.deepcopy(dict(log))
    names = list(seen.get("players") or [])
    for name, cards in (seen.get("deal") or {}).items():
        if name != watcher and isinstance(cards, list):
            seen["deal"][name] = [None] * len(cards)
    for turn in seen.get("turns") or []:
        player = turn.get("player")
        if player == watcher:
            continue
        if isinstance(turn.get("draw"), list):
            turn["draw"] = [None] * len(turn["draw"])
        for event in turn.get("events") or []:
            if isinstance(event.get("draw"), list):
                event["draw"] = [None] * len(event["draw"])
            if isinstance(event.get("take"), list) and not event.get("step"):
                target = event.get("target") or next((n for n in names if n != player), None)
                if target != watcher:
                    event["take"] = [None] * len(event["take"])
    return seen
