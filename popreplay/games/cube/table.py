"""cube at a table: what a live table (``popreplay/tables``) needs of this game's drafts. Formats only,
no rule (docs/table.md)."""

from __future__ import annotations

import copy
from typing import Any, Mapping

from ...engine.pointer import split

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


# --- who may make which entry (popreplay/tables/authority.py) ------------------------------------

SHARED_BY = "any"  # nobody's own (a claim): any seat


def _dealt(value: Any) -> frozenset[str]:
    """The players a deal gives seen cards (another's unseen cards, nulls, are nobody's entry)."""
    if not isinstance(value, dict):
        return frozenset()
    return frozenset(str(p) for p, cards in value.items()
                     if not (isinstance(cards, list) and all(c is None for c in cards)))


def authors(log: Mapping[str, Any], at: str, value: Any) -> tuple[frozenset[str], bool]:
    """Whose a whole entry is: a hand its player's; a turn, and whatever is entered in it, the
    turn's player's, an event that names its own ``player`` (an out-of-turn show) that player's;
    anything else (a claim) nobody's own."""
    path = split(at)
    if path[:1] == ["deal"]:
        return (frozenset({path[1]}), False) if len(path) > 1 else (_dealt(value), False)
    if path[:1] != ["turns"]:
        return frozenset(), True
    found = log.get("turns")
    turns: list[Any] = found if isinstance(found, list) else []
    if len(path) == 1:
        turn = value if isinstance(value, dict) else {}
    else:
        index = int(path[1]) if path[1].isdigit() else -1
        turn = turns[index] if 0 <= index < len(turns) and isinstance(turns[index], dict) else (
            value if isinstance(value, dict) and len(path) == 2 else {})
    players = {str(turn["player"])} if turn.get("player") is not None else set()
    events = [value] if path[2:3] == ["events"] else (turn.get("events") or []) if len(path) <= 2 \
        else []
    own = [e.get("player") for e in events if isinstance(e, dict) and e.get("player")]
    if own and path[2:3] == ["events"]:
        players = {str(p) for p in own}
    else:
        players.update(str(p) for p in own)
    return frozenset(players), not players
