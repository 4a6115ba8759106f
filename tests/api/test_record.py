"""/api/v1/record: the recorder's live check, saving and continuing drafts, what-if branches
(Flask test client, SQLite and PostgreSQL)."""

from __future__ import annotations

import json
from datetime import datetime

from popreplay.checking import check_log
from popreplay.engine.games.pop import POP
from tests.api.test_games import assert_error_shape
from tests.conftest import simulated

API = "/api/v1/record"


def check(client, log, **extra):
    return client.post(f"{API}/check", json={"log": log, **extra})


def first_turns(n, **kw):
    log = simulated(**kw)
    log.pop("claimed", None)
    log["rounds"] = [dict(log["rounds"][0], turns=log["rounds"][0]["turns"][:n])]
    return log


def test_check_answers_the_result_the_steps_tail_and_what_comes_next(client):
    log = first_turns(3)
    body = check(client, log).get_json()
    assert body["result"] == check_log(log)  # the same result as /validate, without steps
    whole = POP.replay(log, with_steps=True).steps
    assert [s["note"] for s in body["steps"]] == [s["note"] for s in whole]
    turn3 = [s for s in whole if s["round"] == 1 and s["turn"] == 3]
    assert whole[-1] in turn3  # the draft ends with turn 3: all its steps come whole
    assert [s for s in body["steps"] if "state" in s] == turn3
    assert "state" not in body["steps"][0]
    assert body["choices"]["next"]["turn"]["turn"] == 4
    assert body["choices"] == POP.choices(log)


def test_check_with_pending_and_no_steps_answers_only_the_choices(client):
    log = first_turns(1)
    alice = sorted(POP.choices(log)["hands"]["Alice"])
    body = check(client, log, pending={"entry": "turn", "cards": [alice[0]]}, steps="none").get_json()
    assert body["result"] is None and body["steps"] == []
    turn = body["choices"]["next"]["turn"]
    assert turn["filled"] == 1 and turn["slots"][turn["slot"]]["player"] == "Bruno"


def test_an_empty_pop_draft_is_checked_and_asks_for_the_first_layout(client):
    draft = {"format": "popreplay/1", "game": "pop", "mode": "battle",
             "players": ["Ana", "Ben", "Cy"], "rounds": []}
    body = check(client, draft).get_json()
    assert body["result"]["status"] == "incomplete"
    assert list(body["choices"]["next"]) == ["round"]


def test_an_illegal_draft_is_answered_with_the_rule_and_its_pointer(client):
    log = first_turns(1)
    log["rounds"][0]["turns"].append({"plays": {"Alice": [99], "Bruno": [1], "Chloé": [2]},
                                      "chief": [3, 4]})
    body = check(client, log).get_json()
    assert body["result"]["status"] == "illegal"
    error = body["result"]["errors"][0]
    assert error["path"].startswith("/rounds/0/turns/1/plays/")
    assert body["choices"]["error"] == error and body["choices"]["next"] == {}


def test_a_draft_of_the_wrong_shape_is_invalid_with_pointers(client):
    log = first_turns(1)
    log["rounds"][0]["turns"][0]["plays"]["Alice"] = "eighteen"
    body = check(client, log).get_json()
    assert body["result"]["status"] == "invalid"
    assert body["choices"]["error"]["path"] == "/rounds/0/turns/0/plays/Alice"


def test_a_body_of_the_wrong_shape_is_422_in_the_one_error_shape(client):
    response = client.post(f"{API}/check", json={"draft": {}})
    assert response.status_code == 422
    body = response.get_json()
    assert_error_shape(body, 422)
    assert {e["path"] for e in body["errors"]} == {"/log", "/draft"}


def test_a_draft_is_saved_then_continued_by_its_owner_only(client):
    log = first_turns(2)
    created = client.post(f"{API}/games", json={"log": log})
    assert created.status_code == 201
    saved = created.get_json()
    slug, token = saved["slug"], saved["owner_token"]
    assert saved["status"] == "incomplete" and saved["visibility"] == "public"
    auth = {"Authorization": f"Bearer {token}"}
    assert client.get(f"{API}/games/{slug}").status_code == 401
    assert client.get(f"{API}/games/{slug}", headers={"Authorization": "Bearer nope"}).status_code == 403
    opened = client.get(f"{API}/games/{slug}", headers=auth).get_json()
    assert opened["log"] == log
    # the game as the rest of the API gives it: ISO 8601 dates, not HTTP dates
    assert opened["game"]["created_at"] == saved["created_at"]
    assert datetime.fromisoformat(opened["game"]["created_at"]).tzinfo is not None
    assert opened["branch_of"] is None
    longer = first_turns(5)
    updated = client.put(f"{API}/games/{slug}", json={"log": longer}, headers=auth)
    assert updated.status_code == 200
    assert updated.get_json()["slug"] == slug
    stored = client.get(f"/api/v1/games/{slug}/log")
    assert json.loads(stored.data) == longer
    replay = client.get(f"/api/v1/games/{slug}/replay").get_json()
    assert len(replay["steps"]) == len(POP.replay(longer, with_steps=True).steps)
    assert client.put(f"{API}/games/{slug}", json={"log": longer},
                      headers={"Authorization": "Bearer nope"}).status_code == 403


def test_an_update_that_is_not_a_log_changes_nothing(client):
    log = first_turns(2)
    saved = client.post(f"{API}/games", json={"log": log}).get_json()
    auth = {"Authorization": f"Bearer {saved['owner_token']}"}
    bad = dict(log, rounds="x")
    response = client.put(f"{API}/games/{saved['slug']}", json={"log": bad}, headers=auth)
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["path"] == "/log/rounds"
    assert json.loads(client.get(f"/api/v1/games/{saved['slug']}/log").data) == log


def test_a_branch_is_cut_by_the_engine_stored_unlisted_and_linked_both_ways(client):
    log = simulated()
    source = client.post("/api/v1/games", data=json.dumps(log),
                         content_type="application/json").get_json()
    steps = POP.replay(log, with_steps=True).steps
    step = max(s["index"] for s in steps if s["round"] == 1 and s["turn"] == 2)
    cut = client.get(f"{API}/cut", query_string={"from": source["slug"], "step": step}).get_json()
    assert cut["branch_of"] == {"slug": source["slug"], "step": step}
    assert cut["log"]["rounds"][0]["turns"] == log["rounds"][0]["turns"][:2]
    assert "claimed" not in cut["log"] and cut["log"]["meta"]["title"].startswith("What if")
    other = dict(cut["log"])
    other["rounds"] = [dict(other["rounds"][0])]
    stored = client.post(f"{API}/games", json={"log": other, "branch_of": cut["branch_of"]})
    assert stored.status_code == 201
    branch = stored.get_json()
    assert branch["visibility"] == "unlisted"
    # an unlisted branch is listed to the source's owner only (issue 25, finding 5)
    assert client.get(f"{API}/branches/{source['slug']}").get_json()["branches"] == []
    links = client.get(f"{API}/branches/{source['slug']}", headers={
        "Authorization": f"Bearer {source['owner_token']}"}).get_json()
    assert links["branch_of"] is None
    assert [(b["slug"], b["step"]) for b in links["branches"]] == [(branch["slug"], step)]
    back = client.get(f"{API}/branches/{branch['slug']}").get_json()
    assert back["branch_of"]["slug"] == source["slug"] and back["branch_of"]["step"] == step
    assert client.get(f"{API}/cut", query_string={"from": "nope00000", "step": 1}).status_code == 404


def test_storing_the_same_draft_twice_is_a_conflict(client):
    log = first_turns(2)
    assert client.post(f"{API}/games", json={"log": log}).status_code == 201
    again = client.post(f"{API}/games", json={"log": log})
    assert again.status_code == 409
    assert_error_shape(again.get_json(), 409)
