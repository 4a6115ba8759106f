"""Quick score-sheet plays (docs/log-format.md, "Score sheets"): what a paper score sheet holds,
stored as a game whose status is ``sheet`` — "score sheet, not checked move by move".

A sheet is ``{"format": "popreplay-sheet/1", "game", "mode", "players", "meta"?, "claimed"}``:
``claimed`` holds the fields the game declares a score sheet can claim for the mode
(``Game.claimable``, engine/claimable.py: POP!'s battle each player's points per round and the
winners; cube's, slap's and Bloops' their scoring summary). Required: the mode's first field,
its per-round and per-player fields and its set of winners; a total row (``sum_of``) is added
up when left out and must add up when given. The sheet's outcome is what it claims, in the shape of the engine's
outcome (the claim keys are the outcome's), so standings, statistics and ratings read a sheet
like a replayed game; nothing is replayed and nothing is called legal or illegal beyond that.
"""

from __future__ import annotations

from typing import Any

from ..engine import ENGINE_VERSION, GAMES
from ..engine.pointer import join
from ..engine.replay import Violation, invalid_result

FORMAT = "popreplay-sheet/1"
MAX_ROUNDS = 50
MAX_PLAYERS = 12

__all__ = ["FORMAT", "is_sheet", "sheet_result"]


def is_sheet(data: Any) -> bool:
    return isinstance(data, dict) and data.get("format") == FORMAT


def _problem(message: str, path: str) -> Violation:
    return Violation("schema", message, path)


def _envelope(data: dict[str, Any]) -> tuple[Any, list[str], list[Violation]]:
    problems: list[Violation] = []
    name = data.get("game")
    game = GAMES.get(name) if isinstance(name, str) else None
    if game is None or not hasattr(game, "claimable"):
        problems.append(_problem(f"game must be one of {', '.join(GAMES)}", "/game"))
    elif data.get("mode") not in game.modes:
        problems.append(_problem(f"mode must be one of {', '.join(game.modes)}", "/mode"))
    players = data.get("players")
    if (not isinstance(players, list) or not 1 <= len(players) <= MAX_PLAYERS
            or not all(isinstance(p, str) and p.strip() and len(p) <= 200 for p in players)
            or len(set(players)) != len(players)):
        problems.append(_problem(f"players: 1 to {MAX_PLAYERS} different names", "/players"))
        players = []
    unknown = set(data) - {"format", "game", "mode", "players", "meta", "claimed"}
    for key in sorted(unknown):
        problems.append(_problem("unknown key (misspelt?)", join("", key)))
    if data.get("meta") is not None and not isinstance(data.get("meta"), dict):
        problems.append(_problem("meta must be an object", "/meta"))
    if not isinstance(data.get("claimed"), dict):
        problems.append(_problem("claimed must be an object: the score sheet", "/claimed"))
    return game, players, problems


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) < 10**6


def _per_player(value: Any, players: list[str], path: str) -> list[Violation]:
    if not isinstance(value, dict) or set(value) != set(players) or not all(
            _whole(v) for v in value.values()):
        return [_problem("one whole number per player", path)]
    return []


def _check_field(spec: dict[str, Any], value: Any, players: list[str],
                 path: str) -> list[Violation]:
    kind = spec["kind"]
    if kind == "rounds":
        if not isinstance(value, list) or not 1 <= len(value) <= MAX_ROUNDS:
            return [_problem(f"1 to {MAX_ROUNDS} rounds", path)]
        out: list[Violation] = []
        for i, row in enumerate(value):
            where = join(join(path, str(i)), spec["field"])
            out += _per_player(row.get(spec["field"]) if isinstance(row, dict) else None,
                               players, where)
        return out
    if kind == "per-player":
        return _per_player(value, players, path)
    if kind == "players":
        ok = isinstance(value, list) and value and all(p in players for p in value) \
            and len(set(value)) == len(value)
        return [] if ok else [_problem("some of the players, by name", path)]
    if kind == "player":
        return [] if value in players else [_problem("one of the players", path)]
    if kind == "choice":
        return [] if value in spec["choices"] else [
            _problem(f"one of {', '.join(spec['choices'])}", path)]
    return [] if isinstance(value, bool) else [_problem("true or false", path)]


def _outcome(fields: list[dict[str, Any]], claimed: dict[str, Any], players: list[str]
             ) -> tuple[dict[str, Any], list[Violation]]:
    outcome = dict(claimed)
    problems: list[Violation] = []
    for spec in fields:
        source = spec.get("sum_of")
        if spec["kind"] != "per-player" or source is None or source not in claimed:
            continue
        part = next(f["field"] for f in fields if f["key"] == source)
        totals = {p: sum(row[part][p] for row in claimed[source]) for p in players}
        if spec["key"] in claimed and claimed[spec["key"]] != totals:
            problems.append(_problem(f"the totals are not the sum of the {source}",
                                     join("/claimed", spec["key"])))
        outcome[spec["key"]] = totals
    return outcome, problems


def sheet_result(data: dict[str, Any]) -> dict[str, Any]:
    """The result object of a score sheet: ``sheet`` with its outcome, or ``invalid`` with every
    problem and its JSON Pointer."""
    game, players, problems = _envelope(data)
    mode = data.get("mode")
    if problems:
        return invalid_result(problems, game=data.get("game"), mode=mode)
    fields = game.claimable(mode)
    claimed: dict[str, Any] = data["claimed"]
    keys = {f["key"] for f in fields}
    problems += [_problem("not on this game's score sheet", join("/claimed", k))
                 for k in sorted(set(claimed) - keys)]
    for k, spec in enumerate(fields):
        path = join("/claimed", spec["key"])
        if spec["key"] not in claimed:
            if k == 0 or spec["kind"] in ("rounds", "players") or (
                    spec["kind"] == "per-player" and "sum_of" not in spec):
                problems.append(_problem("required on a score sheet", path))
            continue
        problems += _check_field(spec, claimed[spec["key"]], players, path)
    if problems:
        return invalid_result(problems, game=data.get("game"), mode=mode)
    outcome, problems = _outcome(fields, claimed, players)
    if problems:
        return invalid_result(problems, game=data.get("game"), mode=mode)
    return {"game": data["game"], "mode": mode, "engine": ENGINE_VERSION, "status": "sheet",
            "legal": True, "errors": [], "outcome": outcome, "claims": None}
