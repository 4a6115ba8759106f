"""POP! at a table: what a live table (``popreplay/tables``) needs of this game's drafts. Formats only,
no rule (docs/table.md)."""

from __future__ import annotations

import copy
from typing import Any, Mapping

# the entries several seats fill together, slot by slot (the engine's plans)
GATHERED = ("round", "turn", "kept")


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
