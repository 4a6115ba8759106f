"""GET /api/v1/tables/{id}/stream: Server-Sent Events with sequence numbers as ids,
Last-Event-ID resume, a snapshot when a phone is far behind, keep-alives; the fan-out through
memory and through Redis (two apps on one database: two hosts)."""

from __future__ import annotations

import json
import socket

import pytest

from popreplay.api import tables as table_api
from popreplay.tables import fanout, follow as following
from tests.tables.helpers import API, Table, game_log


def events(text: str) -> list[dict]:
    out = []
    for block in text.strip().split("\n\n"):
        item: dict = {"comment": block.startswith(":")}
        for line in block.splitlines():
            key, _, value = line.partition(": ")
            if key in ("id", "event", "data", "retry"):
                item[key] = json.loads(value) if key == "data" else value
        out.append(item)
    return out


def read(client, table, token, **headers):
    answer = client.get(f"{API}/{table.id}/stream?wait=0",
                        headers={"Authorization": f"Bearer {token}", **headers})
    assert answer.status_code == 200 and answer.mimetype == "text/event-stream"
    assert answer.headers["X-Accel-Buffering"] == "no"
    return [e for e in events(answer.get_data(as_text=True)) if "event" in e]


def seated(client):
    table = Table(client, game_log())
    for name in table.log["players"]:
        table.join(name)
    return table


def test_a_first_connection_gets_a_snapshot_with_the_last_sequence_number(client):
    table = seated(client)
    table.deal(0)
    [snap] = read(client, table, table.key)
    assert snap["event"] == "snapshot" and snap["id"] == "5"
    assert snap["data"]["seq"] == 5 and "hands" not in snap["data"]["log"]["rounds"][0]


def test_last_event_id_resumes_with_the_entries_missed_then_the_table(client):
    table = seated(client)
    table.deal(0)
    got = read(client, table, table.seats["Bruno"], **{"Last-Event-ID": "2"})
    assert [(e["event"], e.get("id")) for e in got] == [
        ("entry", "3"), ("entry", "4"), ("entry", "5"), ("table", None)]
    assert "cards" in got[0]["data"] and got[0]["data"]["by"] == "Bruno"  # Bruno's own part
    assert "cards" not in got[1]["data"]  # Chloé's hand: not Bruno's to see
    assert got[-1]["data"]["hand"] == sorted(table.log["rounds"][0]["hands"]["Bruno"])


def test_a_phone_too_far_behind_gets_a_snapshot(client, monkeypatch):
    monkeypatch.setattr(following, "SNAPSHOT_GAP", 2)
    table = seated(client)
    table.deal(0)
    [snap] = read(client, table, table.key, **{"Last-Event-ID": "1"})
    assert snap["event"] == "snapshot" and snap["id"] == "5"


def test_a_live_stream_sends_keepalives_and_each_new_entry(app, monkeypatch):
    monkeypatch.setattr(following, "KEEPALIVE", 0.2)
    app.config["TABLE_STREAM_SECONDS"] = 3
    client = app.test_client()
    table = seated(client)
    answer = client.get(f"{API}/{table.id}/stream", headers={"Authorization": f"Bearer {table.key}"},
                        buffered=False)
    chunks = iter(answer.response)
    first = "".join(next(chunks).decode() for _ in range(2))
    assert "event: snapshot" in first and "id: 0" in first
    assert next(chunks) == b": keep-alive\n\n"
    table.part("host", "round", {0: table.log["rounds"][0]["layout"][0]})
    text = ""
    while "event: table" not in text:
        text += next(chunks).decode()
    got = [e for e in events(text) if "event" in e]
    assert [(e["event"], e.get("id")) for e in got] == [("entry", "1"), ("table", None)]
    assert got[0]["data"]["by"] is None and "cards" not in got[0]["data"]  # the host's part
    answer.close()


def redis_up() -> bool:
    try:
        socket.create_connection(("127.0.0.1", 6379), timeout=1).close()
        return True
    except OSError:
        return False


@pytest.mark.skipif(not redis_up(), reason="Redis is not reachable at 127.0.0.1:6379")
def test_two_hosts_through_redis_see_each_others_entries(db_url, monkeypatch):
    """Two apps (two hosts) on one database and one Redis: a seat on host B follows the stream
    while a seat on host A enters; B's stream gets the entry through Redis only (the hosts share
    no memory fan-out)."""
    from tests.conftest import migrated_app

    url = "redis://127.0.0.1:6379/0"
    monkeypatch.setattr(following, "KEEPALIVE", 0.2)
    host_a = migrated_app(db_url)
    app_a = next(host_a)
    from popreplay import create_app
    from popreplay.app import wire_tables

    app_b = create_app({"DATABASE_URL": db_url, "TESTING": True, "SECRET_KEY": "t"})
    for one in (app_a, app_b):
        one.config["REDIS_URL"] = url
        one.config["TABLE_STREAM_SECONDS"] = 5
        wire_tables(one)  # the use cases publish through Redis (built from the config)
    fan_a, fan_b = fanout.RedisFanout(url), fanout.RedisFanout(url)
    which = {id(app_a): fan_a, id(app_b): fan_b}
    monkeypatch.setattr(table_api, "hub",
                        lambda: which[id(table_api.current_app._get_current_object())])
    a, b = app_a.test_client(), app_b.test_client()
    table = seated(a)
    answer = b.get(f"{API}/{table.id}/stream",
                   headers={"Authorization": f"Bearer {table.seats['Bruno']}"}, buffered=False)
    chunks = iter(answer.response)
    text = "".join(next(chunks).decode() for _ in range(2))
    assert "event: snapshot" in text
    table.client = a
    table.part("host", "round", {0: table.log["rounds"][0]["layout"][0]})
    text = ""
    while "event: table" not in text:
        text += next(chunks).decode()
    got = [e for e in events(text) if "event" in e]
    assert got[0]["event"] == "entry" and got[0]["id"] == "1"
    assert fan_a.hub.count() == 0 and fan_b.hub.count() == 1
    answer.close()
    from popreplay.db.session import get_database

    get_database(app_b).dispose()
    for fan in (fan_a, fan_b):
        fan.redis.close()
    next(host_a, None)
