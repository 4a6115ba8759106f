"""The Bloops table drawn in a terminal, for ``popreplay replay`` (``render.STATE_RENDERERS``)."""

from __future__ import annotations

from typing import Any

import click

STARS = (10, 11, 12)
EFFECTS = {6: "give", 7: "look", 8: "look", 9: "swap"}


def _value(value: int | None) -> str:
    if value is None:
        return click.style("?", dim=True)
    text = str(value)
    if value == 20:
        return click.style(text, fg="red", bold=True)
    if value in STARS:
        return click.style(text, fg="yellow", bold=True)
    if value in EFFECTS:
        return click.style(text, fg="cyan")
    return text


def _places(places: list[dict[str, Any]], lang: str = "en") -> str:
    if not places:
        return click.style("aucune carte" if lang == "fr" else "no cards", dim=True)
    cells = []
    previous_row = None
    for entry in places:
        if previous_row is not None and entry["row"] != previous_row:
            cells.append("|")
        previous_row = entry["row"]
        mixed = click.style("~", fg="magenta") if entry.get("set") else ""  # one of a set
        cells.append(f"{entry['place']}:{_value(entry['value'])}{mixed}")
    return " ".join(cells)


WORDS = {
    "en": {"pile": "pile", "discard": "discard", "empty": "empty", "holds": "holds",
           "counter": "counter-discard on", "waiting": "effects waiting: ",
           "last": "last turns left: ", "give": "give", "look": "look", "swap": "swap"},
    "fr": {"pile": "pioche", "discard": "défausse", "empty": "vide", "holds": "a en main",
           "counter": "contre-défausse sur", "waiting": "effets en attente\u00a0: ",
           "last": "derniers tours restants\u00a0: ", "give": "placer une carte",
           "look": "consulter une carte", "swap": "échanger"},
}


def bloops_state(state: dict[str, Any], lang: str = "en") -> list[str]:
    words = WORDS.get(lang, WORDS["en"])
    width = max(len(name) for name in state["places"])
    lines = []
    for name, places in state["places"].items():
        mark = click.style(" [Bloops]", fg="magenta", bold=True) if state["bloops"] == name else ""
        turn = "▶ " if state["current"] == name else "  "
        lines.append(f"{turn}{name.ljust(width)}  {_places(places, lang)}{mark}")
    discard = state["discard"]
    top = " ".join(_value(entry["value"]) for entry in discard[-6:])
    more = "… " if len(discard) > 6 else ""
    line = (f"{words['pile']} {len(state['pile'])}   {words['discard']} {more}"
            f"{top or click.style(words['empty'], dim=True)}")
    if state["drawn"] is not None:
        line += f"   {state['drawn']['player']} {words['holds']} {_value(state['drawn']['value'])}"
    if state["counter"] is not None:
        line += f"   {words['counter']} {state['counter']}"
    lines.append(line)
    if state["pending"]:
        lines.append(words["waiting"] + ", ".join(
            (f"le {e['value']} de {e['player']} ({words.get(e['effect'], e['effect'])})"
             if lang == "fr" else f"{e['player']}'s {e['value']} ({e['effect']})")
            for e in state["pending"]))
    if state["final_turns_left"] is not None and not state["ended_by"]:
        lines.append(f"{words['last']}{state['final_turns_left']}")
    return lines
