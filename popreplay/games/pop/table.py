"""POP! at a table: what a live table (``popreplay/tables``) needs of this game's drafts. Formats only,
no rule (docs/table.md)."""

from __future__ import annotations

import copy
from typing import Any, Mapping

from ...engine.pointer import split

# the entries several seats fill together, slot by slot (the engine's plans)
GATHERED = ("round", "turn", "kept")

# the slots whose cards every screen sees as soon as they are sent (a layout lies face up)
PUBLIC_ROLES = ("layout",)


def pending_extra(kind: str, *, hands: bool) -> dict[str, Any]:
    """Keys a ``pending`` of this kind carries besides its cards (a round's ``hands``)."""
    return {"hands": hands} if kind == "round" else {}


def open_rounds(log: Mapping[str, Any], choices: Mapping[str, Any]) -> set[int]:
    """The rounds (0-based) still being played: the last one while the engine offers a turn, or
    while the draft holds an error (a clash with a hand is not the end of a round)."""
    rounds = log.get("rounds") or []
    if rounds and not choices.get("over") and (
            "turn" in (choices.get("next") or {}) or choices.get("error")):
        return {len(rounds) - 1}
    return set()


def redact(log: dict[str, Any], open_rounds: set[int]) -> dict[str, Any]:
    """The log without the hands (and the 2-player variant's draws) of the rounds still played."""
    out = copy.deepcopy(log)
    for index in open_rounds:
        rnd = out["rounds"][index]
        rnd.pop("hands", None)
        for turn in rnd.get("turns") or []:
            turn.pop("draws", None)
    return out



# --- who may make which entry (popreplay/tables/authority.py) ------------------------------------

SHARED_BY = "keeper"  # the layout and the Chief's cards: the table's keeper or the host
OWN = ("hands", "plays", "draws")  # a round's hands, a turn's plays and draws: player -> cards


def authors(log: Mapping[str, Any], at: str, value: Any) -> tuple[frozenset[str], bool]:
    """Whose a whole entry at ``at`` is: (the players whose hand, play or draw it holds, whether
    it holds anything else: a layout, the Chief's cards, a kept card, which are nobody's own)."""
    path = split(at)
    for key in OWN:
        if key in path[:-1]:
            return frozenset({path[path.index(key) + 1]}), False
        if path and path[-1] == key and isinstance(value, dict):
            return frozenset(str(p) for p in value), False
    players: set[str] = set()
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for key, item in node.items():
                if key in OWN and isinstance(item, dict):
                    players.update(str(p) for p in item)
                else:
                    stack.append(item)
        elif isinstance(node, list):
            stack.extend(node)
    return frozenset(players), True
