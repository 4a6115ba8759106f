"""``/api/v1/groups``: a group's life through the API, and bad input answered clearly with
nothing half-written."""

from __future__ import annotations

import json

import pytest

from tests.conftest import simulated
from tests.groups.helpers import NAMES


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def group(client):
    made = client.post("/api/v1/groups", json={"name": "Café du Jeudi"}).get_json()
    admin = bearer(made["admin_token"])
    ids = {}
    for name in NAMES:
        answer = client.post(f"/api/v1/groups/{made['group']['slug']}/members", headers=admin,
                             json={"name": name})
        assert answer.status_code == 201, answer.get_json()
        ids[name] = answer.get_json()["id"]
    return made["group"]["slug"], made, ids


def add(client, slug, headers, seed, players=3, **changes):
    log = simulated("battle", players, seed, **changes)
    return client.post(f"/api/v1/groups/{slug}/games", headers=headers, json={"log": log})


def test_a_private_group_is_no_group_without_a_capability(client, group):
    slug, made, _ = group
    assert made["group"]["slug"] == "cafe-du-jeudi" and made["group"]["private"] is True
    assert client.get(f"/api/v1/groups/{slug}").status_code == 404
    assert client.get(f"/api/v1/groups/{slug}/leaderboards").status_code == 404
    invited = client.get(f"/api/v1/groups/{slug}", headers=bearer(made["invite_key"]))
    assert invited.status_code == 200 and invited.get_json()["members"] == 5


def test_games_join_map_by_name_and_are_rated(client, group):
    slug, made, ids = group
    admin = bearer(made["admin_token"])
    answer = add(client, slug, admin, 1, players=3)
    assert answer.status_code == 201
    body = answer.get_json()
    assert body["unmapped"] == [] and body["game"]["checked"] is True
    assert [s["member"] for s in body["game"]["seats"]] == [ids["Alice"], ids["Bruno"],
                                                              ids["Chloé"]]
    assert add(client, slug, admin, 2, players=4).status_code == 201
    boards = client.get(f"/api/v1/groups/{slug}/leaderboards", headers=admin).get_json()
    assert boards["ratings"]["up_to_date"] is True
    [board] = boards["boards"]
    assert board["board"] == "pop/battle" and len(board["standings"]) == 4
    ordinals = [s["ordinal"] for s in board["standings"]]
    assert ordinals == sorted(ordinals, reverse=True)
    alice = client.get(f"/api/v1/groups/{slug}/members/{ids['Alice']}/stats",
                       headers=admin).get_json()
    assert alice["stats"][0]["games"] == 2 and alice["streaks"]["current"]["games"] >= 1
    assert {h["name"] for h in alice["head_to_head"]} == {"Bruno", "Chloé", "Dmitri"}
    history = client.get(f"/api/v1/groups/{slug}/members/{ids['Alice']}/ratings?board=pop/battle",
                         headers=admin).get_json()["history"]
    assert len(history) == 2 and history[-1]["mu"] == alice["ratings"][0]["mu"]


def test_an_unknown_name_is_asked_then_mapped_and_remembered(client, group):
    slug, made, ids = group
    admin = bearer(made["admin_token"])
    log = simulated("battle", 2, 5)
    text = json.dumps(log, ensure_ascii=False).replace("Alice", "Ali")
    first = client.post(f"/api/v1/groups/{slug}/games", headers=admin,
                        json={"log": json.loads(text)}).get_json()
    assert first["unmapped"] == ["Ali"]
    ref = first["game"]["slug"]
    mapped = client.put(f"/api/v1/groups/{slug}/games/{ref}/names", headers=admin,
                        json={"names": {"Ali": ids["Alice"]}})
    assert mapped.status_code == 200 and mapped.get_json()["unmapped"] == []
    again = simulated("battle", 2, 6)
    text = json.dumps(again, ensure_ascii=False).replace("Alice", "ALI")
    second = client.post(f"/api/v1/groups/{slug}/games", headers=admin,
                         json={"log": json.loads(text)}).get_json()
    assert second["unmapped"] == []  # "ALI" folds to the alias "Ali"


def test_bad_input_is_refused_clearly_and_nothing_changes(client, group):
    slug, made, ids = group
    admin = bearer(made["admin_token"])
    ref = add(client, slug, admin, 3, players=2).get_json()["game"]["slug"]
    names = f"/api/v1/groups/{slug}/games/{ref}/names"
    unknown = client.put(names, headers=admin, json={"names": {"Alice": 99999}})
    assert unknown.status_code == 404 and unknown.get_json()["errors"][0]["path"] == "/names/Alice"
    twice = client.put(names, headers=admin, json={"names": {"Alice": ids["Bruno"]}})
    assert twice.status_code == 409  # Bruno already sits at the other seat
    taken = client.post(f"/api/v1/groups/{slug}/members", headers=admin,
                        json={"name": "Zoé", "aliases": ["alice"]})
    assert taken.status_code == 409 and taken.get_json()["errors"][0]["path"] == "/aliases/0"
    members = client.get(f"/api/v1/groups/{slug}/members", headers=admin).get_json()["members"]
    assert "Zoé" not in [m["name"] for m in members]  # nothing half-written
    seats = client.get(f"/api/v1/groups/{slug}/games", headers=admin).get_json()["items"][0]
    assert [s["member"] for s in seats["seats"]] == [ids["Alice"], ids["Bruno"]]
    nobody = client.put(names, headers=admin, json={"names": {"Zed": ids["Eun-ji"]}})
    assert nobody.status_code == 422 and nobody.get_json()["errors"][0]["path"] == "/names/Zed"


def test_tokens_scopes_other_groups_and_revocation(client, group):
    slug, made, _ = group
    admin = bearer(made["admin_token"])
    reader = client.post(f"/api/v1/groups/{slug}/tokens", headers=admin,
                         json={"name": "spreadsheet", "scopes": ["read"]}).get_json()
    assert reader["scopes"] == ["read"]
    read = bearer(reader["token"])
    assert client.get(f"/api/v1/groups/{slug}/games", headers=read).status_code == 200
    assert add(client, slug, read, 4).status_code == 403
    other = client.post("/api/v1/groups", json={"name": "Other"}).get_json()
    elsewhere = client.get(f"/api/v1/groups/{other['group']['slug']}", headers=read)
    assert elsewhere.status_code == 403 and elsewhere.get_json()["errors"][0]["code"] == \
        "other-group"
    listed = client.get(f"/api/v1/groups/{slug}/tokens", headers=admin).get_json()["tokens"]
    assert [t["name"] for t in listed] == ["spreadsheet"] and "token" not in listed[0]
    assert client.delete(f"/api/v1/groups/{slug}/tokens/{reader['id']}",
                         headers=admin).status_code == 204
    revoked = client.get(f"/api/v1/groups/{slug}/games", headers=read)
    assert revoked.status_code == 401 and revoked.get_json()["errors"][0]["code"] == \
        "revoked-token"
    assert client.get(f"/api/v1/groups/{slug}/tokens", headers=read).status_code == 401


def test_a_game_is_not_moved_between_groups(client, group):
    slug, made, _ = group
    admin = bearer(made["admin_token"])
    answer = client.post("/api/v1/games", json=simulated("battle", 2, 11))
    ref, owner = answer.get_json()["slug"], answer.get_json()["owner_token"]
    wrong = client.post(f"/api/v1/groups/{slug}/games", headers=admin,
                        json={"game": ref, "owner_token": "nope"})
    assert wrong.status_code == 403
    assert client.post(f"/api/v1/groups/{slug}/games", headers=admin,
                       json={"game": ref, "owner_token": owner}).status_code == 201
    other = client.post("/api/v1/groups", json={"name": "Rivals"}).get_json()
    moved = client.post(f"/api/v1/groups/{other['group']['slug']}/games",
                        headers=bearer(other["admin_token"]),
                        json={"game": ref, "owner_token": owner})
    assert moved.status_code == 409 and moved.get_json()["errors"][0]["code"] == \
        "in-another-group"


def test_an_invalid_log_stores_nothing(client, group):
    slug, made, _ = group
    admin = bearer(made["admin_token"])
    bad = client.post(f"/api/v1/groups/{slug}/games", headers=admin,
                      json={"log": {"format": "popreplay/1", "game": "pop"}})
    assert bad.status_code == 422 and bad.get_json()["errors"][0]["path"].startswith("/log")
    assert client.get(f"/api/v1/groups/{slug}/games", headers=admin).get_json()["items"] == []


SHEET = {"game": "pop", "mode": "battle", "players": ["Alice", "Bruno"],
         "played_at": "2026-05-01T20:00:00+00:00",
         "claimed": {"rounds": [{"scores": {"Alice": 10, "Bruno": 30}},
                                {"scores": {"Alice": 12, "Bruno": 2}}], "winners": ["Alice"]}}


def test_a_score_sheet_is_a_game_not_checked_move_by_move_and_is_rated(client, group):
    slug, made, ids = group
    admin = bearer(made["admin_token"])
    answer = client.post(f"/api/v1/groups/{slug}/sheets", headers=admin, json=SHEET)
    assert answer.status_code == 201, answer.get_json()
    game = answer.get_json()["game"]
    assert game["status"] == "sheet" and game["checked"] is False
    stored = client.get(f"/api/v1/games/{game['slug']}").get_json()
    assert stored["status"] == "sheet"
    boards = client.get(f"/api/v1/groups/{slug}/leaderboards", headers=admin).get_json()
    [board] = boards["boards"]
    assert board["standings"][0]["member"] == ids["Alice"]  # 22 against 32: the lower wins
    assert client.patch(f"/api/v1/groups/{slug}", headers=admin,
                        json={"checked_only": True}).status_code == 200
    only = client.get(f"/api/v1/groups/{slug}/leaderboards", headers=admin).get_json()
    assert only["boards"] == []  # the sheet no longer counts
    page = client.get(f"/g/{slug}/join?key={made['invite_key']}")
    assert "score sheet — not checked move by move" in client.get(f"/g/{slug}").get_data(
        as_text=True)
    assert page.status_code == 302


def test_a_bad_sheet_stores_nothing(client, group):
    slug, made, _ = group
    admin = bearer(made["admin_token"])
    bad = {**SHEET, "claimed": {"rounds": [{"scores": {"Alice": 10}}]}}
    answer = client.post(f"/api/v1/groups/{slug}/sheets", headers=admin, json=bad)
    assert answer.status_code == 422
    paths = {e["path"] for e in answer.get_json()["errors"]}
    assert paths == {"/claimed/rounds/0/scores", "/claimed/winners"}
    assert client.get(f"/api/v1/groups/{slug}/games", headers=admin).get_json()["items"] == []


def test_attaching_the_full_log_checks_it_and_compares_the_sheet(client, group):
    slug, made, _ = group
    admin = bearer(made["admin_token"])
    log = simulated("battle", 2, 21)
    log.pop("claimed", None)
    sheet = {**SHEET, "claimed": {"rounds": [{"scores": {"Alice": 1, "Bruno": 2}}],
                                  "winners": ["Alice"]}}
    ref = client.post(f"/api/v1/groups/{slug}/sheets", headers=admin,
                      json=sheet).get_json()["game"]["slug"]
    other = {**log, "players": ["Bruno", "Alice"]}
    refused = client.put(f"/api/v1/groups/{slug}/games/{ref}/log", headers=admin,
                         json={"log": other})
    assert refused.status_code == 422 and refused.get_json()["errors"][0]["path"] == \
        "/log/players"
    answer = client.put(f"/api/v1/groups/{slug}/games/{ref}/log", headers=admin,
                        json={"log": log})
    assert answer.status_code == 200, answer.get_json()
    game = answer.get_json()["game"]
    assert game["checked"] is True and game["status"] == "complete"
    assert game["claims_match"] is False  # one round of 1 and 2 points: not what was played
    again = client.put(f"/api/v1/groups/{slug}/games/{ref}/log", headers=admin,
                       json={"log": log})
    assert again.status_code == 409


def test_a_huge_group_is_refused_clearly(client, group, monkeypatch):
    from popreplay.groups import games as group_games
    from popreplay.groups import members as group_members

    slug, made, _ = group
    admin = bearer(made["admin_token"])
    monkeypatch.setattr(group_members, "MAX_MEMBERS", 5)
    full = client.post(f"/api/v1/groups/{slug}/members", headers=admin, json={"name": "Zoé"})
    assert full.status_code == 409 and full.get_json()["errors"][0]["code"] == "too-many-members"
    monkeypatch.setattr(group_games, "MAX_GAMES", 1)
    assert add(client, slug, admin, 31).status_code == 201
    over = add(client, slug, admin, 32)
    assert over.status_code == 409 and over.get_json()["errors"][0]["code"] == "group-full"
    items = client.get(f"/api/v1/groups/{slug}/games", headers=admin).get_json()["items"]
    assert len(items) == 1
    with client.application.app_context():  # the refused log was not stored
        from sqlalchemy import func, select

        from popreplay.db.models import GameRecord
        from popreplay.db.session import get_session

        assert get_session().scalar(select(func.count()).select_from(GameRecord)) == 1
