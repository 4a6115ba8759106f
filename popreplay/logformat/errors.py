"""The one exception of the shape layer (below both of its paths)."""

from __future__ import annotations

from typing import Any

from ..engine.replay import Violation


class ShapeError(Exception):
    """A log that is not JSON or not of the right shape; ``errors`` lists every problem."""

    def __init__(self, errors: list[Violation], *, game: Any = None, mode: Any = None) -> None:
        super().__init__("; ".join(f"{e.path or '/'}: {e.message}" for e in errors))
        self.errors = errors
        self.game = game
        self.mode = mode
