"""``docs/adding-a-game.md`` against the tree: every path it names exists (``<g>`` read as each
game that has every part it names, Bloops the example), every part of a ``GameKit`` is in its
table, and ``docs/architecture.md`` names files that exist."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from popreplay.games import KITS, GameKit

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "adding-a-game.md"
ROOTS = ("popreplay/", "schemas/", "docs/", "tests/", "scripts/", "README.md")
CODE = re.compile(r"`([^`\n]+)`")


def named_paths(text: str) -> list[str]:
    """The backticked repository paths of a page (an address such as ``/assets/...`` is not one)."""
    return sorted({c for c in CODE.findall(text) if c.startswith(ROOTS) and " " not in c})


def test_the_page_names_paths() -> None:
    paths = named_paths(DOC.read_text("utf-8"))
    assert len(paths) > 30
    assert "popreplay/engine/registry.py" in paths and "popreplay/games/<g>/__init__.py" in paths


@pytest.mark.parametrize("game", ["bloops"])
def test_every_path_of_adding_a_game_exists(game: str) -> None:
    missing = [p for p in named_paths(DOC.read_text("utf-8"))
               if not (ROOT / p.replace("<g>", game)).exists()]
    assert not missing, f"docs/adding-a-game.md names paths that {game} does not have: {missing}"


def test_the_paths_without_a_game_are_the_same_for_every_game() -> None:
    """The two folders of every game (the ones the page says every game has) exist."""
    for name in KITS:
        for path in ("popreplay/engine/games/<g>/__init__.py", "popreplay/games/<g>/__init__.py",
                     "popreplay/games/<g>/logformat.py", "popreplay/games/<g>/render.py",
                     "popreplay/games/<g>/fr.po", "schemas/popreplay/1/<g>.schema.json",
                     "docs/rules/<g>.md", "docs/fr/rules/<g>.md", "tests/golden/<g>"):
            assert (ROOT / path.replace("<g>", name)).exists(), (name, path)


def test_every_part_of_a_kit_is_in_the_table() -> None:
    text = DOC.read_text("utf-8")
    table = [line for line in text.splitlines() if line.startswith("| `")]
    named = {c for line in table for c in CODE.findall(line.split("|")[1])}
    fields = {f.name for f in dataclasses.fields(GameKit)}
    assert fields - {"pending", "bound"} <= named, fields - named
    assert {"pending", "bound"} <= set(CODE.findall(text))


def test_the_architecture_page_names_files_that_exist() -> None:
    text = (ROOT / "docs" / "architecture.md").read_text("utf-8")
    missing = []
    for code in set(CODE.findall(text)):
        if (" " in code or "<" in code or "*" in code or "/" not in code or code.startswith("/")
                or code.endswith("/")):
            continue  # a file's name alone, a pattern, an address
        candidates = [ROOT / code, ROOT / "popreplay" / code, ROOT / "docs" / code]
        if not any(c.exists() for c in candidates):
            missing.append(code)
    assert not missing, missing
    for link in re.findall(r"\]\(([a-z-]+\.md)\)", text):
        assert (ROOT / "docs" / link).is_file(), link
