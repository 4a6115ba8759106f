"""A stored result keeps its messages' ids and parameters (``popreplay.i18n.language_free``): a
stored game is shown in any language without running the engine again. Rows stored before the ids
were kept are re-checked once per log and language until ``popreplay revalidate`` stores them."""

from __future__ import annotations

import json
from typing import Any, Iterator

import pytest
import sqlalchemy as sa

from popreplay.engine import GAMES
from tests.conftest import simulated


@pytest.fixture
def engine_calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every replay of a log by the engine (any game, with or without steps), by game."""
    calls: list[str] = []
    for name, game in GAMES.items():
        def counted(*args: Any, _real: Any = game.replay, _name: str = name, **kwargs: Any) -> Any:
            calls.append(_name)
            return _real(*args, **kwargs)
        monkeypatch.setattr(game, "replay", counted)
    yield calls


def illegal_pop() -> dict[str, Any]:
    log = simulated("battle", 3, seed=4)
    log.pop("claimed", None)
    log["rounds"] = [dict(log["rounds"][0], turns=log["rounds"][0]["turns"][:2])]
    log["rounds"][0]["turns"][1]["plays"]["Alice"] = [99]
    return log


def unfinished_bloops() -> dict[str, Any]:
    log = GAMES["bloops"].simulate(mode="classic", players=3, seed=4)
    log.pop("claimed", None)
    log["events"] = log["events"][:6]
    log.pop("reveal", None)
    return log


def store(client: Any, log: dict[str, Any]) -> str:
    answer = client.post("/api/v1/games", data=json.dumps(log), content_type="application/json")
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()["slug"]


def stored_row(app: Any, slug: str) -> dict[str, Any]:
    from popreplay.db.session import get_database

    with get_database(app).engine.connect() as connection:
        row = connection.execute(sa.text("SELECT errors, outcome FROM games WHERE slug = :s"),
                                 {"s": slug}).one()
    return {"errors": _json(row[0]), "outcome": _json(row[1])}


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


def test_the_row_keeps_the_ids_and_parameters(app: Any, client: Any) -> None:
    pop, bloops = store(client, illegal_pop()), store(client, unfinished_bloops())
    (error,) = stored_row(app, pop)["errors"]
    assert error["message_id"] == "pop.unknown-card" and error["params"]
    assert error["message"].startswith("there is no card 99")  # the English stays beside
    outcome = stored_row(app, bloops)["outcome"]
    assert outcome["notes"] and len(outcome["note_ids"]) == len(outcome["notes"])
    assert {key["id"] for key in outcome["note_ids"]} >= {"bloops.remark.not-over"}


def test_a_stored_game_in_french_runs_no_engine(app: Any, client: Any,
                                               engine_calls: list[str]) -> None:
    pop, bloops = store(client, illegal_pop()), store(client, unfinished_bloops())
    for slug in (pop, bloops):  # the replays are computed (and stored) once, in English
        assert client.get(f"/r/{slug}").status_code == 200
    engine_calls.clear()
    game = client.get(f"/api/v1/games/{pop}?lang=fr").get_json()
    assert game["result"]["errors"][0]["message"].startswith("il n'y a pas de carte 99")
    listed = client.get("/api/v1/games?lang=fr").get_json()["items"]
    assert {g["slug"] for g in listed} == {pop, bloops}
    remarks = client.get(f"/api/v1/games/{bloops}?lang=fr").get_json()["result"]["outcome"]
    assert "note_ids" not in remarks
    assert remarks["notes"] and not any("The game" in note for note in remarks["notes"])
    page = client.get(f"/r/{pop}?lang=fr").get_data(as_text=True)
    assert "il n&#39;y a pas de carte 99" in page or "il n'y a pas de carte 99" in page
    assert client.get(f"/r/{bloops}?lang=fr").status_code == 200
    assert engine_calls == []


def test_an_older_row_is_checked_again_until_revalidated(app: Any, client: Any, runner: Any,
                                                        engine_calls: list[str]) -> None:
    from popreplay import budget
    from popreplay.db.session import get_database

    budget.clear()  # the re-check is kept per log and language, in the process: not yet done
    slug = store(client, illegal_pop())
    english = stored_row(app, slug)
    old = [{k: v for k, v in e.items() if k not in ("message_id", "params")}
           for e in english["errors"]]
    with get_database(app).engine.begin() as connection:  # as stored before the ids were kept
        connection.execute(sa.text("UPDATE games SET errors = :e WHERE slug = :s"),
                           {"e": json.dumps(old), "s": slug})
    engine_calls.clear()
    game = client.get(f"/api/v1/games/{slug}?lang=fr").get_json()
    assert game["result"]["errors"][0]["message"].startswith("il n'y a pas de carte 99")
    assert engine_calls == ["pop"]
    done = runner.invoke(["revalidate"])
    assert done.exit_code == 0, done.output
    assert "1 games checked, 0 changed" in done.output  # the same result: only the ids added
    assert stored_row(app, slug)["errors"] == english["errors"]
    engine_calls.clear()
    client.get(f"/api/v1/games/{slug}?lang=fr")
    assert engine_calls == []
