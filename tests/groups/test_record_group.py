"""The recorder of a group (docs/groups.md, "Recording for the group"): ``/g/<slug>/record``
offers the members as players (the page's data; the chips are tested in the browser,
test_club_browser.py); the game it stores joins the group with each seat its member; "Record
together" makes a table of the group whose stored game joins it the same way; ``POST
/api/v1/tables`` with ``group`` does it for the API, with clear errors (JSON Pointers)."""

from __future__ import annotations

import json
import re

from popreplay.db.session import get_session
from popreplay.groups import access, members
from tests.conftest import simulated
from tests.groups.helpers import NAMES
from tests.tables.helpers import Table

TABLES = "/api/v1/tables"


def a_club(app, private: bool = True):
    with app.app_context():
        session = get_session()
        made = access.create_group(session, name="Les Jeudis", private=private)
        ids = {n: members.add_member(session, made.group, name=n).id for n in NAMES}
        return made.group.slug, made.invite_key, ids


def page_data(text: str) -> dict:
    return json.loads(re.search(r'<script type="application/json" id="record-data">(.*?)</script>',
                                text, re.S).group(1))


def seats(client, slug: str, key: str, game: str) -> list[tuple[str, int | None]]:
    items = client.get(f"/api/v1/groups/{slug}/games", headers={
        "Authorization": f"Bearer {key}"}).get_json()["items"]
    [item] = [i for i in items if i["slug"] == game]
    return [(s["name"], s["member"]) for s in item["seats"]]


def test_the_group_recorder_offers_its_members_and_needs_the_phone_key(app, client):
    slug, key, ids = a_club(app)
    assert client.get(f"/g/{slug}/record").status_code == 404  # a private group, no key
    redirect = client.get(f"/record?group={slug}&lang=fr")
    assert redirect.status_code == 302 and redirect.headers["Location"].endswith(
        f"/g/{slug}/record?lang=fr")
    client.get(f"/g/{slug}/join?key={key}")
    assert f'id="record-game" href="/g/{slug}/record"' in client.get(f"/g/{slug}").get_data(
        as_text=True)  # the group page's "Record a game"
    data = page_data(client.get(f"/g/{slug}/record").get_data(as_text=True))
    assert data["group"]["slug"] == slug and data["group"]["private"] is True
    assert [m["name"] for m in data["group"]["members"]] == NAMES
    assert [m["id"] for m in data["group"]["members"]] == [ids[n] for n in NAMES]
    assert data["known_players"][:5] == NAMES
    assert page_data(client.get("/record").get_data(as_text=True))["group"] is None


def test_a_recorded_game_joins_with_each_seat_its_member(app, client):
    slug, key, ids = a_club(app)
    client.get(f"/g/{slug}/join?key={key}")
    text = json.dumps(simulated("battle", 3, 7), ensure_ascii=False)
    for old, new in zip(simulated("battle", 3, 7)["players"], ["Alice", "Zoé", "Bruno"]):
        text = text.replace(f'"{old}"', f'"{new}"')
    stored = client.post("/api/v1/record/games", json={"log": json.loads(text),
                                                       "visibility": "unlisted"}).get_json()
    body = {"game": stored["slug"], "owner_token": stored["owner_token"],
            "members": [ids["Alice"], None, ids["Chloé"]]}  # Chloé played as "Bruno"
    wrong = client.post(f"/g/{slug}/record/games", json={**body, "owner_token": "nope"})
    assert wrong.status_code == 403 and wrong.get_json()["errors"][0]["path"] == "/owner_token"
    short = client.post(f"/g/{slug}/record/games", json={**body, "members": [ids["Alice"]]})
    assert short.status_code == 422 and short.get_json()["errors"][0]["path"] == "/members"
    twice = client.post(f"/g/{slug}/record/games", json={**body, "members": [ids["Alice"], None,
                                                                               ids["Alice"]]})
    assert twice.status_code == 409 and twice.get_json()["errors"][0]["path"] == "/members/2"
    unknown = client.post(f"/g/{slug}/record/games", json={**body, "members": [999, None, None]})
    assert unknown.status_code == 404 and unknown.get_json()["errors"][0]["path"] == "/members/0"
    assert client.post(f"/g/{slug}/record/games", data=body).status_code == 415  # not a form
    joined = client.post(f"/g/{slug}/record/games", json=body)
    assert joined.status_code == 201, joined.get_json()
    assert joined.get_json()["unmapped"] == ["Zoé"]
    assert seats(client, slug, key, stored["slug"]) == [
        ("Alice", ids["Alice"]), ("Zoé", None), ("Bruno", ids["Chloé"])]
    again = client.post(f"/g/{slug}/record/games", json=body)
    assert again.status_code == 200  # a retry: in the group already
    stranger = client.application.test_client()
    assert stranger.post(f"/g/{slug}/record/games", json=body).status_code == 404


def start_of(log: dict) -> dict:
    return {k: log[k] for k in ("format", "game", "mode", "players")} | {"rounds": []}


def play_at_the_table(client, created: dict, log: dict) -> None:
    """The whole game entered at the table, each seat its own cards (tests/tables/helpers.py)."""
    table = Table.__new__(Table)
    table.client, table.log, table.created = client, log, created
    table.id, table.host, table.key = created["table"], created["host_token"], created["join_key"]
    table.seats, table.seen = {}, {}
    for name in log["players"]:
        assert table.join(name).status_code == 201
    for r, rnd in enumerate(log["rounds"]):
        assert {a.status_code for a in table.deal(r)} == {201}
        for k in range(len(rnd["turns"])):
            assert {a.status_code for a in table.turn(r, k)} == {201}


def test_a_table_of_the_group_seats_its_members(app, client):
    slug, key, ids = a_club(app)
    log = simulated("battle", 3, 11)
    players = log["players"]  # the simulated names are members' aliases
    members_ = [ids[players[0]], ids[players[2]], ids[players[1]]]  # said otherwise
    body = {"log": start_of(log), "record_hands": True,
            "group": {"slug": slug, "members": members_}}
    assert client.post(TABLES, json=body).status_code == 404  # a private group, no capability
    auth = {"Authorization": f"Bearer {key}"}
    bad = client.post(TABLES, json={**body, "group": {"slug": slug, "members": [1]}},
                      headers=auth)
    assert bad.status_code == 422 and bad.get_json()["errors"][0]["path"] == "/group/members"
    other = client.post(TABLES, json={**body, "group": {"slug": slug, "members": [
        members_[0], 424242, None]}}, headers=auth)
    assert other.status_code == 404 and other.get_json()["errors"][0]["path"] == "/group/members/1"
    extra = client.post(TABLES, json={**body, "group": {"slug": slug, "members": members_,
                                                        "x": 1}}, headers=auth)
    assert extra.status_code == 422
    made = client.post(TABLES, json=body, headers=auth)
    assert made.status_code == 201, made.get_json()
    table = made.get_json()
    assert "group" not in json.dumps(table["view"])  # the table's views say nothing of it
    host = {"Authorization": f"Bearer {table['host_token']}"}
    play_at_the_table(client, table, log)
    stored = client.post(f"{TABLES}/{table['table']}/store", json={"visibility": "public"},
                         headers=host)
    assert stored.status_code == 201, stored.get_json()
    game = stored.get_json()
    assert game["status"] == "complete" and game["visibility"] == "unlisted"  # private group
    assert seats(client, slug, key, game["slug"]) == list(zip(players, members_))


def test_the_group_recorder_makes_the_table_with_the_phone_key(app, client):
    slug, key, ids = a_club(app, private=False)
    log = simulated("battle", 2, 12)
    members_ = [ids[p] for p in log["players"]]
    body = {"log": start_of(log), "record_hands": True, "members": members_}
    assert client.post(f"/g/{slug}/record/table", json=body).status_code == 404  # not a member
    client.get(f"/g/{slug}/join?key={key}")
    made = client.post(f"/g/{slug}/record/table", json=body)
    assert made.status_code == 201 and made.get_json()["host_token"]
    twice = client.post(f"/g/{slug}/record/table", json={**body, "members": [members_[0]] * 2})
    assert twice.status_code == 409 and twice.get_json()["errors"][0]["path"] == "/members/1"
