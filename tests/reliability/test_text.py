"""Odd text in a log: lone surrogates refused with their pointer (and pages that still render one
stored before), names that differ only by zero-width or full-width characters are one player. Found
in the hardening rounds of issues 15, 16 and 25 (docs/reliability.md)."""

from __future__ import annotations

import json

from popreplay.checking import check_json
from popreplay.db.session import get_database
from popreplay.store import ingestion
from popreplay.store.tokens import canonical_hash, content_hash
from tests.conftest import migrated_app, simulated
from tests.reliability.hardening import (
    count_games,
    nothing_kept,  # noqa: F401  (autouse: no engine work kept)
    post,
    small_cube,
    upload,
)

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
            record = ingestion._new_record(raw, digest=content_hash(raw), result=check_json(data),
                                           visibility="public", owner_token_hash=None,
                                           data=data, identity=canonical_hash(data))
            ingestion._commit_new(session, record)
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


# --- names that look alike ------------------------------------------------------------

def test_zero_width_and_full_width_variants_of_a_name_are_one_player(client):
    names = ["Cléo", "Cl\u200béo", "Ｃｌéｏ"]
    for k, name in enumerate(names):
        log = small_cube(k + 1)
        first = log["players"][0]
        upload(client, json.loads(json.dumps(log, ensure_ascii=False).replace(
            f'"{first}"', json.dumps(name, ensure_ascii=False))))
    player = client.get("/api/v1/players/Cléo").get_json()
    assert sum(row["games"] for row in player["stats"]) == 3
    assert len(client.get("/api/v1/games?player=cleo").get_json()["items"]) == 3
    assert len(client.get("/api/v1/games?player=Cl%E2%80%8Beo").get_json()["items"]) == 3
