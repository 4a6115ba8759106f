"""A stored replay is always its log's: a PUT landing during the first replay never leaves the old
log's replay stored. Found in the hardening rounds of issues 15, 16 and 25
(docs/reliability.md)."""

from __future__ import annotations

import copy
import threading
from typing import Any

from popreplay.engine.registry import get_game
from popreplay.store import replays
from tests.conftest import simulated
from tests.reliability.hardening import (
    API,
    nothing_kept,  # noqa: F401  (autouse: no engine work kept)
)

# --- 3. a stored replay is always its log's ------------------------------------------------------

def test_a_put_during_the_first_replay_never_leaves_the_old_logs_replay(app, client,
                                                                       monkeypatch):
    """The race of finding 3, made certain: the first replay of the old log is computed, then a
    PUT replaces the log, then the computation stores its result."""
    first = simulated()
    first.pop("claimed", None)
    stored = client.post(f"{API}/games", json={"log": first}).get_json()
    slug, token = stored["slug"], stored["owner_token"]
    short = copy.deepcopy(first)
    short["rounds"] = [dict(first["rounds"][0], turns=first["rounds"][0]["turns"][:3])]
    app.config["REPLAY_WAIT"] = None  # computed in the request: the order is the test's
    replays._replay_gzip.clear()
    computed, put_done = threading.Event(), threading.Event()
    real = replays.encode_replay

    def encode(raw: bytes) -> Any:
        value = real(raw)
        if not computed.is_set():
            computed.set()
            assert put_done.wait(20)
        return value

    monkeypatch.setattr(replays, "encode_replay", encode)
    answers: list[Any] = []
    fetch = threading.Thread(target=lambda: answers.append(
        app.test_client().get(f"/api/v1/games/{slug}/replay")))
    fetch.start()
    assert computed.wait(20)
    put = client.put(f"{API}/games/{slug}", json={"log": short},
                     headers={"Authorization": f"Bearer {token}"})
    assert put.status_code == 200
    put_done.set()
    fetch.join(20)
    assert answers[0].status_code == 200  # the old log's replay, to the request that asked then
    replays._replay_gzip.clear()  # another process: only the database
    replay = client.get(f"/api/v1/games/{slug}/replay").get_json()
    expected = get_game("pop").replay(short, with_steps=True).steps
    assert len(replay["steps"]) == len(expected)
    assert replay["steps"][-1]["note"] == expected[-1]["note"]
