"""Limits, each tested at its edge: request body (413, configurable), NDJSON body and lines per
request, players / names / rounds / turns / cards / events per log, JSON nesting depth. A log past
a size limit is invalid (a shape error at the offending place), never a 500 and never stored."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from popreplay.checking import check_text
from popreplay.config import MiB
from popreplay.engine import get_game
from popreplay.games.bloops import logformat as bloops_shape
from popreplay.games.cube import logformat as cube_shape
from popreplay.logformat import limits
from popreplay.games.slap import logformat as slap_shape
from tests.conftest import as_bytes, made_app, simulated


def game_log(name: str, seed: int = 7) -> dict[str, Any]:
    if name == "pop":
        return simulated("battle", 3, seed=seed)
    game = get_game(name)
    return game.simulate(mode=game.modes[0], players=3, seed=seed)


def errors_of(log: Any) -> list[dict[str, Any]]:
    result = check_text(json.dumps(log).encode())
    assert result["status"] == "invalid", result["status"]
    return result["errors"]


# --- request bodies ------------------------------------------------------------------------------


def test_the_default_body_limit_is_one_mebibyte(app):
    assert app.config["MAX_CONTENT_LENGTH"] == MiB
    client = app.test_client()
    log = simulated("battle", 3, seed=11)
    # Pad with whitespace (meta strings are bounded) to exactly 1 MiB, then one byte more.
    raw = as_bytes(log)
    exact = raw[:-1] + b" " * (MiB - len(raw)) + b"}"
    assert len(exact) == MiB
    assert client.post("/api/v1/games", data=exact, content_type="application/json"
                       ).status_code == 201
    over = client.post("/api/v1/games", data=b" " + exact, content_type="application/json")
    assert over.status_code == 413
    assert over.get_json()["code"] == 413 and over.get_json()["errors"] == []


def test_the_body_limit_comes_from_the_environment(monkeypatch, db_url):
    monkeypatch.setenv("POPREPLAY_MAX_BODY", "5000")
    with made_app({"DATABASE_URL": db_url}) as app:
        assert app.config["MAX_CONTENT_LENGTH"] == 5000
        response = app.test_client().post("/api/v1/validate", data=b" " * 5001,
                                          content_type="application/json")
        assert response.status_code == 413


def test_a_body_without_content_length_is_limited_too(app):
    """A chunked body (no Content-Length) is cut at the limit: 413, not read to the end."""
    client = app.test_client()
    body = io.BytesIO(b" " * (3 * MiB))
    response = client.post("/api/v1/games", input_stream=body, content_type="application/json",
                           environ_base={"wsgi.input_terminated": True})
    assert response.status_code == 413
    assert response.get_json()["code"] == 413


def test_the_whole_ndjson_body_has_its_own_limit(db_url):
    with made_app({"DATABASE_URL": db_url, "MAX_NDJSON_BODY": 10_000}) as app:
        line = as_bytes(simulated("battle", 3, seed=12)) + b"\n"
        body = line * (10_000 // len(line) + 1)
        assert len(body) > 10_000
        response = app.test_client().post("/api/v1/validate", data=body,
                                          content_type="application/x-ndjson")
        assert response.status_code == 413
        assert response.get_json()["status"] == "Request Entity Too Large"


def test_ndjson_lines_per_request_are_limited(db_url, monkeypatch):
    monkeypatch.setenv("POPREPLAY_MAX_NDJSON_LINES", "3")
    with made_app({"DATABASE_URL": db_url}) as app:
        assert app.config["MAX_NDJSON_LINES"] == 3
        line = as_bytes(simulated("battle", 3, seed=13)) + b"\n"
        client = app.test_client()
        three = client.post("/api/v1/validate", data=line + b"\n" + line,
                            content_type="application/x-ndjson")
        assert [json.loads(x)["status"] for x in three.data.splitlines()] == ["complete"] * 2
        response = client.post("/api/v1/validate", data=line * 2 + b"\n" + line * 5,
                               content_type="application/x-ndjson")
        assert response.status_code == 200
        results = [json.loads(x) for x in response.data.splitlines()]
        assert [r["line"] for r in results] == [1, 2, 4]  # line 3 is blank, and counts
        assert [r["status"] for r in results] == ["complete", "complete", "invalid"]
        assert "More than 3 lines" in results[-1]["errors"][0]["message"]


@pytest.mark.slow
def test_the_default_ndjson_line_limit(sqlite_app):
    # Validation reads no database: one leg (100,001 engine checks cost ~35 s a leg)
    app = sqlite_app
    assert app.config["MAX_NDJSON_LINES"] == 100_000
    response = app.test_client().post("/api/v1/validate", data=b"{}\n" * 100_001,
                                      content_type="application/x-ndjson")
    results = [json.loads(x) for x in response.data.split(b"\n") if x]
    assert len(results) == 100_001
    assert results[-1]["line"] == 100_001
    assert "More than 100000 lines" in results[-1]["errors"][0]["message"]
    assert all("required key is missing" in r["errors"][0]["message"] for r in results[:-1])


# --- sizes inside one log ------------------------------------------------------------------------

# (game, where the list is, its limit, what the error says)
LIST_LIMITS: list[tuple[str, tuple[Any, ...], int, str]] = [
    ("pop", ("players",), limits.MAX_PLAYERS, "players"),
    ("pop", ("rounds",), limits.MAX_ROUNDS, "rounds"),
    ("pop", ("rounds", 0, "turns"), limits.MAX_TURNS, "turns"),
    ("pop", ("rounds", 0, "layout"), limits.MAX_ROWS, "rows"),
    ("pop", ("rounds", 0, "hands", "Alice"), limits.MAX_CARDS, "cards"),
    ("slap", ("players",), limits.MAX_PLAYERS, "players"),
    ("slap", ("events",), slap_shape.MAX_EVENTS, "events"),
    ("bloops", ("players",), bloops_shape.MAX_PLAYERS, "players"),
    ("bloops", ("events",), bloops_shape.MAX_EVENTS, "events"),
    ("cube", ("players",), limits.MAX_PLAYERS, "players"),
    ("cube", ("turns",), cube_shape.MAX_TURNS, "turns"),
]


# Lists of moves bound a replay's work: their error points at the first move past the limit.
MOVES = {("events",): "in one log", ("turns",): "in one log",
         ("rounds", 0, "turns"): "in one round"}


def at(log: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        log = log[key]
    return log


@pytest.mark.parametrize(("game", "path", "limit", "what"), LIST_LIMITS,
                         ids=[f"{g}-{'/'.join(map(str, p))}" for g, p, _, _ in LIST_LIMITS])
def test_a_list_one_past_its_limit_is_a_shape_error_at_that_list(game, path, limit, what):
    log = game_log(game)
    items = at(log, path)
    filler = items[-1]
    parent = at(log, path[:-1])
    parent[path[-1]] = (items * (limit // len(items) + 2))[: limit + 1]
    if len(parent[path[-1]]) < limit + 1:  # pragma: no cover - lists are never empty here
        parent[path[-1]] += [filler] * (limit + 1 - len(parent[path[-1]]))
    pointer = "/" + "/".join(map(str, path))
    errors = errors_of(log)
    if path in MOVES:  # a list of moves: the first one past the limit, where to cut the log
        pointer, message = f"{pointer}/{limit}", (f"at most {limit} {what} {MOVES[path]}: "
                                                  "this one is past the limit")
    else:
        message = f"at most {limit} {what}"
    assert any(e["path"] == pointer and e["message"] == message for e in errors), errors
    # at the limit itself the list is not refused for its length
    parent[path[-1]] = parent[path[-1]][:limit]
    assert all(e["message"] != message for e in
               check_text(json.dumps(log).encode())["errors"])


@pytest.mark.parametrize("game", ["pop", "slap", "bloops", "cube"])
def test_a_player_name_past_its_limit_is_a_shape_error(game):
    log = game_log(game)
    log["players"][0] = "n" * (limits.MAX_NAME_LENGTH + 1)
    errors = errors_of(log)
    assert any(e["path"] == "/players/0" for e in errors), errors


def test_meta_nested_past_the_depth_limit_is_a_shape_error():
    log = simulated("battle", 3, seed=14)
    deep: Any = "leaf"
    for _ in range(limits.MAX_DEPTH - 2):  # the log is level 1, meta level 2
        deep = [deep]
    log["meta"] = {"deep": deep}
    assert check_text(json.dumps(log).encode())["status"] == "complete"
    log["meta"] = {"deep": [deep]}
    errors = errors_of(log)
    assert errors == [{"code": "schema", "path": "/meta", "round": None, "turn": None,
                       "message": f"nested deeper than {limits.MAX_DEPTH} levels"}]


@pytest.mark.parametrize("depth", [1_000, 100_000])
def test_json_nested_thousands_deep_is_refused_not_a_crash(client, depth):
    raw = b'{"meta": ' + b"[" * depth + b"]" * depth + b"}"
    result = check_text(raw)
    assert result["status"] == "invalid"
    response = client.post("/api/v1/games", data=raw, content_type="application/json")
    assert response.status_code in (413, 422)
    assert response.get_json()["errors"] or response.status_code == 413


def test_huge_numbers_are_refused_or_kept_exactly(client):
    log = simulated("battle", 3, seed=15)
    log["rounds"][0]["turns"][0]["chief"] = [10**40]
    result = check_text(json.dumps(log).encode())
    assert result["status"] == "illegal"
    assert result["errors"][0]["path"] == "/rounds/0/turns/0/chief"
    digits = b'{"format": "popreplay/1", "players": [' + b"9" * 5000 + b"]}"
    result = check_text(digits)
    assert result["status"] == "invalid" and result["errors"][0]["code"] == "json"
    # A claimed total of 4,000 digits is a claim that differs, stored and served exactly.
    log = simulated("battle", 3, seed=15)
    log["claimed"]["totals"]["Alice"] = 10**4000
    created = client.post("/api/v1/games", data=json.dumps(log), content_type="application/json")
    assert created.status_code == 201
    served = json.loads(client.get(f"/api/v1/games/{created.get_json()['slug']}").data)
    assert served["claims_match"] is False
    assert served["result"]["claims"]["differences"][0]["claimed"] == 10**4000


def test_an_oversized_log_is_never_stored(client):
    log = game_log("pop")
    log["players"] = [f"p{i}" for i in range(limits.MAX_PLAYERS + 1)]
    response = client.post("/api/v1/games", data=json.dumps(log), content_type="application/json")
    assert response.status_code == 422
    assert client.get("/api/v1/games").get_json()["items"] == []


def test_limits_are_what_docs_reliability_md_says():
    """The table in docs/reliability.md names the same numbers as the code."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "reliability.md").read_text("utf-8")
    for number in (limits.MAX_PLAYERS, limits.MAX_NAME_LENGTH, limits.MAX_ROUNDS,
                   limits.MAX_TURNS, limits.MAX_ROWS, limits.MAX_CARDS, limits.MAX_DEPTH,
                   slap_shape.MAX_EVENTS, bloops_shape.MAX_EVENTS, cube_shape.MAX_TURNS,
                   cube_shape.MAX_EVENTS, limits.MAX_CUBE_EVENTS):
        assert f"{number:,}" in text or str(number) in text, number
