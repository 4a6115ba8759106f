"""Faults (docs/table.md "Faults"): what took effect is answered as such. With the fan-out's Redis
unreachable, a seat, an entry and storing the game answer as they did (the news is logged, not
the answer); a seat token or an owner token is never lost: a retry of the same request gets the
same one."""

from __future__ import annotations

import logging
from typing import Any, Iterator

import pytest

from popreplay.db.session import get_database
from tests.tables.helpers import API, bearer, game_log, start_of

UNREACHABLE = "redis://127.0.0.1:1/0"  # nothing listens on port 1
ALICE, BRUNO = "alice-7f3c9e21d0a4", "bruno-51e0a9c4b7d2"  # each phone's random request id


@pytest.fixture
def offline(db_url: str) -> Iterator[Any]:
    from popreplay import create_app
    from popreplay.db import migrate

    migrate.upgrade(db_url)
    app = create_app({"DATABASE_URL": db_url, "TESTING": True, "SECRET_KEY": "test",
                      "PUBLIC_BASE_URL": None, "REDIS_URL": UNREACHABLE})
    yield app
    get_database(app).dispose()


def test_with_redis_unreachable_what_took_effect_is_answered(offline, caplog):
    client = offline.test_client()
    log = game_log(seed=5)
    made = client.post(API, json={"log": start_of(log), "record_hands": True})
    assert made.status_code == 201
    table, host, key = (made.get_json()[k] for k in ("table", "host_token", "join_key"))
    with caplog.at_level(logging.WARNING):
        seat = client.post(f"{API}/{table}/seats", json={"player": "Alice", "id": ALICE},
                           headers=bearer(host))
    assert seat.status_code == 201, seat.get_json()
    # the publish failed and was logged (the fan-out delivers to this process's followers and
    # says the others poll the database: tables/fanout.py), not turned into an error
    assert any("Redis publish failed" in r.getMessage() or "fan-out" in r.getMessage()
               for r in caplog.records)
    token = seat.get_json()["seat_token"]
    again = client.post(f"{API}/{table}/seats", json={"player": "Alice", "id": ALICE},
                        headers=bearer(host))  # the answer was lost: the same token
    assert again.status_code == 200 and again.get_json()["seat_token"] == token
    bruno = client.post(f"{API}/{table}/seats", json={"player": "Bruno", "id": BRUNO},
                        headers=bearer(key))
    assert bruno.status_code == 201
    retry = client.post(f"{API}/{table}/seats", json={"player": "Bruno", "id": BRUNO},
                        headers=bearer(key))
    assert retry.status_code == 200
    assert retry.get_json()["seat_token"] == bruno.get_json()["seat_token"]
    assert client.post(f"{API}/{table}/seats", json={"player": "Bruno", "id": BRUNO + "x"},
                       headers=bearer(key)).status_code == 409  # another phone: taken
    layout = log["rounds"][0]["layout"]
    entry = client.post(f"{API}/{table}/entries", headers=bearer(token), json={
        "id": "lay", "seen": 0, "entry": {"type": "part", "entry": "round",
                                          "slots": {str(k): row for k, row in enumerate(layout)}}})
    assert entry.status_code == 201, entry.get_json()
    assert entry.get_json()["status"] == "appended" and entry.get_json()["seqs"] == [1]
    tokens = {"Alice": token, "Bruno": bruno.get_json()["seat_token"],
              "Chloé": client.post(f"{API}/{table}/seats", json={"player": "Chloé"},
                                   headers=bearer(key)).get_json()["seat_token"]}
    for k, name in enumerate(log["players"]):  # the hands: the round is whole
        hand = client.post(f"{API}/{table}/entries", headers=bearer(tokens[name]), json={
            "id": f"hand-{name}", "seen": 1, "entry": {"type": "part", "entry": "round", "slots": {
                str(len(layout) + k): log["rounds"][0]["hands"][name]}}})
        assert hand.status_code == 201, hand.get_json()
    stored = client.post(f"{API}/{table}/store", json={"visibility": "unlisted"},
                         headers=bearer(host))
    assert stored.status_code == 201, stored.get_json()
    owner = stored.get_json()["owner_token"]
    lost = client.post(f"{API}/{table}/store", json={"visibility": "unlisted"},
                       headers=bearer(host))  # the answer was lost: the same owner token
    assert lost.status_code == 200 and lost.get_json()["owner_token"] == owner
    assert lost.get_json()["slug"] == stored.get_json()["slug"]
    view = client.get(f"{API}/{table}", headers=bearer(key)).get_json()
    assert view["status"] == "stored" and view["stored"] == stored.get_json()["slug"]
    refused = client.post(f"{API}/{table}/store", json={"visibility": "unlisted"},
                          headers=bearer(token))
    assert refused.status_code == 403
    assert log["players"] == ["Alice", "Bruno", "Chloé"]
