"""Engine work within its budget: the recorder's cut and check computed once and answered 503 past
their budget, too much work at once refused at once, an illegal game's messages never checked
again, a French replay rendered once, and /healthz within 1 s while clients send the worst
requests. Found in the hardening rounds of issues 15, 16 and 25 (docs/reliability.md)."""

from __future__ import annotations

import copy
import gzip
import json
import threading
from typing import Any

import pytest

from popreplay import budget, drafts
from popreplay.engine.games.cube import choices as cube_choices
from tests.api.test_games import assert_error_shape
from tests.conftest import simulated
from tests.reliability.hardening import (
    API,
    CUBE,
    nothing_kept,  # noqa: F401  (autouse: no engine work kept)
    settle,
    slow,
    small_cube,
    upload,
)
from tests.reliability.worst import heavy_cube

# --- 1. the cut ----------------------------------------------------------------------------------

def halving_cut(log: dict[str, Any], step: int) -> dict[str, Any]:
    """The cut as it was computed before (halving, one replay per try): the reference."""
    from popreplay.engine.games.cube.rules import CubeReplay
    from popreplay.engine.replay import RuleViolation, StepRecorder

    def count(turns: list[Any]) -> int:
        recorder = StepRecorder(enabled=True)
        try:
            CubeReplay({**base, "turns": turns}, recorder).run()
        except RuleViolation:
            return len(recorder.steps) + 1
        return len(recorder.steps)

    base = {k: v for k, v in log.items() if k != "claimed"}
    turns = list(log.get("turns") or [])
    low, high = 0, len(turns)
    while low < high:
        middle = (low + high + 1) // 2
        low, high = (middle, high) if count(turns[:middle]) <= step + 1 else (low, middle - 1)
    kept = turns[:low]
    if low < len(turns):
        part = None
        for candidate in cube_choices.turn_starts(turns[low]):
            if count([*kept, candidate]) > step + 1:
                break
            part = candidate
        if part is not None:
            kept.append(part)
    return {**base, "turns": kept}


def test_the_cube_cut_is_the_same_from_far_fewer_replays(monkeypatch):
    log = small_cube()
    broken = copy.deepcopy(log)
    broken["turns"][9]["events"] = [{"play": "PB-1", "step": "CROSS"}] * 2
    built = []
    real = cube_choices.CubeReplay.__init__

    def counting(self: Any, *args: Any) -> None:
        built.append(1)
        real(self, *args)

    for game in (log, broken):
        steps = len(CUBE.replay(game, with_steps=True).steps)
        for step in (0, 1, 5, steps // 3, steps // 2, steps - 2, steps + 5):
            assert cube_choices.cut(game, step) == halving_cut(game, step), step
    monkeypatch.setattr(cube_choices.CubeReplay, "__init__", counting)
    middle = len(CUBE.replay(log, with_steps=True).steps) // 2
    built.clear()
    halving_cut(log, middle)
    halving = len(built)
    built.clear()
    cube_choices.cut(log, middle)
    assert len(built) <= 3 < halving  # the deal, the turns once, the turns before the cut once
    assert halving >= 8


def test_a_cut_is_computed_once_per_log_and_step_and_past_the_budget_is_503(app, client,
                                                                           monkeypatch):
    source = upload(client, small_cube(), "unlisted")
    calls = slow(monkeypatch, drafts, "cut_of", 0.6)
    app.config["REPLAY_WAIT"] = 0.2
    url = f"{API}/cut?from={source['slug']}&step=30"
    busy = client.get(url)
    assert busy.status_code == 503 and busy.headers["Retry-After"] == str(budget.RETRY_SECONDS)
    assert_error_shape(busy.get_json(), 503)
    assert client.get("/healthz").status_code == 200  # the rest answers meanwhile
    settle()
    for _ in range(3):
        again = client.get(url)
        assert again.status_code == 200
    assert again.get_json()["branch_of"] == {"slug": source["slug"], "step": 30}
    assert calls == [1]  # the retry and the others found the kept cut
    assert client.head(url).status_code == 200 and calls == [1]


# --- 2. the check --------------------------------------------------------------------------------

def test_a_check_past_its_budget_is_503_and_its_answer_is_kept_for_the_retry(app, client,
                                                                            monkeypatch):
    from popreplay.api import record

    log = small_cube()
    calls = slow(monkeypatch, record, "check_draft", 0.6)
    app.config["REPLAY_WAIT"] = 0.2
    busy = client.post(f"{API}/check", json={"log": log})
    assert busy.status_code == 503 and busy.headers["Retry-After"] == "2"
    assert busy.get_json()["errors"][0]["code"] == "busy"
    settle()
    served = client.post(f"{API}/check", json={"log": log})
    assert served.status_code == 200
    assert served.get_json()["result"]["status"] == CUBE.replay(log).status
    assert calls == [1]
    french = client.post(f"{API}/check?lang=fr", json={"log": log})  # another language: computed
    assert french.status_code in (200, 503) and calls == [1, 1]


def test_too_much_engine_work_at_once_is_503_at_once(app, client, monkeypatch):
    from popreplay.api import record

    gate = threading.Event()
    real = record.check_draft
    monkeypatch.setattr(record, "check_draft", lambda *a: (gate.wait(10), real(*a))[1])
    app.config["REPLAY_WAIT"] = 0.05
    try:
        statuses = [client.post(f"{API}/check", json={"log": small_cube(seed)}).status_code
                    for seed in range(budget.MAX_IN_FLIGHT + 2)]
        assert statuses == [503] * (budget.MAX_IN_FLIGHT + 2)
        assert budget._in_flight == budget.MAX_IN_FLIGHT  # the last two were never queued
    finally:
        gate.set()
        settle()
    assert budget._in_flight == 0


# --- 6. an illegal game's messages ---------------------------------------------------------------

def test_an_illegal_games_messages_are_never_checked_again(client, monkeypatch):
    from popreplay import checking

    log = small_cube()
    log["turns"][-1]["player"] = log["players"][(len(log["turns"])) % 3]
    calls = []
    real = checking.check_text
    monkeypatch.setattr(checking, "check_text", lambda *a, **k: (calls.append(1), real(*a, **k))[1])
    stored = upload(client, log)
    assert stored["result"]["errors"][0].get("message_id")
    assert calls == []  # the upload's own result had the messages: no second check
    for _ in range(3):
        body = client.get(f"/api/v1/games/{stored['slug']}").get_json()
        assert body["result"]["errors"][0]["message_id"] == stored["result"]["errors"][0][
            "message_id"]
    assert calls == []  # the stored result keeps its message ids (tests/store/test_stored_messages.py)


# --- 7. localized replays ------------------------------------------------------------------------

def test_a_french_replay_is_rendered_once_and_sent_gzip(client, monkeypatch):
    from popreplay.api import games

    stored = upload(client, simulated())
    calls = slow(monkeypatch, games, "localized_replay", 0)
    url = f"/api/v1/games/{stored['slug']}/replay?lang=fr"
    first = client.get(url, headers={"Accept-Encoding": "gzip"})
    assert first.status_code == 200 and first.headers["Content-Encoding"] == "gzip"
    french = json.loads(gzip.decompress(first.data))
    plain = client.get(url)
    assert "Content-Encoding" not in plain.headers and plain.get_json() == french
    assert calls == [1]
    assert french["steps"][0]["note"] != client.get(
        f"/api/v1/games/{stored['slug']}/replay").get_json()["steps"][0]["note"]
    again = client.get(url, headers={"Accept-Encoding": "gzip", "If-None-Match": first.headers[
        "ETag"]})
    assert again.status_code == 304


# --- the load: every endpoint's worst request, /healthz answered within 1 s ----------------------

@pytest.mark.slow
def test_healthz_answers_within_a_second_while_four_clients_send_the_worst_requests(tmp_path):
    from tests.reliability.test_slow_clients import popreplay_serve
    from tests.reliability.worst import under_load, worst_requests

    with popreplay_serve(f"sqlite:///{tmp_path / 'load.sqlite'}", tmp_path,
                         "--workers", "1") as base:
        for name, send in worst_requests(base).items():
            figures = under_load(send, base=base, clients=4, rounds=2)
            assert figures["probes_over_1s"] == 0, (name, figures)
            assert set(figures["statuses"]) <= {200, 201, 503}, (name, figures)


def test_heavy_cube_is_a_heavy_legal_draft():
    log = heavy_cube(4)
    assert CUBE.replay(log).status in ("incomplete", "complete") and len(log["players"]) == 4
