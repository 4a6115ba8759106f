"""What a table needs to know of each game's recorder contract (docs/recorder.md): the extra keys
of a ``pending`` entry and which parts of a draft are private. Formats only, no rule."""

from __future__ import annotations

import copy
from typing import Any, Callable, Mapping

# the entries several seats fill together: the POP! plans with slots (round, turn, kept)
GATHERED = {"pop": ("round", "turn", "kept")}


def pending_extra(game: str, kind: str, *, hands: bool) -> dict[str, Any]:
    """Keys a ``pending`` of this kind carries besides its cards (POP!: a round's ``hands``)."""
    if game == "pop" and kind == "round":
        return {"hands": hands}
    return {}


def pop_open_rounds(log: Mapping[str, Any], choices: Mapping[str, Any]) -> set[int]:
    """The rounds (0-based) still being played: the last one while the engine offers a turn."""
    rounds = log.get("rounds") or []
    if rounds and not choices.get("over") and "turn" in (choices.get("next") or {}):
        return {len(rounds) - 1}
    return set()


def pop_redact(log: dict[str, Any], open_rounds: set[int]) -> dict[str, Any]:
    """The log without the hands (and the 2-player variant's draws) of the rounds still played."""
    out = copy.deepcopy(log)
    for index in open_rounds:
        rnd = out["rounds"][index]
        rnd.pop("hands", None)
        for turn in rnd.get("turns") or []:
            turn.pop("draws", None)
    return out


OPEN: dict[str, Callable[[Mapping[str, Any], Mapping[str, Any]], set[int]]] = {
    "pop": pop_open_rounds}
REDACT: dict[str, Callable[[dict[str, Any], set[int]], dict[str, Any]]] = {"pop": pop_redact}


def private_parts(game: str, log: Mapping[str, Any], choices: Mapping[str, Any]) -> set[int]:
    open_ = OPEN.get(game)
    return open_(log, choices) if open_ is not None else set()


def redacted(game: str, log: dict[str, Any], open_rounds: set[int]) -> dict[str, Any]:
    redact = REDACT.get(game)
    return redact(log, open_rounds) if redact is not None and open_rounds else log
