"""The explicit registry of games: every game the service knows is listed here, nowhere else."""

from __future__ import annotations

from .games.bloops import BLOOPS
from .games.cube import CUBE
from .games.pop import POP
from .games.slap import SLAP
from .replay import Game

GAMES: dict[str, Game] = {
    POP.name: POP,
    SLAP.name: SLAP,
    BLOOPS.name: BLOOPS,
    CUBE.name: CUBE,
}


def get_game(name: str) -> Game:
    try:
        return GAMES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known games: {', '.join(sorted(GAMES))}") from None
