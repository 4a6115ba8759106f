"""The kits' registry: one :class:`~.kit.GameKit` per game of the engine's registry.

``popreplay/engine/registry.py`` is the one list of the games; the kit of the game ``g`` is the
package ``popreplay.games.<g>`` (its ``KIT``). Every table of games outside the engine is derived
from :data:`KITS` (``tests/code/test_kits.py`` checks that no other module spells out the games).
The order is the registry's: the order of every list of games on the pages.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

from ..engine.registry import GAMES
from .kit import Example, GameKit

__all__ = ["KITS", "Example", "GameKit", "example_kit", "examples", "get_kit", "load",
           "static_file"]


def _kit(name: str) -> GameKit:
    kit = importlib.import_module(f"{__name__}.{name}").KIT
    if not isinstance(kit, GameKit) or kit.name != name:
        raise TypeError(f"popreplay.games.{name}.KIT is not the GameKit of {name!r}")
    return kit


KITS: dict[str, GameKit] = {name: _kit(name) for name in GAMES}


def get_kit(name: str) -> GameKit:
    try:
        return KITS[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known games: {', '.join(sorted(KITS))}") from None


# Every example of every kit, by its name (its page is /examples/<name>).
_EXAMPLES: dict[str, tuple[GameKit, Example]] = {
    example.name: (kit, example) for kit in KITS.values() for example in kit.examples}
# Every static file of every kit, by its name (served as /assets/games/<name>).
_STATIC: dict[str, Path] = {
    name: kit.static_folder for kit in KITS.values() for name in kit.static_files}


def example_kit(name: str) -> tuple[GameKit, Example] | None:
    """The kit and example called ``name`` (``None``: no example has that name)."""
    return _EXAMPLES.get(name)


def examples() -> dict[str, Example]:
    """Every shipped example, kit after kit in the registry's order."""
    return {name: example for name, (_, example) in _EXAMPLES.items()}


def static_file(name: str) -> Path | None:
    """The folder that holds a kit's static file ``name`` (``None``: no kit declares it)."""
    return _STATIC.get(name)


def load(game: str, part: str) -> Any:
    """A kit's part (``load("cube", "shape")``), for code that has the game's name."""
    return get_kit(game).load(part)
