"""POP!'s table drawn in a terminal, for ``popreplay replay`` (the kit's ``renderer``), in English
or French."""

from __future__ import annotations

from typing import Any

import click

# Display colours for POP!'s five colours (number mod 5); the rulebook does not name them.
POP_COLOURS = ("magenta", "red", "yellow", "green", "cyan")
WORDS = {
    "en": {"row": "row", "scores": "scores", "totals": "totals",
           "Chief's waiting pile": "Chief's waiting pile"},
    "fr": {"row": "ligne", "scores": "scores", "totals": "totaux",
           "Chief's waiting pile": "cartes en attente du Chef Multicolore"},
}


def _w(lang: str, word: str) -> str:
    return WORDS.get(lang, WORDS["en"])[word]


def pop_state(state: dict[str, Any], lang: str = "en") -> list[str]:
    area = state["area"]
    label = _w(lang, "row")
    lines = [" " * (len(label) + 4) + "   ".join(f" {q}" for q in "ABCDE")]
    for r, row in enumerate(area["rows"]):
        cells = []
        for card in row:
            if card is None:
                cells.append("  .")
            else:
                cells.append(click.style(f"{card:3d}", fg=POP_COLOURS[card % 5], bold=True))
        lines.append(f"{label} {r:2d} " + "  ".join(cells))
    lines.append(f"{_w(lang, 'scores')} " + ", ".join(f"{k} {v}" for k, v in state["scores"].items())
                 + f"   {_w(lang, 'totals')} "
                 + ", ".join(f"{k} {v}" for k, v in state["totals"].items()))
    if state["chief_pending"]:
        lines.append(f"{_w(lang, 'Chief' + chr(39) + 's waiting pile')}: "
                     + " ".join(map(str, state["chief_pending"])))
    return lines
