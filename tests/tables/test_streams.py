"""Following a table (issue 36; docs/table.md, "Streams"): the use case ``tables/follow.py`` as an
event generator that knows who asks, a seat handed over losing its stream at once, the streams'
limits per client and per table, a stream that never reads closed at its lifetime, Redis down,
and tokens kept out of URLs."""

from __future__ import annotations

import json
import time

from popreplay.api import tables as table_api
from popreplay.db.session import get_database
from popreplay.tables import fanout, follow as following, service, usecases
from popreplay.tables.outcomes import Deps, SeatTaken
from tests.tables.helpers import API, Table, bearer, game_log
from tests.tables.test_stream import events


def seated(client):
    table = Table(client, game_log())
    for name in table.log["players"]:
        table.join(name)
    return table


def sources(app, sub=None, *, polled=False):
    return following.Sources(
        sessions=get_database(app).session, view=table_api.table_view,
        entries=table_api.entries_seen, subscription=sub, polled=lambda: polled, work=None,
        viewer_of=service.viewer_of)


def until(chunks, needle: str, seconds: float = 10) -> str:
    text, deadline = "", time.monotonic() + seconds
    while needle not in text:
        assert time.monotonic() < deadline, text[-400:]
        text += next(chunks).decode()
    return text


# --- the use case, called directly -------------------------------------------------------------

def test_following_once_yields_the_table_as_the_viewer_may_see_it(app, client):
    table = seated(client)
    table.deal(0)
    bruno = following.Follower(service.Viewer("seat", "Bruno"), table.seats["Bruno"], "en")
    with app.app_context():
        got = list(following.follow(table.id, bruno, last_id=None, seconds=0,
                                    sources=sources(app)))
    assert [e.kind for e in got] == ["retry", "snapshot"] and got[1].id == 5
    assert got[1].data["hand"] == sorted(table.log["rounds"][0]["hands"]["Bruno"])
    assert got[1].data["you"]["player"] == "Bruno"


def test_a_token_that_no_longer_stands_for_its_viewer_gets_nothing_but_the_end(app, client):
    table = seated(client)
    table.deal(0)
    old = table.seats["Bruno"]
    assert table.client.post(f"{API}/{table.id}/seats", json={"player": "Bruno"},
                             headers=bearer(table.host)).status_code == 201  # handed over
    who = following.Follower(service.Viewer("seat", "Bruno"), old, "en")
    with app.app_context():
        got = list(following.follow(table.id, who, last_id=None, seconds=0,
                                    sources=sources(app)))
    assert [(e.kind, e.data) for e in got] == [("retry", 2000),
                                               ("end", {"reason": "seat-handed-over"})]


# --- a seat handed over loses its stream at once ------------------------------------------------

def test_a_seat_handed_over_loses_its_stream_at_once(app):
    app.config["TABLE_STREAM_SECONDS"] = 30
    client = app.test_client()
    table = seated(client)
    table.deal(0)
    answer = client.get(f"{API}/{table.id}/stream", headers=bearer(table.seats["Bruno"]),
                        buffered=False)
    chunks = iter(answer.response)
    assert "hand" in until(chunks, "event: snapshot")
    started = time.monotonic()
    handed = client.post(f"{API}/{table.id}/seats", json={"player": "Bruno"},
                         headers=bearer(table.host))
    assert handed.status_code == 201
    rest = "".join(chunk.decode() for chunk in chunks)  # the stream ends
    assert time.monotonic() - started < 5
    got = [e for e in events(rest) if "event" in e]
    assert [(e["event"], e["data"]) for e in got] == [("end", {"reason": "seat-handed-over"})]
    answer.close()
    # the new phone follows Bruno's seat; the old token is refused a new stream
    assert client.get(f"{API}/{table.id}/stream?wait=0",
                      headers=bearer(handed.get_json()["seat_token"])).status_code == 200
    assert client.get(f"{API}/{table.id}/stream?wait=0",
                      headers=bearer(table.seats["Bruno"])).status_code == 403


def test_a_hand_over_another_process_made_ends_the_stream_by_polling(app, monkeypatch):
    """No message reaches this process (memory fan-out, another worker handed the seat): the
    stream's look at the database sees the seats change."""
    monkeypatch.setattr(following, "POLL", 0.1)
    app.config["TABLE_STREAM_SECONDS"] = 30
    client = app.test_client()
    table = seated(client)
    answer = client.get(f"{API}/{table.id}/stream", headers=bearer(table.seats["Chloé"]),
                        buffered=False)
    chunks = iter(answer.response)
    until(chunks, "event: snapshot")
    with app.app_context():  # as another worker would: no publish here
        with get_database(app).session() as session:
            quiet = Deps(session=lambda: session, wait=None, publish=lambda message: None)
            taken = usecases.take_seat(quiet, table.id, service.Viewer("host"), player="Chloé")
            assert isinstance(taken, SeatTaken), taken
    rest = "".join(chunk.decode() for chunk in chunks)
    assert [e["event"] for e in events(rest) if "event" in e] == ["end"]
    answer.close()


def seat_of(table):
    return table.seats[table.log["players"][0]]


# --- limits per client and per table -----------------------------------------------------------

def open_stream(client, table, token, address="127.0.0.1"):
    return client.get(f"{API}/{table.id}/stream", headers=bearer(token), buffered=False,
                      environ_base={"REMOTE_ADDR": address})


def test_streams_are_limited_per_client_429_with_retry_after(app):
    app.config.update(TABLE_STREAM_SECONDS=30, TABLE_MAX_STREAMS_PER_CLIENT=2,
                      TABLE_MAX_STREAMS_PER_TABLE=50)
    client = app.test_client()
    mine, other = seated(client), seated(client)
    held = [open_stream(client, mine, mine.key, "10.1.1.1"),
            open_stream(client, other, other.key, "10.1.1.1")]
    assert [a.status_code for a in held] == [200, 200]
    refused = open_stream(client, mine, seat_of(mine), "10.1.1.1")
    assert refused.status_code == 429 and refused.headers["Retry-After"] == "10"
    assert refused.get_json()["errors"][0]["code"] == "too-many-streams"
    assert fanout.streams.of_client("10.1.1.1") == 2
    elsewhere = open_stream(client, mine, seat_of(mine), "10.2.2.2")  # another client
    assert elsewhere.status_code == 200
    polled = client.get(f"{API}/{mine.id}/stream?wait=0", headers=bearer(mine.key),
                        environ_base={"REMOTE_ADDR": "10.1.1.1"})
    assert polled.status_code == 200  # a poll holds no place: never refused
    held[0].close()  # the place is free at once
    assert fanout.streams.of_client("10.1.1.1") == 1
    again = open_stream(client, mine, mine.key, "10.1.1.1")
    assert again.status_code == 200
    for answer in (*held, elsewhere, again):
        answer.close()
    assert fanout.streams.of_client("10.1.1.1") == 0 and fanout.streams.of_table(mine.id) == 0


def test_streams_are_limited_per_table_503_busy(app):
    app.config.update(TABLE_STREAM_SECONDS=30, TABLE_MAX_STREAMS_PER_CLIENT=50,
                      TABLE_MAX_STREAMS_PER_TABLE=2)
    client = app.test_client()
    full, free = seated(client), seated(client)
    held = [open_stream(client, full, full.key, f"10.3.3.{k}") for k in (1, 2)]
    refused = open_stream(client, full, full.key, "10.3.3.3")
    assert refused.status_code == 503 and refused.headers["Retry-After"] == "10"
    assert refused.get_json()["errors"][0]["code"] == "busy"
    assert "this table" in refused.get_json()["message"]
    other = open_stream(client, free, free.key, "10.3.3.3")
    assert other.status_code == 200
    for answer in (*held, other):
        answer.close()
    assert fanout.streams.of_table(full.id) == 0


def test_the_stream_limits_come_from_the_environment(monkeypatch):
    from popreplay import config

    got = config.from_environment()
    assert (got["TABLE_MAX_STREAMS_PER_CLIENT"], got["TABLE_MAX_STREAMS_PER_TABLE"],
            got["TABLE_STREAM_SECONDS"]) == (64, 48, 300)
    monkeypatch.setenv("POPREPLAY_TABLE_MAX_STREAMS_PER_CLIENT", "3")
    monkeypatch.setenv("POPREPLAY_TABLE_MAX_STREAMS_PER_TABLE", "4")
    monkeypatch.setenv("POPREPLAY_TABLE_STREAM_SECONDS", "60")
    got = config.from_environment()
    assert (got["TABLE_MAX_STREAMS_PER_CLIENT"], got["TABLE_MAX_STREAMS_PER_TABLE"],
            got["TABLE_STREAM_SECONDS"]) == (3, 4, 60)


# --- Redis down --------------------------------------------------------------------------------

def test_with_redis_unreachable_streams_poll_the_database_and_say_so(app, monkeypatch):
    """POPREPLAY_REDIS_URL points at nothing: seats and entries are answered (no 500), and a
    stream says it polls and gets each entry from the database."""
    monkeypatch.setattr(following, "POLL", 0.1)
    monkeypatch.setattr(following, "KEEPALIVE", 0.5)
    app.config.update(REDIS_URL="redis://127.0.0.1:9/0", TABLE_STREAM_SECONDS=20)
    client = app.test_client()
    table = seated(client)  # seats taken: published to nowhere, answered 201
    answer = client.get(f"{API}/{table.id}/stream", headers=bearer(table.key), buffered=False)
    assert answer.status_code == 200
    chunks = iter(answer.response)
    text = until(chunks, ": polling")
    assert "Redis is not reachable" in text and "event: snapshot" in text
    sent = table.part("host", "round", {0: table.log["rounds"][0]["layout"][0]})
    assert sent.status_code == 201, sent.get_json()
    got = [e for e in events(until(chunks, "event: table")) if "event" in e]
    assert [(e["event"], e.get("id")) for e in got][-2:] == [("entry", "1"), ("table", None)]
    answer.close()
    with app.app_context():
        assert fanout.for_url(app.config["REDIS_URL"]).polled()


def test_a_redis_fanout_that_cannot_publish_still_tells_this_process(monkeypatch):
    carrier = fanout.RedisFanout("redis://127.0.0.1:9/0")
    sub = carrier.hub.join("t1")
    carrier.publish({"table": "t1", "seq": 3})  # no exception
    assert sub.get(timeout=1) == {"table": "t1", "seq": 3} and carrier.polled()
    sub.close()


# --- tokens never in URLs ----------------------------------------------------------------------

def test_a_token_in_the_url_is_refused_and_headers_are_read(client):
    table = seated(client)
    for url in (f"{API}/{table.id}/stream?token={table.key}&wait=0",
                f"{API}/{table.id}?token={table.key}",
                f"{API}/{table.id}/qr.svg?key={table.key}"):
        refused = client.get(url)
        assert refused.status_code == 400, url
        assert refused.get_json()["errors"][0]["code"] == "token-in-url"
        assert table.key not in refused.get_data(as_text=True)
    drawn = client.get(f"{API}/{table.id}/qr.svg", headers=bearer(table.key))
    assert drawn.status_code == 200 and drawn.mimetype == "image/svg+xml"
    assert drawn.get_data(as_text=True) == table.created["qr_svg"]  # the create answer's own
    assert client.get(f"{API}/{table.id}/qr.svg", headers=bearer(table.host)).status_code == 403
    assert client.get(f"{API}/{table.id}/qr.svg").status_code == 401


def test_the_access_log_writes_no_query_string_of_a_table_route():
    from datetime import timedelta
    from types import SimpleNamespace

    from gunicorn.config import Config

    from popreplay.serve_access import AccessLogger, quiet
    from popreplay.service_cli import serve_options

    assert serve_options("127.0.0.1", 8000, 1, 1)["logger_class"] == \
        "popreplay.serve_access.AccessLogger"
    logger = AccessLogger(Config())
    resp = SimpleNamespace(status="200 OK", sent=10, headers=[])
    for path, query in (("/api/v1/tables/T/stream", "token=SECRET&wait=0"),
                        ("/api/v1/tables/T/qr.svg", "key=SECRET"), ("/t/T", "seat=SECRET")):
        environ = {"REQUEST_METHOD": "GET", "RAW_URI": f"{path}?{query}", "PATH_INFO": path,
                   "QUERY_STRING": query, "SERVER_PROTOCOL": "HTTP/1.1",
                   "HTTP_REFERER": f"http://h{path}?{query}", "REMOTE_ADDR": "127.0.0.1"}
        req = SimpleNamespace(headers=[("AUTHORIZATION", "Bearer SECRET")])
        atoms = logger.atoms(resp, req, environ, timedelta(seconds=0))
        line = logger.cfg.access_log_format % atoms
        assert "SECRET" not in line and f"GET {path} HTTP/1.1" in line
        assert "SECRET" not in json.dumps({k: str(v) for k, v in atoms.items()})
    assert quiet("/api/v1/games?token=SECRET&lang=fr") == "/api/v1/games?token=-&lang=fr"
    assert quiet("/r/x?lang=fr") == "/r/x?lang=fr"


def test_a_stopping_process_ends_every_waiting_stream_and_any_new_one():
    """A closed hub (``end_streams`` closes every hub of the process on SIGTERM: the real server's
    test is in test_stream_server.py) wakes a stream waiting for its table at once, even one whose
    queue is full, and a stream that joins after it ends too; another hub goes on."""
    import threading

    hub = fanout.Hub()
    waiting, full = hub.join("t1"), hub.join("t2")
    for seq in range(fanout.QUEUE_SIZE + 1):
        full.put({"table": "t2", "seq": seq})
    got: list = []
    waiter = threading.Thread(target=lambda: got.append(waiting.get(timeout=30)))
    waiter.start()
    started = time.monotonic()
    other = fanout.Hub().join("t1")
    assert hub.close() == 2
    waiter.join(10)
    assert got == [fanout.CLOSING] and time.monotonic() - started < 5
    assert full.get(timeout=0) is fanout.CLOSING  # before the 65 messages it holds
    assert hub.join("t3").get(timeout=30) is fanout.CLOSING
    assert other.get(timeout=0) is None
