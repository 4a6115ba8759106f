"""Text for people: the validation table and the table drawn in a terminal."""

from __future__ import annotations

import json
from typing import Any, Callable

import click

from .render_bloops import bloops_state
from .render_cube import cube_state
from .render_slap import slap_state

# Display colours for POP!'s five colours (number mod 5); the rulebook does not name them.
POP_COLOURS = ("magenta", "red", "yellow", "green", "cyan")


def summary_row(result: dict[str, Any]) -> dict[str, str]:
    if result["errors"]:  # every error, one line each (a log typed by hand often has several)
        detail = "\n".join(_error_line(error) for error in result["errors"])
    elif result["claims"] and not result["claims"]["match"]:
        diffs = result["claims"]["differences"]
        detail = "claims differ: " + "; ".join(
            f"{d['field']} claimed {json.dumps(d['claimed'], ensure_ascii=False)}, computed "
            f"{json.dumps(d['computed'], ensure_ascii=False)}" for d in diffs[:3])
    else:
        detail = _outcome_line(result)
    return {"source": result.get("source", "-"), "game": f"{result['game'] or '?'}/"
            f"{result['mode'] or '?'}", "status": result["status"], "detail": detail}


def _error_line(error: dict[str, Any]) -> str:
    where = error["path"] or "/"
    if error.get("round"):
        where = f"round {error['round']}" + (f" turn {error['turn']}" if error.get("turn")
                                              else "") + f" ({where})"
    return f"{error['code']}: {error['message']} at {where}"


def _outcome_line(result: dict[str, Any]) -> str:
    outcome = result.get("outcome") or {}
    if "totals" in outcome:
        totals = ", ".join(f"{k} {v}" for k, v in outcome["totals"].items())
        winners = outcome.get("winners")
        return f"totals {totals}" + (f"; winner{'s' * (len(winners) > 1)} {', '.join(winners)}"
                                     if winners else "")
    # other games: the decided scalars and lists (winners, how it ended); per-player maps are
    # left to `popreplay replay` and the web page
    return ", ".join(f"{k} {_plain(v)}" for k, v in outcome.items()
                     if v is not None and not isinstance(v, dict))


def _plain(value: Any) -> str:
    if isinstance(value, list):
        return " ".join(map(_plain, value)) if value else "none"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} {_plain(v)}" for k, v in value.items()) + "}"
    return str(value)


def table(rows: list[dict[str, str]], *, header: bool = True) -> str:
    """Rows as aligned columns; a stream prints one row at a time with ``header`` only first."""
    if not rows:
        return "no logs"
    headers = {"source": "FILE", "game": "GAME", "status": "STATUS", "detail": "DETAIL"}
    widths = {k: max(len(headers[k]), *(len(r[k]) for r in rows)) for k in ("source", "game",
                                                                             "status")}
    lines = ["  ".join(headers[k].ljust(widths[k]) for k in widths) + "  " + headers["detail"]]
    if not header:
        lines = []
    colours = {"complete": "green", "incomplete": "yellow", "illegal": "red", "invalid": "red"}
    for row in rows:
        status = click.style(row["status"].ljust(widths["status"]), fg=colours[row["status"]])
        first, *more = row["detail"].split("\n")
        lines.append(f"{row['source'].ljust(widths['source'])}  {row['game'].ljust(widths['game'])}"
                     f"  {status}  {first}")
        indent = " " * (sum(widths.values()) + 2 * len(widths))
        lines.extend(indent + line for line in more)
    return "\n".join(lines)


def _pop_state(state: dict[str, Any]) -> list[str]:
    area = state["area"]
    lines = ["       " + "   ".join(f" {q}" for q in "ABCDE")]
    for r, row in enumerate(area["rows"]):
        cells = []
        for card in row:
            if card is None:
                cells.append("  .")
            else:
                cells.append(click.style(f"{card:3d}", fg=POP_COLOURS[card % 5], bold=True))
        lines.append(f"row {r:2d} " + "  ".join(cells))
    lines.append("scores " + ", ".join(f"{k} {v}" for k, v in state["scores"].items())
                 + "   totals " + ", ".join(f"{k} {v}" for k, v in state["totals"].items()))
    if state["chief_pending"]:
        lines.append("Chief's waiting pile: " + " ".join(map(str, state["chief_pending"])))
    return lines


def _generic_state(state: dict[str, Any]) -> list[str]:
    return [json.dumps(state, ensure_ascii=False)]


STATE_RENDERERS: dict[str, Callable[[dict[str, Any]], list[str]]] = {"pop": _pop_state}
STATE_RENDERERS["bloops"] = bloops_state
STATE_RENDERERS["cube"] = cube_state
STATE_RENDERERS["slap"] = slap_state


def step(result: dict[str, Any], item: dict[str, Any]) -> str:
    where = []
    if item["round"] is not None:
        where.append(f"round {item['round']}")
    if item["turn"] is not None:
        where.append(f"turn {item['turn']}")
    head = click.style(f"[{item['index']}] {item['kind']}", bold=True)
    lines = [f"{head} {' '.join(where)}: {item['note']}"]
    if item.get("state"):
        render = STATE_RENDERERS.get(result["game"], _generic_state)
        lines.extend("    " + line for line in render(item["state"]))
    return "\n".join(lines) + "\n"


def verdict(result: dict[str, Any]) -> str:
    row = summary_row(result)
    colour = "green" if result["status"] in ("complete", "incomplete") else "red"
    first, *more = row["detail"].split("\n")
    return "\n".join([click.style(f"{row['status']}", fg=colour, bold=True) + f" — {first}",
                      *(f"  {line}" for line in more)])
