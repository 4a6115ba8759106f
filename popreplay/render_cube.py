"""The cube table drawn in a terminal, for ``popreplay replay`` (``render.STATE_RENDERERS``)."""

from __future__ import annotations

from typing import Any

import click

STEPS = ("CROSS", "F2L", "OLL", "PLL")
COLOURS = {"WHITE": "white", "YELLOW": "yellow", "ORANGE": "bright_red", "GREEN": "green",
           "RED": "red", "BLUE": "blue", "SKIP": "magenta"}


def _card(card: str) -> str:
    if card.startswith("?"):
        return click.style("??", dim=True)
    colour = COLOURS.get(card.rsplit("-", 1)[0])
    return click.style(card, fg=colour, bold=True) if colour else card


def _step(name: str, step: dict[str, Any] | None) -> str:
    if step is None:
        return click.style(f"{name}: —", dim=True)
    colours = " ".join(_card(c) for c in step["colours"]) or click.style("no colour", dim=True)
    timer = f" [{step['timer']}]" if step["timer"] else ""
    done = click.style(" ✓", fg="green", bold=True) if step["complete"] else ""
    return f"{name}: {colours}{timer}{done}"


def cube_state(state: dict[str, Any]) -> list[str]:
    players = state["players"]
    width = max(len(name) for name in players)
    lines = []
    for name, player in players.items():
        marker = "▶ " if name == state["current"] else "  "
        steps = "  ".join(_step(s, player["table"][s]) for s in STEPS)
        lines.append(f"{marker}{name.ljust(width)}  {steps}")
        hand = " ".join(_card(c) for c in player["hand"]) or click.style("empty", dim=True)
        lines.append(f"  {' ' * width}  hand ({player['hand_size']}): {hand}")
    left, right = state["discards"]["left"], state["discards"]["right"]
    lines.append(f"pile {state['pile']['count']}   left discard {len(left)}"
                 f"{' (top ' + left[-1] + ')' if left else ''}   right discard {len(right)}"
                 f"{' (top ' + right[-1] + ')' if right else ''}")
    return lines
