"""The cube table drawn in a terminal, for ``popreplay replay`` (``render.STATE_RENDERERS``), in
English or French (the rulebook's words, docs/fr/glossary.md; card ids and step names stay)."""

from __future__ import annotations

from typing import Any

import click

STEPS = ("CROSS", "F2L", "OLL", "PLL")
COLOURS = {"WHITE": "white", "YELLOW": "yellow", "ORANGE": "bright_red", "GREEN": "green",
           "RED": "red", "BLUE": "blue", "SKIP": "magenta"}
WORDS = {
    "en": {"no colour": "no colour", "empty": "empty", "hand": "hand", "pile": "pile",
           "left": "left discard", "right": "right discard", "top": "top", ":": ":"},
    "fr": {"no colour": "aucune couleur", "empty": "vide", "hand": "main", "pile": "pioche",
           "left": "défausse de gauche", "right": "défausse de droite", "top": "dessus",
           ":": "\u00a0:"},
}


def _card(card: str) -> str:
    if card.startswith("?"):
        return click.style("??", dim=True)
    colour = COLOURS.get(card.rsplit("-", 1)[0])
    return click.style(card, fg=colour, bold=True) if colour else card


def _step(name: str, step: dict[str, Any] | None, words: dict[str, str]) -> str:
    colon = words[":"]
    if step is None:
        return click.style(f"{name}{colon} —", dim=True)
    colours = (" ".join(_card(c) for c in step["colours"])
               or click.style(words["no colour"], dim=True))
    timer = f" [{step['timer']}]" if step["timer"] else ""
    done = click.style(" ✓", fg="green", bold=True) if step["complete"] else ""
    return f"{name}{colon} {colours}{timer}{done}"


def cube_state(state: dict[str, Any], lang: str = "en") -> list[str]:
    words = WORDS.get(lang, WORDS["en"])
    players = state["players"]
    width = max(len(name) for name in players)
    lines = []
    for name, player in players.items():
        marker = "▶ " if name == state["current"] else "  "
        steps = "  ".join(_step(s, player["table"][s], words) for s in STEPS)
        lines.append(f"{marker}{name.ljust(width)}  {steps}")
        hand = (" ".join(_card(c) for c in player["hand"])
                or click.style(words["empty"], dim=True))
        lines.append(f"  {' ' * width}  {words['hand']} ({player['hand_size']}){words[':']} "
                     f"{hand}")
    left, right = state["discards"]["left"], state["discards"]["right"]
    top = words["top"]
    lines.append(f"{words['pile']} {state['pile']['count']}   {words['left']} {len(left)}"
                 f"{f' ({top} ' + left[-1] + ')' if left else ''}   {words['right']} "
                 f"{len(right)}{f' ({top} ' + right[-1] + ')' if right else ''}")
    return lines
