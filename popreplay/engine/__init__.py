"""The replay engine: standard library only, deterministic, no I/O.

``replay_log`` takes a log whose JSON shape is already checked (see ``popreplay.logformat``) and
returns the result object. Use ``popreplay.checking`` to go from JSON text to a result.
"""

from __future__ import annotations

from typing import Any, Mapping

from . import where  # noqa: F401  (defines the where-words' English)
from .registry import GAMES, get_game
from .replay import ENGINE_VERSION, GameReplay, Violation, build_result, canonical, invalid_result

__all__ = [
    "ENGINE_VERSION",
    "GAMES",
    "GameReplay",
    "Violation",
    "canonical",
    "get_game",
    "invalid_result",
    "replay_log",
]


def replay_log(log: Mapping[str, Any], *, with_steps: bool = False) -> dict[str, Any]:
    """Replay a shape-valid log through its game's rules and return the result object."""
    game = get_game(log["game"])
    return build_result(log, game.replay(log, with_steps=with_steps), with_steps=with_steps)
