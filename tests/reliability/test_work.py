"""The work of one replay is bounded (issue 15, finding 3; docs/reliability.md, "Work per replay"):
moves per log (slap's events, cube's events of all turns) are limited, a log past a limit is
refused where it is checked (upload 422, validation ``invalid``, the command line) with the pointer
of the first move past it, and the heaviest log at a limit replays to a bounded number of bytes.
A long game's share page is rendered from what was stored, never by parsing its replay again."""

from __future__ import annotations

import copy
import gzip
import json
from typing import Any

import pytest

from popreplay.checking import check_text
from popreplay.engine.registry import get_game
from popreplay.jsonout import compact
from popreplay.logformat import ShapeError, check_shape, limits
from popreplay.games.slap import logformat as slap_shape
from popreplay.store import replays
from popreplay.store.replays import RETRY_PENDING_SECONDS
from tests.reliability.biggest import heaviest_slap
from tests.reliability import hardening
from tests.reliability.test_long_replays import long_slap

# What a first replay fetch may produce at most (measured at the limits: slap 20.3 MB, cube about
# 19 MB scaled from its longest simulated games; docs/reliability.md). Before the limits, the
# heaviest slap log gave 54.6 MB.
REPLAY_BYTES_BUDGET = 24_000_000


def errors_at(result: dict[str, Any]) -> list[tuple[str, str]]:
    return [(e["path"], e["message"]) for e in result["errors"]]


def test_slap_events_past_the_limit_are_refused_at_the_first_one_past_it(client, runner,
                                                                         tmp_path):
    limit = slap_shape.MAX_EVENTS
    assert limit == 5_000
    at_limit = long_slap(limit - 2, illegal=False)  # two flips and the slaps: exactly the limit
    assert check_text(at_limit)["status"] == "incomplete"
    past = long_slap(limit - 1, illegal=False)
    expected = [(f"/events/{limit}",
                 f"at most {limit} events in one log: this one is past the limit")]
    result = check_text(past)
    assert result["status"] == "invalid"
    assert errors_at(result) == expected

    upload = client.post("/api/v1/games", data=past, content_type="application/json")
    assert upload.status_code == 422
    assert errors_at(upload.get_json()) == expected
    assert client.get("/api/v1/games").get_json()["items"] == []
    checked = client.post("/api/v1/validate", data=past, content_type="application/json")
    assert checked.status_code == 200 and errors_at(checked.get_json()) == expected
    assert client.post("/api/v1/games", data=at_limit,
                       content_type="application/json").status_code == 201

    path = tmp_path / "long.json"
    path.write_bytes(past)
    shown = runner.invoke(["validate", str(path)])
    assert shown.exit_code == 2
    assert (f"invalid  schema: at most {limit} events in one log: this one is past the limit "
            f"at /events/{limit}") in shown.stdout


def cube_with_events(total: int) -> dict[str, Any]:
    """A cube log (a real game's turns, then turns of 64 events each) with ``total`` events in all;
    its shape is right but for the total, its moves are not legal (not the point here)."""
    log = get_game("cube").simulate(mode="standard", players=2, seed=3)
    turns = log["turns"]
    have = sum(len(t.get("events") or ()) for t in turns)
    assert have < total
    event = {"play": "PB-1", "step": "CROSS"}
    while have < total:
        count = min(64, total - have)
        turns.append({"player": log["players"][len(turns) % 2], "events": [event] * count})
        have += count
    return log


def test_cube_events_of_all_turns_together_are_limited_on_both_paths():
    limit = limits.MAX_CUBE_EVENTS
    at_limit = cube_with_events(limit)
    check_shape(copy.deepcopy(at_limit))  # the exact path accepts it
    assert all("events in one log" not in m
               for _, m in errors_at(check_text(json.dumps(at_limit))))
    past = cube_with_events(limit + 1)
    turn = len(past["turns"]) - 1
    where = sum(len(t.get("events") or ()) for t in past["turns"][:turn])
    expected = [(f"/turns/{turn}/events/{limit - where}",
                 f"at most {limit} events in one log (all turns together): this one is past "
                 "the limit")]
    assert errors_at(check_text(json.dumps(past))) == expected  # the fast path (JSON Schema)
    with pytest.raises(ShapeError) as refused:  # the exact path (marshmallow)
        check_shape(copy.deepcopy(past))
    assert [(e.path, e.message) for e in refused.value.errors] == expected


def test_the_heaviest_slap_log_at_its_limit_replays_within_the_budget():
    raw = heaviest_slap()
    assert len(raw) <= 1024 * 1024  # it fits the body limit
    assert len(json.loads(raw)["events"]) == slap_shape.MAX_EVENTS
    result = check_text(raw, with_steps=True)
    assert result["status"] == "incomplete"
    size = len(compact(result).encode("utf-8"))
    assert 15_000_000 < size <= REPLAY_BYTES_BUDGET  # heavy indeed, and bounded


def test_a_long_illegal_games_page_never_replays_or_parses_again(app, client, monkeypatch):
    """The share page of a long illegal slap game (more steps than a page embeds), viewed five
    times, with its replay fetched three times: the replay is computed once, the page rendered once,
    and no view decompresses or parses the replay (a 20,000-event game once cost each view 1.3 to
    2.5 s of parsing)."""
    from popreplay.web import page_cache, views

    raw = long_slap(slap_shape.MAX_EVENTS - 3, illegal=True)
    created = client.post("/api/v1/games", data=raw, content_type="application/json").get_json()
    assert created["status"] == "illegal"
    slug = created["slug"]
    replays._replay_gzip.clear()
    page_cache._pages.clear()  # every page is kept rendered (issue 35)
    calls = {"replay": 0, "render": 0, "decompress": 0, "parse": 0}
    real_check, real_render = replays.check_text, views.render_page
    real_decompress, real_loads = gzip.decompress, json.loads

    def counted_check(raw: Any, **kwargs: Any) -> Any:
        calls["replay"] += bool(kwargs.get("with_steps"))
        return real_check(raw, **kwargs)

    def counted_render(*args: Any, **kwargs: Any) -> Any:
        calls["render"] += 1
        return real_render(*args, **kwargs)

    def counted_decompress(data: bytes, *args: Any, **kwargs: Any) -> Any:
        calls["decompress"] += 1
        return real_decompress(data, *args, **kwargs)

    def counted_loads(text: Any, *args: Any, **kwargs: Any) -> Any:
        calls["parse"] += len(text) > 100_000  # the log (small) may be read; never the replay
        return real_loads(text, *args, **kwargs)

    monkeypatch.setattr(replays, "check_text", counted_check)
    monkeypatch.setattr(views, "render_page", counted_render)
    monkeypatch.setattr(gzip, "decompress", counted_decompress)
    monkeypatch.setattr(json, "loads", counted_loads)
    pages = [client.get(f"/r/{slug}", headers={"Accept-Encoding": "gzip"}) for _ in range(5)]
    fetched = [client.get(f"/api/v1/games/{slug}/replay", headers={"Accept-Encoding": "gzip"})
               for _ in range(3)]
    assert [p.status_code for p in pages + fetched] == [200] * 8
    assert len({p.data for p in pages}) == 1  # the same page every time
    assert calls == {"replay": 1, "render": 1, "decompress": 0, "parse": 0}
    steps = json.loads(real_decompress(fetched[0].data))["steps"]
    assert len(steps) > views.EMBED_MAX_STEPS and steps[-1]["kind"] == "violation"
    page = real_decompress(pages[0].data).decode("utf-8")
    assert f'"replay_url":"/api/v1/games/{slug}/replay"' in page
    assert '"kind":"violation"' not in page  # the steps are not in the page (the log is)
    assert len(page) < len(real_decompress(fetched[0].data)) / 20


# --- the guard: a first replay that takes longer than a request waits -----------------------------


def _gated(monkeypatch: Any) -> tuple[Any, list[int]]:
    """replays.check_text held until the gate opens; the replays computed are counted."""
    import threading

    gate, computed = threading.Event(), []
    real = replays.check_text

    def slow(raw: Any, **kwargs: Any) -> Any:
        if kwargs.get("with_steps"):
            assert gate.wait(20)
            computed.append(1)
        return real(raw, **kwargs)

    monkeypatch.setattr(replays, "check_text", slow)
    return gate, computed


def _settled(timeout: float = 20) -> None:
    import time

    deadline = time.monotonic() + timeout
    while replays._computing and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not replays._computing


def test_a_first_replay_past_the_wait_is_503_with_retry_after_then_served(app, client,
                                                                        monkeypatch):
    import sqlalchemy as sa

    from popreplay.db.models import StoredReplay
    from popreplay.db.session import get_database

    slug = hardening.upload(client, json.loads(long_slap(300, illegal=True)))["slug"]
    # the short wait is for the replay below, not for storing: a store under it could be a 503
    # on a loaded machine (CI's run of stop 44: the POST answered without a slug)
    app.config["REPLAY_WAIT"] = 0.2
    replays._replay_gzip.clear()
    gate, computed = _gated(monkeypatch)
    for url in (f"/api/v1/games/{slug}/replay", f"/r/{slug}"):  # the page waits the same way
        pending = client.get(url)
        assert pending.status_code == 503
        assert pending.headers["Retry-After"] == str(RETRY_PENDING_SECONDS)
        body = pending.get_json()
        assert body["code"] == 503 and "still being computed" in body["message"]
    assert client.get("/api/v1/games").status_code == 200  # the rest of the service answers

    def stored_rows() -> int:
        with get_database(app).engine.connect() as connection:
            return connection.execute(sa.select(sa.func.count()).select_from(StoredReplay)).scalar()

    assert stored_rows() == 0
    gate.set()
    _settled()
    replay = client.get(f"/api/v1/games/{slug}/replay")
    assert replay.status_code == 200
    assert replay.get_json()["steps"][-1]["kind"] == "violation"
    assert stored_rows() == 1  # kept by the fetch after it was done
    assert client.get(f"/r/{slug}").status_code == 200
    assert computed == [1]  # computed once, though three requests asked for it


def test_a_background_replay_that_fails_is_computed_again_by_the_next_fetch(app, client,
                                                                           monkeypatch):
    slug = hardening.upload(client, json.loads(long_slap(50, illegal=False)))["slug"]
    # the short wait is for the replay below, not for storing: a store under it could be a 503
    # on a loaded machine (CI's run of stop 44: the POST answered without a slug)
    app.config["REPLAY_WAIT"] = 0.2
    replays._replay_gzip.clear()
    gate, computed = _gated(monkeypatch)
    real = replays.encode_replay
    failures = [1]

    def failing(raw: bytes) -> Any:
        result = real(raw)
        if failures:
            failures.pop()
            raise RuntimeError("lost")
        return result

    monkeypatch.setattr(replays, "encode_replay", failing)
    assert client.get(f"/api/v1/games/{slug}/replay").status_code == 503
    gate.set()
    _settled()
    assert client.get(f"/api/v1/games/{slug}/replay").status_code == 200
    assert computed == [1, 1]


def test_without_a_wait_the_replay_is_computed_in_the_request(app, client, monkeypatch):
    app.config["REPLAY_WAIT"] = None
    slug = hardening.upload(client, json.loads(long_slap(50, illegal=False)))["slug"]
    replays._replay_gzip.clear()
    calls = []
    monkeypatch.setattr(replays, "_Background", lambda *a: calls.append(a))
    assert client.get(f"/api/v1/games/{slug}/replay").status_code == 200
    assert calls == []


def test_the_replay_wait_setting(monkeypatch):
    from popreplay.config import from_environment

    monkeypatch.delenv("POPREPLAY_REPLAY_WAIT", raising=False)
    assert from_environment()["REPLAY_WAIT"] == 10
    monkeypatch.setenv("POPREPLAY_REPLAY_WAIT", "0.5")
    assert from_environment()["REPLAY_WAIT"] == 0.5
    monkeypatch.setenv("POPREPLAY_REPLAY_WAIT", "0")
    assert from_environment()["REPLAY_WAIT"] is None
    for bad in ("-1", "soon", "inf", "nan"):
        monkeypatch.setenv("POPREPLAY_REPLAY_WAIT", bad)
        with pytest.raises(ValueError, match="POPREPLAY_REPLAY_WAIT"):
            from_environment()
