"""Issue 25 (hardening round 3, the recorder's endpoints): one test per finding, on SQLite and
PostgreSQL (docs/reliability.md, "Round 3")."""

from __future__ import annotations

import copy
import gzip
import json
import socket
import threading
import time
from typing import Any

import pytest

from popreplay import budget, drafts
from popreplay.engine.games.cube import choices as cube_choices
from popreplay.engine.registry import get_game
from popreplay.serve_errors import write_error
from popreplay.store import replays
from popreplay.store.lookups import known_players
from tests.api.test_games import assert_error_shape
from tests.conftest import simulated
from tests.reliability.worst import heavy_cube

API = "/api/v1/record"
CUBE = get_game("cube")


@pytest.fixture(autouse=True)
def nothing_kept():
    settle()
    budget.clear()
    yield
    settle()
    budget.clear()


def upload(client: Any, log: dict[str, Any], visibility: str = "public") -> dict[str, Any]:
    answer = client.post(f"/api/v1/games?visibility={visibility}", data=json.dumps(log),
                         content_type="application/json")
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def small_cube(seed: int = 3) -> dict[str, Any]:
    log = CUBE.simulate(mode="standard", players=3, seed=seed)
    log.pop("claimed", None)
    return log


def slow(monkeypatch: Any, module: Any, name: str, seconds: float) -> list[int]:
    """``module.name`` made ``seconds`` slower; the calls are counted."""
    real, calls = getattr(module, name), []

    def slower(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        time.sleep(seconds)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, slower)
    return calls


def settle() -> None:
    """Until no engine work is running (a request that stopped waiting leaves it going on)."""
    for _ in range(400):
        if not budget._running and not budget._in_flight:
            return
        time.sleep(0.05)


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


# --- 4. the draft's shape and pending ------------------------------------------------------------

@pytest.mark.parametrize("pending, path", [
    ({"deal": [1]}, "/pending/deal"),
    ({"deal": "x"}, "/pending/deal"),
    ({"deal": {"Alice": "x"}}, "/pending/deal/Alice"),
    ({"deal": {"Alice": [["PB-1"]]}}, "/pending/deal/Alice/0"),
    ({"player": None, "draw": []}, "/pending/player"),
    ({"player": "Alice", "draw": [["PB-1"]]}, "/pending/draw/0"),
    ({"play": 3, "draw": []}, "/pending/play"),
    ({"nope": 1}, "/pending/nope"),
])
def test_a_cube_pending_of_the_wrong_shape_is_a_200_with_choices_error(client, pending, path):
    log = small_cube()
    log["turns"] = log["turns"][:2]
    answer = client.post(f"{API}/check", json={"log": log, "pending": pending})
    assert answer.status_code == 200
    error = answer.get_json()["choices"]["error"]
    assert (error["code"], error["path"]) == ("pending", path)
    french = client.post(f"{API}/check?lang=fr", json={"log": log, "pending": pending})
    assert french.get_json()["choices"]["error"]["message"] != error["message"]


@pytest.mark.parametrize("key", ["mode", "deal", "deck", "reveal", "claimed", "meta", "unknown",
                                 "players", "turns"])
def test_an_empty_list_at_the_top_never_skips_the_shape_check(client, key):
    log = small_cube()
    log[key] = []
    answer = client.post(f"{API}/check", json={"log": log, "pending": {"deal": [1]}})
    assert answer.status_code == 200, answer.get_json()
    body = answer.get_json()
    if key in ("players", "turns"):  # lists that may be empty in a draft's shape
        return
    assert body["result"]["status"] == "invalid"
    assert body["choices"]["error"]["path"] == f"/{key}"


def test_a_pop_draft_before_its_first_layout_is_still_a_draft(client):
    log = simulated()
    log.pop("claimed", None)
    log["rounds"] = []
    body = client.post(f"{API}/check", json={"log": log}).get_json()
    assert body["result"]["status"] != "invalid" and "round" in body["choices"]["next"]


# --- 5. unlisted stays unlisted ------------------------------------------------------------------

def test_unlisted_names_and_branches_stay_unlisted(client):
    secret = small_cube(4)
    secret["players"] = ["Zoé-secret", *secret["players"][1:]]
    secret = json.loads(json.dumps(secret).replace(f'"{small_cube(4)["players"][0]}"',
                                                   '"Zoé-secret"'))
    secret["meta"] = {"title": "The secret game"}
    source = upload(client, secret, "unlisted")
    assert "Zoé-secret" not in client.get("/record").get_data(as_text=True)
    from popreplay.db.session import get_session

    with client.application.app_context():
        assert "Zoé-secret" not in known_players(get_session())
    cut = client.get(f"{API}/cut?from={source['slug']}&step=12").get_json()
    public = client.post(f"{API}/games", json={**cut, "visibility": "public"})
    assert public.status_code == 422
    assert public.get_json()["errors"][0]["path"] == "/visibility"
    branch = client.post(f"{API}/games", json=cut).get_json()
    assert branch["visibility"] == "unlisted"
    for listing in ("/api/v1/games", "/api/v1/games/export", "/"):
        assert "secret" not in client.get(listing).get_data(as_text=True)
    # the branch does not name its unlisted source but to its owner
    assert client.get(f"{API}/branches/{branch['slug']}").get_json()["branch_of"] is None
    mine = client.get(f"{API}/branches/{branch['slug']}",
                      headers={"Authorization": f"Bearer {branch['owner_token']}"}).get_json()
    assert mine["branch_of"]["slug"] == source["slug"]


def test_unlisted_branches_of_a_public_game_are_listed_with_its_owner_token_only(client):
    source = upload(client, small_cube(5))
    cut = client.get(f"{API}/cut?from={source['slug']}&step=20").get_json()
    hidden = client.post(f"{API}/games", json=cut).get_json()
    cut["log"]["meta"] = {"title": "shown"}
    shown = client.post(f"{API}/games", json={**cut, "visibility": "public"}).get_json()
    anyone = client.get(f"{API}/branches/{source['id']}").get_json()["branches"]
    assert [b["slug"] for b in anyone] == [shown["slug"]]
    owner = client.get(f"{API}/branches/{source['id']}", headers={
        "Authorization": f"Bearer {source['owner_token']}"}).get_json()["branches"]
    assert sorted(b["slug"] for b in owner) == sorted([hidden["slug"], shown["slug"]])


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


# --- 8. branch_of ----------------------------------------------------------------------------------

@pytest.mark.parametrize("step", [2**63, 2**31, -1, 1.5, "3"])
def test_out_of_range_steps_are_422_and_nothing_is_stored(client, step):
    source = upload(client, small_cube())
    cut = client.get(f"{API}/cut?from={source['slug']}&step=10").get_json()
    cut["branch_of"]["step"] = step
    answer = client.post(f"{API}/games", json=cut)
    assert answer.status_code == 422
    assert answer.get_json()["errors"][0]["path"] == "/branch_of/step"
    assert client.get(f"{API}/cut?from={source['slug']}&step={2**63}").status_code == 422
    assert len(client.get("/api/v1/games").get_json()["items"]) == 1


def test_a_branch_must_be_the_sources_cut_at_a_step_it_has(client):
    source = upload(client, small_cube())
    steps = len(client.get(f"/api/v1/games/{source['slug']}/replay").get_json()["steps"])
    cut = client.get(f"{API}/cut?from={source['slug']}&step=10").get_json()
    past = client.post(f"{API}/games", json={**cut, "branch_of": {
        "slug": source["slug"], "step": steps}})
    assert past.status_code == 422 and past.get_json()["errors"][0]["path"] == "/branch_of/step"
    other = small_cube(seed=8)  # another game altogether: spam
    spam = client.post(f"{API}/games", json={"log": other, "branch_of": cut["branch_of"]})
    assert spam.status_code == 422 and spam.get_json()["errors"][0]["path"] == "/log"
    continued = copy.deepcopy(cut)
    full = small_cube()
    continued["log"]["turns"] = full["turns"][:len(cut["log"]["turns"]) + 2]
    assert drafts.extends(continued["log"], cut["log"])
    assert client.post(f"{API}/games", json=continued).status_code == 201
    assert len(client.get("/api/v1/games").get_json()["items"]) == 1  # branches are unlisted


# --- 9. a PUT updates what the log says ----------------------------------------------------------

def test_a_put_renaming_a_player_updates_players_seats_and_search(client):
    log = small_cube()
    stored = client.post(f"{API}/games", json={"log": log, "visibility": "public"}).get_json()
    old = log["players"][0]
    renamed = json.loads(json.dumps(log).replace(f'"{old}"', '"Renamed"'))
    renamed["players"] = renamed["players"][:3]
    put = client.put(f"{API}/games/{stored['slug']}", json={"log": renamed},
                     headers={"Authorization": f"Bearer {stored['owner_token']}"})
    assert put.status_code == 200, put.get_json()
    assert put.get_json()["players"][0] == "Renamed"
    assert client.get(f"/api/v1/games/{stored['slug']}").get_json()["players"][0] == "Renamed"
    found = client.get("/api/v1/games?player=Renamed").get_json()["items"]
    assert [g["slug"] for g in found] == [stored["slug"]]
    assert client.get(f"/api/v1/games?player={old}").get_json()["items"] == []
    assert client.get(f"/api/v1/players/{old}").status_code == 404


# --- smaller points ------------------------------------------------------------------------------

def test_gunicorns_own_errors_are_in_the_error_shape():
    for status, reason in ((414, "URI Too Long"), (431, "Request Header Fields Too Large"),
                           (400, "Bad Request")):
        mine, theirs = socket.socketpair()
        with mine, theirs:
            write_error(mine, status, reason, "Invalid Request Line 'x'")
            answer = theirs.recv(65536).decode()
        head, body = answer.split("\r\n\r\n", 1)
        assert head.startswith(f"HTTP/1.1 {status} ") and "application/json" in head
        assert_error_shape(json.loads(body), status)


@pytest.mark.slow
def test_gunicorn_answers_a_too_long_address_in_json(tmp_path):
    from tests.reliability.test_slow_clients import popreplay_serve

    with popreplay_serve(f"sqlite:///{tmp_path / 'g.sqlite'}", tmp_path) as base:
        host, port = base.removeprefix("http://").split(":")
        # each under 8 KiB, read by gunicorn whole (unread bytes would reset the connection)
        too_many = b"".join(b"X-%d: 1\r\n" % k for k in range(120))
        for request, status in ((b"GET /" + b"a" * 4200 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414),
                                (b"GET / HTTP/1.1\r\nHost: x\r\n" + too_many + b"\r\n", 431)):
            with socket.create_connection((host, int(port)), timeout=10) as connection:
                connection.sendall(request)
                answer = b""
                while chunk := connection.recv(65536):
                    answer += chunk
            head, body = answer.decode().split("\r\n\r\n", 1)
            assert head.startswith(f"HTTP/1.1 {status} ") and "application/json" in head
            assert_error_shape(json.loads(body), status)


def test_the_same_origin_check_compares_the_scheme(client):
    log = json.dumps(small_cube())
    other = client.post("/api/v1/games", data=log, content_type="application/json",
                        headers={"Origin": "https://localhost"})
    assert other.status_code == 403
    same = client.post("/api/v1/games", data=log, content_type="application/json",
                       headers={"Origin": "http://localhost"})
    assert same.status_code == 201


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
