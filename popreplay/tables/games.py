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


# --- cube and Bloops: each seat's own cards (deal, draws, cards given to it), hidden from the others


def cube_seen_by(log: Mapping[str, Any], watcher: str | None) -> dict[str, Any]:
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


BLOOPS_PRIVATE = {"draw": ("player",), "give": ("player", "target"), "look": ("player",)}


def bloops_seen_by(log: Mapping[str, Any], watcher: str | None) -> dict[str, Any]:
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


SEEN_BY: dict[str, Callable[[Mapping[str, Any], str | None], dict[str, Any]]] = {
    "cube": cube_seen_by, "bloops": bloops_seen_by}


def private_cards(game: str) -> bool:
    """Does each seat see its own cards of this game's draft (and not the others')?"""
    return game in SEEN_BY


def seen_by(game: str, log: dict[str, Any], choices: Mapping[str, Any],
            watcher: str | None) -> dict[str, Any]:
    """The draft as ``watcher`` may see it while the game is played (once it is over, all of it)."""
    hide = SEEN_BY.get(game)
    if hide is None or choices.get("over"):
        return log
    return hide(log, watcher)
