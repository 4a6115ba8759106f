"""The same game in other bytes (pretty, reordered, escaped, NFD, with a BOM) is the game already
stored: the canonical hash, and migration 0004 that filled it in. Found in the hardening rounds of
issues 15, 16 and 25 (docs/reliability.md)."""

from __future__ import annotations

import json
import unicodedata
from typing import Any

import sqlalchemy as sa

from popreplay.checking import check_json
from popreplay.db import migrate
from popreplay.db.session import make_engine
from popreplay.logformat import parse_json
from popreplay.store.tokens import canonical_hash, content_hash
from tests.conftest import as_bytes, migrated_app, simulated
from tests.reliability.hardening import count_games, post

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
    assert (canonical_hash(parse_json(b'{"a":3.0,"b":"\\u00e9"}'))
            == canonical_hash(parse_json('{"b":"e\u0301",  "a":3}'.encode())))
    assert (canonical_hash(parse_json(b'{"a":3.5}'))
            != canonical_hash(parse_json(b'{"a":3}')))


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
        slug=slug, content_hash=content_hash(raw), log=raw, game=result["game"],
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
        assert rows[ids[0]] == canonical_hash(json.loads(same[0]))
        assert rows[ids[1]] == canonical_hash(json.loads(other))
        assert rows[ids[2]] is None
        assert seats == 9  # the SQLite rebuild kept every seat (no cascade on the old table)
    finally:
        engine.dispose()
    for app in migrated_app(db_url):
        client = app.test_client()
        assert client.get("/api/v1/games/slug-2x").status_code == 200  # still at its link
        again = post(client, json.dumps(log, indent=4).encode())
        assert (again.status_code, again.get_json()["id"]) == (200, ids[0])
