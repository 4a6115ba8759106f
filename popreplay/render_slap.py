"""The slap table drawn in a terminal (``popreplay replay`` on a slap log)."""

from __future__ import annotations

from typing import Any

import click

COLOURS = {"red": "red", "blue": "blue", "green": "green", "yellow": "yellow",
           "rainbow": "magenta", "shadow": "bright_black"}
TOP_CARDS = 5


def _card(card: str) -> str:
    colour = card.rsplit("-", 1)[0]
    return click.style(card, fg=COLOURS.get(colour), bold=colour in ("rainbow", "shadow"))


def slap_state(state: dict[str, Any]) -> list[str]:
    central = state["central"]
    top = central[-TOP_CARDS:]
    hidden = len(central) - len(top)
    shown = " ".join(_card(c) for c in top) or "(empty)"
    lines = [f"central ({len(central)}): " + (f"… {hidden} more, " if hidden else "") + shown
             + ("  ← top" if top else "")]
    lines.append(f"Folies pile: {len(state['folies'])} card{'s' * (len(state['folies']) != 1)}")
    marks = {"no-cards": " (out of cards: last chance)", "eliminated": " (eliminated)"}
    lines.append("piles: " + ", ".join(
        f"{name} {count}{marks.get(state['status'][name], '')}"
        for name, count in state["counts"].items()))
    challenge = state.get("challenge")
    if challenge:
        who = challenge["player"] or "nobody"
        lines.append(f"challenge: {who} owes {challenge['left']} of {challenge['size']} card"
                     f"{'s' * (challenge['size'] != 1)} to {challenge['setter']}")
    if state.get("next"):
        lines.append(f"next to flip: {state['next']}")
    return lines
