"""A game's kit: everything of one game that is not its rules (``docs/architecture.md``).

The rules are the engine's (``popreplay/engine/games/<g>/``, standard library only). The kit,
``popreplay/games/<g>/``, holds the rest, and its ``__init__.py`` names every part in one
:class:`GameKit`:

- ``logformat.py``: the marshmallow shape of the game's logs (and, when the recorder sends one,
  of its ``pending`` entry), mirrored by ``schemas/popreplay/1/<g>.schema.json``;
- ``render.py``: the table drawn in a terminal (``popreplay replay``);
- ``static/``: the replay page's renderer ``<g>.js``, the recorder's panel ``<g>.record.js``, its
  style sheet ``<g>.css`` (served as ``/assets/games/<file>``);
- ``examples/``: the shipped example games (``/examples/<name>``);
- ``table.py`` (optional): what a live table needs of the game's drafts: the entries several
  seats fill together, the private parts of a draft (``popreplay/tables/games.py``);
- ``fr.po``: the French of the engine's messages and notes for this game (``popreplay.i18n``).

Parts written as ``"module:attribute"`` are loaded when first used (:meth:`GameKit.load`), so the
registry (``popreplay.games``) imports nothing but the engine: any layer may read it without an
import cycle (the shapes themselves import ``popreplay.logformat``'s building blocks).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

GAMES_PACKAGE = __name__.rpartition(".")[0]  # popreplay.games
HERE = Path(__file__).resolve().parent


@dataclass(frozen=True, slots=True)
class Example:
    """A shipped example game: ``examples/<name>.json``, shown at ``/examples/<name>``."""

    name: str
    blurb: Any  # one line for the home page (a lazy string: each page says it in its language)


@dataclass(frozen=True, slots=True)
class GameKit:
    """The parts of one game that are not rules (see the module's docstring)."""

    name: str  # the engine's name of the game: its logs' "game", its folder
    title: Any  # the engine's title for people, marked for the pages' catalogue (lazy string)
    shape: str  # "module:Class": the marshmallow schema of a log (logformat.py)
    renderer: str  # "module:function": (state, lang) -> lines of the terminal's table
    pending: str | None = None  # "module:attribute": the recorder's pending fields, if it has one
    bound: str | None = None  # "module:function": log -> (pointer, message) of a bound past, or None
    script: str | None = None  # static/: the replay page's renderer
    record_script: str | None = None  # static/: the recorder's panel
    style: str | None = None  # static/: the page's style sheet for this game
    mode_words: tuple[tuple[str, Any], ...] = ()  # each engine mode and its name for people (lazy)
    examples: tuple[Example, ...] = ()
    catalogues: tuple[str, ...] = ("fr.po",)  # the engine messages' translations, <lang>.po
    round_word: str = "round"  # the terminal's word for a log's round (``render.WORDS``)
    table: str | None = None  # module: what a live table needs of the drafts (``table.py``)
    # the recorder's end screen (``web/claimform.py``): a label for each claimable field of the
    # game's own (lazy), and a word for each value of its choice fields, keyed (field, value)
    # "module:function": (token, parent, grandparent) -> a number of a log's pointer in the game's
    # words ("row 2", "card 1"), or None (``web.places.place_in_log``)
    place_word: str | None = None
    claim_labels: tuple[tuple[str, Any], ...] = ()
    claim_choices: tuple[tuple[tuple[str, Any], Any], ...] = ()

    @property
    def folder(self) -> Path:
        return HERE / self.name

    @property
    def static_folder(self) -> Path:
        return self.folder / "static"

    @property
    def static_files(self) -> tuple[str, ...]:
        return tuple(f for f in (self.script, self.record_script, self.style) if f)

    def example_path(self, name: str) -> Path:
        return self.folder / "examples" / f"{name}.json"

    def catalogue_path(self, lang: str) -> Path | None:
        """The kit's ``<lang>.po`` (``None``: the kit has none for that language)."""
        name = f"{lang}.po"
        return self.folder / name if name in self.catalogues else None

    def load(self, part: str) -> Any:
        """The object a ``"module:attribute"`` part names (``kit.load("shape")``)."""
        ref = getattr(self, part)
        if not isinstance(ref, str) or ":" not in ref:
            raise ValueError(f"{self.name}: {part} is not a \"module:attribute\" part")
        module, _, attribute = ref.partition(":")
        return getattr(importlib.import_module(f"{GAMES_PACKAGE}.{self.name}.{module}"), attribute)
