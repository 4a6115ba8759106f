"""Per-client rate limits (api/ratelimit.py): 429 with Retry-After in the one error shape, a
client under the limit never refused, others unaffected, and two hosts sharing Redis counting one
budget (mandatory with CI=true; skipped when Redis does not answer otherwise)."""

from __future__ import annotations

import os
import uuid
from typing import Any, Iterator

import pytest

from popreplay.db.session import get_database
from tests.conftest import as_bytes, migrated_app, simulated

REDIS_URL = "redis://127.0.0.1:6379/0"


def _limited(db_url: str, limits: dict[str, str], config: dict[str, Any]) -> Any:
    from popreplay import create_app

    application = create_app({"DATABASE_URL": db_url, "TESTING": True, "SECRET_KEY": "test",
                              "PUBLIC_BASE_URL": None, "RATE_LIMITS_ENABLED": True,
                              "RATE_LIMITS": limits, **config})
    return application


@pytest.fixture
def migrated(db_url: str) -> Iterator[str]:
    gen = migrated_app(db_url)
    app = next(gen)
    yield db_url
    get_database(app).dispose()


def post_game(client: Any, seed: int, **kwargs: Any) -> Any:
    return client.post("/api/v1/games", data=as_bytes(simulated("battle", 3, seed=seed)),
                       content_type="application/json", **kwargs)


def assert_refused(answer: Any, *, within: int) -> None:
    assert answer.status_code == 429
    body = answer.get_json()
    assert body["code"] == 429 and body["status"] == "Too Many Requests"
    assert body["errors"] == [] and "Retry-After" in body["message"]
    assert 1 <= int(answer.headers["Retry-After"]) <= within


def test_writes_over_the_limit_are_refused_with_retry_after(migrated):
    app = _limited(migrated, {"writes": "3/minute"}, {})
    client = app.test_client()
    assert [post_game(client, seed).status_code for seed in range(3)] == [201, 201, 201]
    assert_refused(post_game(client, 3), within=60)
    # the recorder's writes share the budget
    assert_refused(client.post("/api/v1/record/check", json={"log": {}}), within=60)
    # reads are not limited, nor another client
    assert client.get("/api/v1/games").status_code == 200
    other = post_game(client, 4, environ_base={"REMOTE_ADDR": "10.0.0.2"})
    assert other.status_code == 201
    get_database(app).dispose()


def test_a_client_under_the_limit_is_never_refused(migrated):
    app = _limited(migrated, {"writes": "8/minute"}, {})
    client = app.test_client()
    answers = [post_game(client, seed % 4).status_code for seed in range(8)]
    assert answers == [201] * 4 + [200] * 4  # duplicates count too, none refused
    get_database(app).dispose()


def test_trusted_proxy_names_the_client(migrated):
    app = _limited(migrated, {"writes": "1/minute"}, {"TRUSTED_PROXIES": 1})
    client = app.test_client()
    one = {"X-Forwarded-For": "203.0.113.7"}
    two = {"X-Forwarded-For": "203.0.113.8"}
    assert post_game(client, 1, headers=one).status_code == 201
    assert post_game(client, 2, headers=two).status_code == 201  # another client, same proxy
    assert_refused(post_game(client, 3, headers=one), within=60)
    get_database(app).dispose()


def test_replays_being_computed_are_limited_stored_ones_are_not(migrated):
    app = _limited(migrated, {"replays": "2/minute", "writes": "off"}, {"REPLAY_WAIT": None})
    client = app.test_client()
    # games of their own (a replay in this process's cache is not computed again, nor counted)
    base = uuid.uuid4().int % 10**6 + 1000
    slugs = [post_game(client, base + seed).get_json()["slug"] for seed in range(3)]
    assert client.get(f"/api/v1/games/{slugs[0]}/replay").status_code == 200
    assert client.get(f"/r/{slugs[1]}").status_code == 200  # the page computes it too
    assert_refused(client.get(f"/api/v1/games/{slugs[2]}/replay"), within=60)
    for _ in range(5):  # computed already: served, whatever the count
        assert client.get(f"/api/v1/games/{slugs[0]}/replay").status_code == 200
        assert client.get(f"/r/{slugs[1]}").status_code == 200
    get_database(app).dispose()


def test_exports_are_limited_and_limits_can_be_turned_off(migrated):
    app = _limited(migrated, {"exports": "1/minute"}, {})
    client = app.test_client()
    assert client.get("/api/v1/games/export").status_code == 200
    assert_refused(client.get("/api/v1/games/export"), within=60)
    get_database(app).dispose()
    off = _limited(migrated, {"exports": "1/minute"}, {"RATE_LIMITS_ENABLED": False})
    client = off.test_client()
    assert [client.get("/api/v1/games/export").status_code for _ in range(3)] == [200] * 3
    get_database(off).dispose()


def test_the_csv_export_shares_the_exports_budget(migrated):
    app = _limited(migrated, {"exports": "1/minute"}, {})
    client = app.test_client()
    assert client.get("/api/v1/games/export.csv").status_code == 200
    assert_refused(client.get("/api/v1/games/export"), within=60)
    get_database(app).dispose()


def test_table_entries_have_a_budget_of_their_own_and_the_stream_none(migrated):
    from tests.tables.helpers import API, bearer

    app = _limited(migrated, {"entries": "3/minute", "writes": "1/minute"}, {})
    client = app.test_client()
    start = {"format": "popreplay/1", "game": "pop", "mode": "battle",
             "players": ["Ana", "Bruno", "Chloé"], "rounds": []}
    made = client.post(API, json={"log": start}).get_json()  # the address's first
    key = made["join_key"]
    for name in ("Ana", "Bruno", "Chloé"):  # the join link's key: three
        assert client.post(f"{API}/{made['table']}/seats", json={"player": name},
                           headers=bearer(key)).status_code in (201, 409)
    assert post_game(client, 1).status_code == 201  # the writes budget is another one
    assert_refused(client.post(f"{API}/{made['table']}/seats", json={"player": "Chloé"},
                               headers=bearer(key)), within=60)
    # reading the table is never counted; another phone (the host's) has its own budget, on the
    # same address (the phones of one café)
    assert client.get(f"{API}/{made['table']}", headers=bearer(key)).status_code == 200
    named = client.post(f"{API}/{made['table']}/keeper", json={"player": "Ana"},
                        headers=bearer(made["host_token"]))
    assert named.status_code == 200
    get_database(app).dispose()


def _table_of(client: Any) -> tuple[str, str, str]:
    from tests.tables.helpers import API

    start = {"format": "popreplay/1", "game": "pop", "mode": "battle",
             "players": ["Ana", "Bruno", "Chloé"], "rounds": []}
    made = client.post(API, json={"log": start}).get_json()
    return made["table"], made["join_key"], made["host_token"]


def test_table_phones_on_one_address_count_apart(migrated):
    """The phones of one café share its address: each has its own budget (its token)."""
    from tests.tables.helpers import API, bearer

    app = _limited(migrated, {"entries": "2/minute"}, {})
    client = app.test_client()
    table, key, host = _table_of(client)
    seats = {name: client.post(f"{API}/{table}/seats", json={"player": name},
                               headers=bearer(key)).get_json()["seat_token"]
             for name in ("Ana", "Bruno")}

    def keeper(token: str) -> Any:
        return client.post(f"{API}/{table}/keeper", json={"player": None},
                           headers=bearer(token))

    assert [keeper(seats["Ana"]).status_code for _ in range(2)] == [403, 403]
    assert_refused(keeper(seats["Ana"]), within=60)
    assert [keeper(seats["Bruno"]).status_code for _ in range(2)] == [403, 403]
    assert [keeper(host).status_code for _ in range(2)] == [200, 200]
    assert_refused(keeper(host), within=60)
    get_database(app).dispose()


def test_table_writes_of_one_address_have_a_ceiling(migrated):
    from tests.tables.helpers import API, bearer

    app = _limited(migrated, {"entries": "100/minute", "rooms": "4/minute"}, {})
    client = app.test_client()
    table, key, host = _table_of(client)  # 1
    ana = client.post(f"{API}/{table}/seats", json={"player": "Ana"}, headers=bearer(key))  # 2
    assert ana.status_code == 201
    for _ in range(2):  # 3, 4
        assert client.post(f"{API}/{table}/keeper", json={"player": None},
                           headers=bearer(host)).status_code == 200
    assert_refused(client.post(f"{API}/{table}/keeper", json={"player": None},
                               headers=bearer(ana.get_json()["seat_token"])), within=60)
    other = client.post(f"{API}/{table}/keeper", json={"player": None}, headers=bearer(host),
                        environ_base={"REMOTE_ADDR": "10.0.0.3"})
    assert other.status_code == 200  # another address
    get_database(app).dispose()


def redis_or_skip() -> None:
    import redis

    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
    except redis.RedisError as error:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"Redis is not reachable at {REDIS_URL} ({error}); with CI=true the "
                        "shared-limits leg is mandatory")
        pytest.skip(f"Redis is not reachable at {REDIS_URL}")


def test_two_hosts_sharing_redis_count_one_budget(migrated):
    redis_or_skip()
    prefix = f"popreplay-test-{uuid.uuid4().hex}"
    shared = {"REDIS_URL": REDIS_URL, "RATELIMIT_KEY_PREFIX": prefix}
    hosts = [_limited(migrated, {"writes": "4/minute", "replays": "off"}, dict(shared))
             for _ in range(2)]
    clients = [host.test_client() for host in hosts]
    # a client that alternates hosts: 4 accepted in all, then refused on both
    answers = [post_game(clients[seed % 2], seed).status_code for seed in range(4)]
    assert answers == [201] * 4
    assert_refused(post_game(clients[0], 10), within=60)
    assert_refused(post_game(clients[1], 11), within=60)
    # another client still has its own budget, on either host
    assert post_game(clients[1], 12, environ_base={"REMOTE_ADDR": "10.0.0.9"}).status_code == 201
    for host in hosts:
        get_database(host).dispose()
    import redis

    connection = redis.Redis.from_url(REDIS_URL)
    for key in connection.scan_iter(f"{prefix}*"):
        connection.delete(key)


def test_without_redis_each_process_counts_its_share_of_a_limit(migrated: str) -> None:
    """`popreplay serve --workers 3` (POPREPLAY_PROCESSES=3): each worker's memory counts a third
    of every limit, so the workers together give one client the documented limit."""
    from popreplay.api.ratelimit import limit_of

    config = {"REDIS_URL": None, "PROCESSES": 3}
    app = _limited(migrated, {"writes": "6/minute;601/hour"}, config)
    assert limit_of(app, "writes") == "2/minute;201/hour"
    client = app.test_client()
    assert [post_game(client, seed).status_code for seed in range(1, 4)] == [201, 201, 429]
    shared = _limited(migrated, {"writes": "6/minute"}, {**config, "REDIS_URL": REDIS_URL})
    assert limit_of(shared, "writes") == "6/minute"  # Redis: one count for every process
    alone = _limited(migrated, {"writes": "6/minute"}, {"REDIS_URL": None, "PROCESSES": 1})
    assert limit_of(alone, "writes") == "6/minute"
    get_database(app).dispose()
    get_database(shared).dispose()
    get_database(alone).dispose()
