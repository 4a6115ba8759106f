"""Text for people: the validation table and the table drawn in a terminal."""

from __future__ import annotations

import json
from typing import Any

import click

from .games import KITS

# The words of the terminal output; messages and notes come in the result already rendered in the
# language (``popreplay.i18n.localize``); each game's board (its kit's ``render.py``) takes the
# language too.
WORDS: dict[str, dict[str, str]] = {
    "en": {"FILE": "FILE", "GAME": "GAME", "STATUS": "STATUS", "DETAIL": "DETAIL",
           "complete": "complete", "incomplete": "incomplete", "illegal": "illegal",
           "invalid": "invalid", "round": "round", "turn": "turn", "at": "at",
           "claims differ": "claims differ", "claimed": "claimed", "computed": "computed",
           "totals": "totals", "winner": "winner", "winners": "winners", "none": "none",
           "no logs": "no logs", "round (cube)": "round"},
    "fr": {"FILE": "FICHIER", "GAME": "JEU", "STATUS": "ÉTAT", "DETAIL": "DÉTAIL",
           "complete": "complète", "incomplete": "inachevée", "illegal": "irrégulière",
           "invalid": "invalide", "round": "manche", "turn": "tour", "at": "—",
           "claims differ": "le résultat annoncé diffère", "claimed": "annoncé",
           "computed": "calculé", "totals": "totaux", "winner": "gagnant",
           "winners": "gagnants", "none": "aucun", "no logs": "aucun journal",
           "round (cube)": "tour de table"},
}


def _w(lang: str, word: str) -> str:
    return WORDS.get(lang, WORDS["en"]).get(word, word)


def summary_row(result: dict[str, Any], lang: str = "en") -> dict[str, str]:
    """One row of the validation table; ``status`` stays the code (it picks the colour)."""
    if result["errors"]:  # every error, one line each (a log typed by hand often has several)
        detail = "\n".join(_error_line(error, lang) for error in result["errors"])
    elif result["claims"] and not result["claims"]["match"]:
        diffs = result["claims"]["differences"]
        detail = _w(lang, "claims differ") + ": " + "; ".join(
            f"{d['field']} {_w(lang, 'claimed')} {json.dumps(d['claimed'], ensure_ascii=False)}, "
            f"{_w(lang, 'computed')} {json.dumps(d['computed'], ensure_ascii=False)}"
            for d in diffs[:3])
    else:
        detail = _outcome_line(result, lang)
    return {"source": result.get("source", "-"), "game": f"{result['game'] or '?'}/"
            f"{result['mode'] or '?'}", "status": result["status"], "detail": detail}


def _error_line(error: dict[str, Any], lang: str = "en") -> str:
    where = error["path"] or "/"
    if error.get("round"):
        where = f"{_w(lang, 'round')} {error['round']}" + (
            f" {_w(lang, 'turn')} {error['turn']}" if error.get("turn") else "") + f" ({where})"
    return f"{error['code']}: {error['message']} {_w(lang, 'at')} {where}"


def _outcome_line(result: dict[str, Any], lang: str = "en") -> str:
    outcome = result.get("outcome") or {}
    if "totals" in outcome:
        totals = ", ".join(f"{k} {v}" for k, v in outcome["totals"].items())
        winners = outcome.get("winners")
        label = _w(lang, "winners" if winners and len(winners) > 1 else "winner")
        return f"{_w(lang, 'totals')} {totals}" + (f"; {label} {', '.join(winners)}"
                                                   if winners else "")
    # other games: the decided scalars and lists (winners, how it ended); per-player maps are
    # left to `popreplay replay` and the web page
    return ", ".join(f"{k} {_plain(v, lang)}" for k, v in outcome.items()
                     if v is not None and not isinstance(v, dict))


def _plain(value: Any, lang: str = "en") -> str:
    if isinstance(value, list):
        return " ".join(_plain(v, lang) for v in value) if value else _w(lang, "none")
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} {_plain(v)}" for k, v in value.items()) + "}"
    return str(value)


def table(rows: list[dict[str, str]], *, header: bool = True, lang: str = "en") -> str:
    """Rows as aligned columns; a stream prints one row at a time with ``header`` only first."""
    if not rows:
        return _w(lang, "no logs")
    headers = {"source": _w(lang, "FILE"), "game": _w(lang, "GAME"),
               "status": _w(lang, "STATUS"), "detail": _w(lang, "DETAIL")}
    shown = {row["status"]: _w(lang, row["status"]) for row in rows}
    widths = {k: max(len(headers[k]), *(len(shown[r[k]] if k == "status" else r[k])
                                        for r in rows)) for k in ("source", "game", "status")}
    lines = ["  ".join(headers[k].ljust(widths[k]) for k in widths) + "  " + headers["detail"]]
    if not header:
        lines = []
    colours = {"complete": "green", "incomplete": "yellow", "illegal": "red", "invalid": "red"}
    for row in rows:
        status = click.style(shown[row["status"]].ljust(widths["status"]),
                             fg=colours[row["status"]])
        first, *more = row["detail"].split("\n")
        lines.append(f"{row['source'].ljust(widths['source'])}  {row['game'].ljust(widths['game'])}"
                     f"  {status}  {first}")
        indent = " " * (sum(widths.values()) + 2 * len(widths))
        lines.extend(indent + line for line in more)
    return "\n".join(lines)


def board(game: str, state: dict[str, Any], lang: str = "en") -> list[str]:
    """A step's table as its kit's renderer draws it (``popreplay/games/<g>/render.py``), or the
    state as JSON for a game without a kit."""
    kit = KITS.get(game)
    if kit is None:
        return [json.dumps(state, ensure_ascii=False)]
    return kit.load("renderer")(state, lang)


def step(result: dict[str, Any], item: dict[str, Any], lang: str = "en") -> str:
    where = []
    if item["round"] is not None:
        kit = KITS.get(result.get("game"))  # type: ignore[arg-type]
        word = kit.round_word if kit is not None else "round"  # the glossary's word
        where.append(f"{_w(lang, word)} {item['round']}")
    if item["turn"] is not None:
        where.append(f"{_w(lang, 'turn')} {item['turn']}")
    head = click.style(f"[{item['index']}] {item['kind']}", bold=True)
    lines = [f"{head} {' '.join(where)}: {item['note']}"]
    if item.get("state"):
        lines.extend("    " + line for line in board(result["game"], item["state"], lang))
    return "\n".join(lines) + "\n"


def verdict(result: dict[str, Any], lang: str = "en") -> str:
    row = summary_row(result, lang)
    colour = "green" if result["status"] in ("complete", "incomplete") else "red"
    first, *more = row["detail"].split("\n")
    return "\n".join([click.style(_w(lang, row["status"]), fg=colour, bold=True) + f" — {first}",
                      *(f"  {line}" for line in more)])
