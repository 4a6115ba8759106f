"""The recorder's drafts: their shape and ``pending`` checked before any choice, what-if branches
(``branch_of``) cut at a step the source has, and a PUT that updates what the log says. Found in
the hardening rounds of issues 15, 16 and 25 (docs/reliability.md)."""

from __future__ import annotations

import copy
import json

import pytest

from popreplay import drafts
from tests.conftest import simulated
from tests.reliability.hardening import (
    API,
    nothing_kept,  # noqa: F401  (autouse: no engine work kept)
    small_cube,
    upload,
)

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
