"""What a table needs to know of each game's recorder contract (docs/recorder.md), from the game's
kit (its ``table`` module, ``popreplay/games/<g>/table.py``): the entries several seats fill
together, the extra keys of a ``pending`` entry, and which parts of a draft are private.
Formats only, no rule."""

from __future__ import annotations

import importlib
from functools import lru_cache
from types import ModuleType
from typing import Any, Mapping

from ..games import KITS


@lru_cache(maxsize=None)
def _parts(game: str) -> ModuleType | None:
    kit = KITS.get(game)
    if kit is None or kit.table is None:
        return None
    return importlib.import_module(f"popreplay.games.{game}.{kit.table}")


# the entries several seats fill together, per game (POP!: round, turn, kept)
GATHERED: dict[str, tuple[str, ...]] = {
    name: tuple(getattr(_parts(name), "GATHERED", ())) for name in KITS
    if getattr(_parts(name), "GATHERED", None)}


def pending_extra(game: str, kind: str, *, hands: bool) -> dict[str, Any]:
    """Keys a ``pending`` of this kind carries besides its cards (POP!: a round's ``hands``)."""
    extra = getattr(_parts(game), "pending_extra", None)
    return extra(kind, hands=hands) if extra is not None else {}


def public_roles(game: str) -> tuple[str, ...]:
    """The roles of the slots whose cards every screen sees as soon as they are sent, before the
    entry is whole (POP!: the layout, which lies face up)."""
    return tuple(getattr(_parts(game), "PUBLIC_ROLES", ()))


def private_parts(game: str, log: Mapping[str, Any], choices: Mapping[str, Any]) -> set[int]:
    """The rounds (0-based) whose hands are hidden now (POP!: the round still played)."""
    open_ = getattr(_parts(game), "open_rounds", None)
    return open_(log, choices) if open_ is not None else set()


def redacted(game: str, log: dict[str, Any], open_rounds: set[int]) -> dict[str, Any]:
    redact = getattr(_parts(game), "redact", None)
    return redact(log, open_rounds) if redact is not None and open_rounds else log


def private_cards(game: str) -> bool:
    """Does each seat see its own cards of this game's draft (and not the others')?"""
    return getattr(_parts(game), "seen_by", None) is not None


def seen_by(game: str, log: dict[str, Any], choices: Mapping[str, Any],
            watcher: str | None) -> dict[str, Any]:
    """The draft as ``watcher`` may see it while the game is played (once it is over, all of it)."""
    hide = getattr(_parts(game), "seen_by", None)
    if hide is None or choices.get("over"):
        return log
    return hide(log, watcher)


def known_to(game: str, log: dict[str, Any], choices: Mapping[str, Any], *,
             player: str | None, host: bool) -> dict[str, Any]:
    """The draft as one phone may know it, what every answer to it is computed from: the host
    without a seat the whole draft (``GET /log``); a seat or a spectator its ``seen_by`` draft
    (cube, Bloops) or the draft without the hands of the rounds still played (POP!)."""
    if host and player is None:
        return log
    if private_cards(game):
        return seen_by(game, log, choices, player)
    return redacted(game, log, private_parts(game, log, choices))
