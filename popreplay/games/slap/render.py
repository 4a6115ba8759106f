"""The slap table drawn in a terminal (``popreplay replay`` on a slap log)."""

from __future__ import annotations

from typing import Any

import click

COLOURS = {"red": "red", "blue": "blue", "green": "green", "yellow": "yellow",
           "rainbow": "magenta", "shadow": "bright_black"}
TOP_CARDS = 5


# French: the rulebook's words (docs/fr/glossary.md)
FRENCH_COLOURS = {"red": "Rouge", "blue": "Bleu", "green": "Vert", "yellow": "Jaune",
                  "rainbow": "Rainbow", "shadow": "Shadow"}


def _card(card: str, lang: str = "en") -> str:
    colour, _, value = card.rpartition("-")
    shown = f"{FRENCH_COLOURS[colour]} {value}" if lang == "fr" and colour in FRENCH_COLOURS \
        else card
    return click.style(shown, fg=COLOURS.get(colour), bold=colour in ("rainbow", "shadow"))


def _plural(count: int, one: str, many: str, lang: str) -> str:
    single = count == 1 or (lang == "fr" and count == 0)
    return f"{count} {one if single else many}"


def slap_state(state: dict[str, Any], lang: str = "en") -> list[str]:
    fr = lang == "fr"
    central = state["central"]
    top = central[-TOP_CARDS:]
    hidden = len(central) - len(top)
    shown = " ".join(_card(c, lang) for c in top) or ("(vide)" if fr else "(empty)")
    more = (f"… {hidden} de plus, " if fr else f"… {hidden} more, ") if hidden else ""
    lines = [(f"pile centrale ({len(central)})\u00a0: " if fr else f"central ({len(central)}): ")
             + more + shown
             + ((" ← dessus" if fr else "  ← top") if top else "")]
    folies = len(state["folies"])
    lines.append(f"pile Folies : {_plural(folies, 'carte', 'cartes', lang)}" if fr else
                 f"Folies pile: {_plural(folies, 'card', 'cards', lang)}")
    marks = ({"no-cards": " (sans cartes : dernière chance)", "eliminated": " (éliminé)"} if fr
             else {"no-cards": " (out of cards: last chance)", "eliminated": " (eliminated)"})
    lines.append(("tas : " if fr else "piles: ") + ", ".join(
        f"{name} {count}{marks.get(state['status'][name], '')}"
        for name, count in state["counts"].items()))
    challenge = state.get("challenge")
    if challenge:
        who = challenge["player"] or ("personne" if fr else "nobody")
        if fr:
            lines.append(f"défi : {who} doit encore {challenge['left']} sur "
                         f"{_plural(challenge['size'], 'carte', 'cartes', lang)} "
                         f"à {challenge['setter']}")
        else:
            lines.append(f"challenge: {who} owes {challenge['left']} of "
                         f"{_plural(challenge['size'], 'card', 'cards', lang)} "
                         f"to {challenge['setter']}")
    if state.get("next"):
        lines.append(f"{'prochain à retourner : ' if fr else 'next to flip: '}{state['next']}")
    if fr:  # French puts a no-break space before a colon
        lines = [line.replace(" : ", "\u00a0: ") for line in lines]
    return lines
