"""A table's engine work within its budget and its bounds (docs/table.md, "Limits"): the state kept
between entries (the same State as a build from the start, field for field, after every entry of
a whole game of each game), 503 `busy` while the engine is busy (``/healthz`` still answers), at
most POPREPLAY_TABLE_MAX_ENTRIES entries a table (422 `table-full`), at most POPREPLAY_TABLE_MAX_STREAMS open
streams a process."""

from __future__ import annotations

import dataclasses
import threading
import time
from typing import Any

import pytest

from popreplay import budget, config
from popreplay.app import wire_tables
from popreplay.db.session import get_database
from popreplay.db.tables import TableRecord
from popreplay.engine import get_game
from popreplay.tables import fanout, state as states
from tests.tables.helpers import API, Table, bearer, game_log

SQLITE = pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)  # the state: no database's


# --- the state kept between entries --------------------------------------------------------------

class Counted:
    """Counts how each new state was made: from the start, or from the kept one before it."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.built: list[int] = []
        self.advanced: list[tuple[int, int]] = []
        built, advanced = states._built, states._advanced

        def _built(snap, rows):
            self.built.append(snap.last_seq)
            return built(snap, rows)

        def _advanced(snap, base, rows):
            self.advanced.append((base.seq, snap.last_seq))
            return advanced(snap, base, rows)

        monkeypatch.setattr(states, "_built", _built)
        monkeypatch.setattr(states, "_advanced", _advanced)


def same_as_built(app: Any, table_id: str) -> int:
    """The kept state of the table now equals a build from the start, field for field."""
    with get_database(app).session() as session:
        snap = states.Snapshot.of(session.get(TableRecord, table_id))
        rows = [states.Row.of(r) for r in states.entries(session, table_id)]
    kept = states.kept(table_id, snap.last_seq)
    assert kept is not None, f"no kept state at {snap.last_seq}"
    whole = states.build(snap, rows)
    for item in dataclasses.fields(states.State):
        if item.compare:
            assert getattr(kept, item.name) == getattr(whole, item.name), (snap.last_seq,
                                                                           item.name)
    assert kept == whole
    return snap.last_seq


def place_game(app: Any, client: Any, log: dict[str, Any], start: dict[str, Any],
               entries: list[tuple[str, str, Any]], counted: Counted) -> dict[str, Any]:
    """One phone places every entry (``(at, how, value)``); after each the kept state is the
    state built from the start, and it was made from the kept state before it."""
    made = client.post(API, json={"log": start})
    assert made.status_code == 201, made.get_json()
    table, key = made.get_json()["table"], made.get_json()["join_key"]
    host = made.get_json()["host_token"]
    seat = client.post(f"{API}/{table}/seats", json={"player": log["players"][0]},  # the keeper
                       headers=bearer(host)).get_json()["seat_token"]
    seen = 0
    for k, (at, how, value) in enumerate(entries):
        answer = client.post(f"{API}/{table}/entries", headers=bearer(seat), json={
            "id": f"p{k}", "seen": seen, "entry": {"type": "place", "at": at, "how": how,
                                                   "value": value}})
        assert answer.status_code == 201, (k, answer.get_json())
        seen = answer.get_json()["seqs"][-1]
        assert same_as_built(app, table) == seen
    assert counted.built == [0]  # from the start once (the table's creation), then never again
    assert counted.advanced == [(n, n + 1) for n in range(len(entries))]
    return client.get(f"{API}/{table}", headers=bearer(key)).get_json()


@SQLITE
def test_pop_state_after_each_entry_is_the_state_built_from_the_start(app, client, monkeypatch):
    counted = Counted(monkeypatch)
    table = Table(client, game_log())
    for name in table.log["players"]:
        assert table.join(name).status_code == 201
    part = table.part

    def checked(*args, **kw):  # each seat's part, then the kept state against a whole build
        answer = part(*args, **kw)
        assert answer.status_code == 201, answer.get_json()
        assert same_as_built(app, table.id) == answer.get_json()["seqs"][-1]
        return answer

    table.part = checked
    for r, rnd in enumerate(table.log["rounds"]):
        table.deal(r)
        for k in range(len(rnd["turns"])):
            table.turn(r, k)
    assert counted.built == [0]
    chain = counted.advanced  # each from the kept state of the request before (a whole turn: 2 rows)
    assert chain[0][0] == 0 and all(a[1] == b[0] for a, b in zip(chain, chain[1:]))
    assert all(to - since in (1, 2) for since, to in chain)
    assert chain[-1][1] == table.view("host")["seq"]
    whole = client.get(f"{API}/{table.id}/log", headers=bearer(table.host)).get_json()["log"]
    assert whole["rounds"] == table.log["rounds"]  # 3 rounds, hands and all
    assert table.view("watch")["over"] is True


@SQLITE
def test_slap_state_after_each_event_is_the_state_built_from_the_start(app, client, monkeypatch):
    log = get_game("slap").simulate(mode="timed", players=3, seed=1)
    start = {k: log[k] for k in ("format", "game", "mode", "players", "options") if k in log}
    watched = place_game(app, client, log, {**start, "events": []},
                         [("/events", "append", e) for e in log["events"]], Counted(monkeypatch))
    assert watched["log"]["events"] == log["events"] and watched["over"] is True


@SQLITE
def test_cube_state_after_each_turn_is_the_state_built_from_the_start(app, client, monkeypatch):
    log = get_game("cube").simulate(mode="standard", players=3, seed=1)
    start = {k: v for k, v in log.items() if k not in ("turns", "claimed")} | {"turns": []}
    watched = place_game(app, client, log, start, [("/turns", "append", t) for t in log["turns"]],
                         Counted(monkeypatch))
    assert watched["log"]["turns"] == log["turns"] and watched["over"] is True


@SQLITE
def test_bloops_state_after_each_event_is_the_state_built_from_the_start(app, client,
                                                                          monkeypatch):
    log = get_game("bloops").simulate(mode="classic", players=3, seed=1)
    start = {k: v for k, v in log.items() if k not in ("events", "reveal", "claimed")}
    entries = [("/events", "append", e) for e in log["events"]] + [("/reveal", "set",
                                                                    log["reveal"])]
    watched = place_game(app, client, log, {**start, "events": []}, entries,
                         Counted(monkeypatch))
    assert watched["log"]["events"] == log["events"] and watched["over"] is True


def test_a_kind_that_changes_the_past_is_built_again_from_the_start(monkeypatch):
    """The seam for corrections: a kind registered in REWRITES makes the incremental path give
    way to a build from the start, every row rewritten first."""
    log = get_game("slap").simulate(mode="timed", players=3, seed=1)
    start = {k: log[k] for k in ("format", "game", "mode", "players", "options") if k in log}
    snap = states.Snapshot(id="t", game="slap", mode=log["mode"], start={"log": {
        **start, "events": []}, "hands": False}, status="live", stored_slug=None,
        seat_tokens={}, last_seq=3)
    rows = [states.Row(n + 1, "place", "Alice", {"at": "/events", "how": "append",
                                                 "value": e, "index": n})
            for n, e in enumerate(log["events"][:2])]
    fix = states.Row(3, "fix", "Alice", {"seq": 1, "value": log["events"][0]})

    def rewrite(every):
        return [dataclasses.replace(r, body={**r.body, "value": fix.body["value"]})
                if r.seq == fix.body["seq"] else r for r in every]

    monkeypatch.setitem(states.STEPS, "fix", lambda fold, row: None)
    monkeypatch.setitem(states.REWRITES, "fix", rewrite)
    kept = states.build(dataclasses.replace(snap, last_seq=2), rows)
    assert states.advance(snap, kept, [fix]) is None  # not folded on top of the kept state
    again = states.build(snap, rows + [fix])
    assert again.seq == 3 and again.log["events"] == [log["events"][0], log["events"][1]]
    assert states.advance(snap, kept, rows[:0]) is kept  # nothing new: the kept state itself


# --- within the engine's budget ------------------------------------------------------------------

class Engine:
    """The process's one engine turn, held by another computation from ``hold()`` to ``set()``."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.holder: Any = None

    def hold(self) -> None:
        self.holder = budget.Background(self.release.wait, 30)
        time.sleep(0.05)

    def set(self) -> None:
        self.release.set()
        if self.holder is not None:
            self.holder.wait(10)


@pytest.fixture
def busy_engine():
    engine = Engine()
    yield engine
    engine.set()


def test_a_busy_engine_answers_503_busy_on_an_entry_while_healthz_answers(app, client,
                                                                          busy_engine):
    table = Table(client, game_log())
    for name in table.log["players"]:
        table.join(name)
    layout = table.log["rounds"][0]["layout"][0]
    app.config["REPLAY_WAIT"] = 0.3
    wire_tables(app)  # the use cases' limits and budget, built from the config
    busy_engine.hold()
    started = time.monotonic()
    refused = table.part("host", "round", {0: layout}, seen=0, entry_id="slow")
    assert time.monotonic() - started < 5
    assert refused.status_code == 503
    body = refused.get_json()
    assert body["code"] == 503 and body["errors"][0]["code"] == "busy"
    assert refused.headers["Retry-After"] == str(budget.RETRY_SECONDS)
    started = time.monotonic()
    health = client.get("/api/v1/healthz")
    assert health.status_code == 200 and health.get_json()["status"] == "ok"
    assert time.monotonic() - started < 1.0
    with get_database(app).session() as session:  # nothing appended
        assert session.get(TableRecord, table.id).last_seq == 0
    busy_engine.set()
    again = table.part("host", "round", {0: layout}, seen=0, entry_id="slow")
    assert again.status_code == 201 and again.get_json()["seqs"] == [1]


def test_a_busy_engine_answers_503_busy_on_a_view_and_the_log(app, client, busy_engine):
    table = Table(client, game_log())
    table.part("host", "round", {0: table.log["rounds"][0]["layout"][0]})
    states.forget(table.id)  # the next reader computes the state again
    app.config["REPLAY_WAIT"] = 0.2
    wire_tables(app)  # the use cases' limits and budget, built from the config
    busy_engine.hold()
    for path in (f"{API}/{table.id}", f"{API}/{table.id}/log", f"{API}/{table.id}/entries"):
        answer = client.get(path, headers=bearer(table.host))
        assert answer.status_code == 503, path
        assert answer.get_json()["errors"][0]["code"] == "busy" and "Retry-After" in answer.headers
    busy_engine.set()
    time.sleep(0.2)
    assert client.get(f"{API}/{table.id}", headers=bearer(table.host)).status_code == 200


# --- the bounds ----------------------------------------------------------------------------------

def test_a_table_takes_at_most_max_entries_then_422_table_full(app, client):
    app.config["TABLE_MAX_ENTRIES"] = 3
    wire_tables(app)  # the use cases' limits and budget, built from the config
    log = get_game("slap").simulate(mode="timed", players=3, seed=1)
    start = {k: log[k] for k in ("format", "game", "mode", "players", "options") if k in log}
    made = client.post(API, json={"log": {**start, "events": []}}).get_json()
    table, key = made["table"], made["join_key"]
    seat = client.post(f"{API}/{table}/seats", json={"player": "Alice"},  # the keeper
                       headers=bearer(made["host_token"])).get_json()["seat_token"]

    def send(k: int, seen: int) -> Any:
        return client.post(f"{API}/{table}/entries", headers=bearer(seat), json={
            "id": f"s{k}", "seen": seen, "entry": {"type": "place", "at": "/events",
                                                   "how": "append", "value": log["events"][k]}})

    assert [send(k, k).status_code for k in range(3)] == [201] * 3
    full = send(3, 3)
    assert full.status_code == 422
    body = full.get_json()
    [error] = body["errors"]
    assert (error["code"], error["message"], error["path"]) == ("table-full", "at most 3 entries",
                                                                 "/entry")
    assert "3" in body["message"]
    assert send(2, 2).get_json()["status"] == "duplicate"  # a retry is still a retry
    entries = client.get(f"{API}/{table}/entries", headers=bearer(key)).get_json()["entries"]
    assert [e["seq"] for e in entries] == [1, 2, 3]  # nothing appended


def test_a_part_that_completes_its_entry_needs_room_for_both_rows(app, client):
    app.config["TABLE_MAX_ENTRIES"] = 4
    wire_tables(app)  # the use cases' limits and budget, built from the config
    table = Table(client, game_log())
    for name in table.log["players"]:
        table.join(name)
    answers = table.deal(0)  # the layout, two hands, then the last hand would make 2 rows
    assert [a.status_code for a in answers] == [201, 201, 201, 422]
    assert answers[-1].get_json()["errors"][0]["code"] == "table-full"
    assert table.view("host")["seq"] == 3


def test_limits_are_read_from_the_environment(monkeypatch):
    assert config.from_environment()["TABLE_MAX_ENTRIES"] == 2000
    assert config.from_environment()["TABLE_MAX_STREAMS"] == 1000
    monkeypatch.setenv("POPREPLAY_TABLE_MAX_ENTRIES", "50")
    monkeypatch.setenv("POPREPLAY_TABLE_MAX_STREAMS", "7")
    assert config.from_environment()["TABLE_MAX_ENTRIES"] == 50
    assert config.from_environment()["TABLE_MAX_STREAMS"] == 7
    monkeypatch.setenv("POPREPLAY_TABLE_MAX_STREAMS", "many")
    with pytest.raises(ValueError, match="POPREPLAY_TABLE_MAX_STREAMS"):
        config.from_environment()


def test_at_most_max_streams_open_then_503_busy_and_polling_still_answers(app, client):
    app.config["TABLE_MAX_STREAMS"] = fanout.streams.open + 1
    app.config["TABLE_STREAM_SECONDS"] = 5
    table = Table(client, game_log())
    url, key = f"{API}/{table.id}/stream", {"Authorization": f"Bearer {table.key}"}
    first = client.get(url, headers=key, buffered=False)
    assert first.status_code == 200
    second = client.get(url, headers=key, buffered=False)
    assert second.status_code == 503 and second.mimetype == "application/json"
    body = second.get_json()
    assert body["errors"][0]["code"] == "busy" and "?wait=0" in body["message"]
    assert int(second.headers["Retry-After"]) > 0
    polled = client.get(url + "?wait=0", headers=key)  # a poll is no lasting stream: never refused
    assert polled.status_code == 200 and "event: snapshot" in polled.get_data(as_text=True)
    first.close()  # the phone went away (its stream never even started): its place is free
    again = client.get(url, headers=key, buffered=False)
    assert again.status_code == 200
    chunks = iter(again.response)
    assert next(chunks) == b"retry: 2000\n\n"
    again.close()
    assert fanout.streams.open == app.config["TABLE_MAX_STREAMS"] - 1


def test_a_stream_says_busy_and_goes_on_once_the_engine_is_free(app, client, busy_engine):
    app.config["TABLE_STREAM_SECONDS"] = 5
    table = Table(client, game_log())
    table.part("host", "round", {0: table.log["rounds"][0]["layout"][0]})
    states.forget(table.id)
    app.config["REPLAY_WAIT"] = 0.2
    wire_tables(app)  # the use cases' limits and budget, built from the config
    busy_engine.hold()
    key = {"Authorization": f"Bearer {table.key}"}
    polled = client.get(f"{API}/{table.id}/stream?wait=0", headers=key)
    assert polled.get_data(as_text=True) == "retry: 2000\n\n: busy\n\n"  # a poll: try later
    answer = client.get(f"{API}/{table.id}/stream", headers=key, buffered=False)
    chunks = iter(answer.response)
    assert next(chunks) == b"retry: 2000\n\n"
    assert next(chunks) == b": busy\n\n"
    busy_engine.set()
    text = ""
    while "event: snapshot" not in text:
        text += next(chunks).decode()
    assert "id: 1" in text
    answer.close()
