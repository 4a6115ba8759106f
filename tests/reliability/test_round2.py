"""Hardening round 2 (issue 15): one regression test per finding, on SQLite and PostgreSQL where
the finding depends on the database. The live-server findings (slow clients, two servers) are in
``test_slow_clients.py`` and ``test_two_servers.py``; docs/reliability.md lists them all."""

from __future__ import annotations

import io
import json
import unicodedata
from typing import Any

import pytest
import sqlalchemy as sa

from popreplay import store
from popreplay.checking import check_json
from popreplay.db import migrate
from popreplay.db.models import GamePlayer, GameRecord
from popreplay.db.session import get_database, make_engine
from popreplay.logformat import parse_json
from tests.conftest import as_bytes, migrated_app, simulated

MiB = 1024 * 1024


def post(client: Any, raw: bytes, **kwargs: Any) -> Any:
    return client.post("/api/v1/games", data=raw, content_type="application/json", **kwargs)


def count_games(app: Any) -> int:
    with get_database(app).session() as session:
        return session.scalar(sa.select(sa.func.count()).select_from(GameRecord))


# --- 1. lone surrogates --------------------------------------------------------------------------


def test_1_a_lone_surrogate_is_refused_with_its_pointer(app, client):
    text = json.dumps(simulated("battle", 3, seed=81), ensure_ascii=True)
    raw = text.replace('"Alice"', '"A\\ud800"', 1).encode()  # the first one: players/0
    response = post(client, raw)
    assert response.status_code == 422
    error = response.get_json()["errors"][0]
    assert (error["code"], error["path"]) == ("json", "/players/0")
    assert "lone surrogate" in error["message"]
    assert count_games(app) == 0
    checked = client.post("/api/v1/validate", data=raw, content_type="application/json")
    assert checked.get_json()["errors"][0]["path"] == "/players/0"
    # a pair is one character, and fine
    paired = text.replace('"Alice"', '"A\\ud83d\\ude00"').encode()
    assert post(client, paired).status_code == 201


def test_1_every_page_renders_a_lone_surrogate_stored_before(tmp_path):
    """A game stored before the refusal (SQLite kept it; PostgreSQL's JSON refuses the escape):
    the home page, its share page and the API answer 200, with U+FFFD where it cannot be sent."""
    url = f"sqlite:///{tmp_path / 'old.sqlite'}"
    for app in migrated_app(url):
        text = json.dumps(simulated("battle", 3, seed=83, meta={"title": "T\ud800"}),
                          ensure_ascii=True)
        raw = text.replace('"Alice"', '"A\\udc00"').encode()
        data = json.loads(raw)
        with app.app_context():
            session = get_database(app).session()
            record = store._new_record(raw, store.content_hash(raw), check_json(data),
                                       visibility="public", owner_token_hash=None, data=data,
                                       identity=store.canonical_hash(data))
            store._commit_new(session, record)
            slug = record.slug
            session.close()
        client = app.test_client()
        home = client.get("/")
        assert home.status_code == 200
        assert "A\ufffd" in home.get_data(as_text=True)
        page = client.get(f"/r/{slug}")
        assert page.status_code == 200
        assert "A\ufffd" in page.get_data(as_text=True)
        for path in ("", "/log", "/replay"):
            assert client.get(f"/api/v1/games/{slug}{path}").status_code == 200


# --- 4. chunked bodies over the limit ------------------------------------------------------------


def chunked(client: Any, path: str, body: bytes) -> Any:
    """A body without Content-Length, ended by the server (as gunicorn does for chunked)."""
    return client.post(path, input_stream=io.BytesIO(body), content_type="application/json",
                       environ_overrides={"wsgi.input_terminated": True})


def test_4_a_chunked_body_over_the_limit_is_413_and_nothing_is_stored(app, client):
    log = simulated("battle", 3, seed=84)
    raw = as_bytes(log)
    created = chunked(client, "/api/v1/games", raw)
    assert created.status_code == 201
    assert client.get(f"/api/v1/games/{created.get_json()['slug']}/log").data == raw

    log["meta"] = {"note": "x" * MiB}  # well-formed, one byte... a mebibyte over the limit
    big = as_bytes(simulated("battle", 3, seed=85, meta={"note": "x" * MiB}))
    assert len(big) > MiB
    refused = chunked(client, "/api/v1/games", big)
    assert refused.status_code == 413
    assert refused.get_json()["code"] == 413
    assert count_games(app) == 1
    assert chunked(client, "/api/v1/validate", big).status_code == 413


def test_4_a_chunked_body_of_exactly_the_limit_is_read_whole(app, client):
    raw = as_bytes(simulated("battle", 3, seed=86))
    padded = raw[:-1] + b" " * (MiB - len(raw)) + b"}"
    assert len(padded) == MiB
    response = chunked(client, "/api/v1/games", padded)
    assert response.status_code == 201, response.get_json()
    assert client.get(f"/api/v1/games/{response.get_json()['slug']}/log").data == padded


# --- 6. the same game in other bytes -------------------------------------------------------------


def respellings(log: dict[str, Any]) -> list[bytes]:
    """The same game six ways: as sent, pretty, keys reversed, ASCII escapes, NFD, and a BOM."""
    def reverse(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: reverse(v) for k, v in reversed(list(value.items()))}
        if isinstance(value, list):
            return [reverse(v) for v in value]
        return value

    nfd = json.loads(json.dumps(log), object_hook=lambda d: {
        unicodedata.normalize("NFD", k): v for k, v in d.items()})
    nfd = json.loads(unicodedata.normalize("NFD", json.dumps(nfd, ensure_ascii=False)))
    return [
        json.dumps(log, ensure_ascii=False).encode(),
        json.dumps(log, ensure_ascii=False, indent=2).encode(),
        json.dumps(reverse(log), ensure_ascii=False).encode(),
        json.dumps(log, ensure_ascii=True).encode(),
        json.dumps(nfd, ensure_ascii=False).encode(),
        b"\xef\xbb\xbf" + json.dumps(log, separators=(",", ":")).encode(),
    ]


def test_6_the_same_game_in_other_bytes_is_the_game_already_stored(app, client):
    log = simulated("battle", 3, seed=87)
    log["players"] = ["Zoé", "Cléo", "Bob"]
    text = json.dumps(log, ensure_ascii=False)
    text = text.replace('"Alice"', '"Zoé"').replace('"Carol"', '"Cléo"')
    log = json.loads(text)
    variants = respellings(log)
    assert len(set(variants)) == 6
    first = post(client, variants[0])
    assert first.status_code == 201, first.get_json()
    game_id = first.get_json()["id"]
    for raw in variants[1:]:
        again = post(client, raw)
        assert again.status_code == 200, again.get_json()
        assert again.get_json()["id"] == game_id
        assert "owner_token" not in again.get_json()
    assert count_games(app) == 1
    assert client.get(f"/api/v1/games/{game_id}/log").data == variants[0]  # as first sent
    stats = client.get("/api/v1/players/Zoé").get_json()["stats"]
    assert stats[0]["games"] == 1
    # another game is another game
    assert post(client, as_bytes(simulated("battle", 3, seed=88))).status_code == 201


def test_6_canonical_hash_reads_numbers_as_the_parser_does():
    assert (store.canonical_hash(parse_json(b'{"a":3.0,"b":"\\u00e9"}'))
            == store.canonical_hash(parse_json('{"b":"e\u0301",  "a":3}'.encode())))
    assert (store.canonical_hash(parse_json(b'{"a":3.5}'))
            != store.canonical_hash(parse_json(b'{"a":3}')))


GAMES_0003 = sa.table(
    "games", *(sa.column(name) for name in (
        "slug", "content_hash", "log", "game", "mode", "players", "title", "played_at", "status",
        "legal", "claims_match", "errors", "outcome", "claims", "engine_version", "visibility",
        "owner_token_hash", "created_at")))


def insert_0003(connection: Any, raw: bytes, slug: str) -> int:
    """A game as revision 0003 stored it (before the canonical hash), with its seats."""
    result = check_json(parse_json(raw))
    data = json.loads(raw)
    connection.execute(GAMES_0003.insert().values(
        slug=slug, content_hash=store.content_hash(raw), log=raw, game=result["game"],
        mode=result["mode"], players=json.dumps(data["players"]), title=None, played_at=None,
        status=result["status"], legal=result["legal"], claims_match=None,
        errors=json.dumps(result["errors"]), outcome=json.dumps(result["outcome"]),
        claims=json.dumps(result["claims"]), engine_version=result["engine"],
        visibility="public", owner_token_hash=None, created_at=sa.func.now()))
    game_id = connection.execute(sa.text("SELECT id FROM games WHERE slug = :s"),
                                 {"s": slug}).scalar()
    for position, name in enumerate(data["players"]):
        connection.execute(sa.text("INSERT INTO game_players (game_id, position, name) "
                                   "VALUES (:g, :p, :n)"), {"g": game_id, "p": position, "n": name})
    return game_id


def test_6_migration_0004_fills_the_hash_and_reports_duplicates(db_url, capsys):
    migrate.upgrade(db_url, "0003")
    log = simulated("battle", 3, seed=89)
    same = [json.dumps(log).encode(), json.dumps(log, indent=1).encode()]
    other = as_bytes(simulated("battle", 3, seed=90))
    engine = make_engine(db_url, pooled=False)
    try:
        with engine.begin() as connection:
            ids = [insert_0003(connection, raw, f"slug-{i}x")
                   for i, raw in enumerate([same[0], other, same[1]])]
        capsys.readouterr()
        migrate.upgrade(db_url, "0004")
        report = capsys.readouterr().err
        assert "3 games hashed, 1 duplicates found" in report
        assert f'{{"id": {ids[2]}, "slug": "slug-2x", "same_as": {ids[0]}}}' in report
        with engine.connect() as connection:
            rows = dict(connection.execute(sa.text("SELECT id, canonical_hash FROM games")).all())
            seats = connection.execute(sa.text("SELECT count(*) FROM game_players")).scalar()
        assert rows[ids[0]] == store.canonical_hash(json.loads(same[0]))
        assert rows[ids[1]] == store.canonical_hash(json.loads(other))
        assert rows[ids[2]] is None
        assert seats == 9  # the SQLite rebuild kept every seat (no cascade on the old table)
    finally:
        engine.dispose()
    for app in migrated_app(db_url):
        client = app.test_client()
        assert client.get("/api/v1/games/slug-2x").status_code == 200  # still at its link
        again = post(client, json.dumps(log, indent=4).encode())
        assert (again.status_code, again.get_json()["id"]) == (200, ids[0])


# --- 11. ids are never given again ---------------------------------------------------------------


def test_11_the_id_of_a_deleted_game_is_never_given_again(client):
    first = post(client, as_bytes(simulated("battle", 3, seed=91))).get_json()
    newest = post(client, as_bytes(simulated("battle", 3, seed=92))).get_json()
    deleted = client.delete(f"/api/v1/games/{newest['id']}",
                            headers={"Authorization": f"Bearer {newest['owner_token']}"})
    assert deleted.status_code == 204
    third = post(client, as_bytes(simulated("battle", 3, seed=93))).get_json()
    assert third["id"] > newest["id"] > first["id"]
    assert client.get(f"/api/v1/games/{newest['id']}").status_code == 404
    assert client.get(f"/r/{newest['slug']}").status_code == 404
