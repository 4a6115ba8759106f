"""The group pages: created from the home page, joined with the invite link (a cookie of the
phone), 404 for a private group without it; the group page and a member's page show the
leaderboard, the rating chart (inline SVG, no script) and the names to ask; in French too."""

from __future__ import annotations

import re

from popreplay.db.session import get_session
from popreplay.groups import access, games, members
from popreplay.store.ingestion import ingest
from tests.groups.helpers import battle, club


def test_created_from_the_home_page_and_joined_by_link(client):
    home = client.get("/").get_data(as_text=True)
    assert 'action="/g"' in home
    page = client.post("/g", data={"name": "Les Jeudis"})
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    invite = re.search(r'id="invite-link" href="([^"]+)"', text).group(1)
    assert "/g/les-jeudis/join?key=" in invite and "<svg" in text
    assert client.get("/g/les-jeudis").status_code == 200  # the creator's phone is a member
    stranger = client.application.test_client()
    assert stranger.get("/g/les-jeudis").status_code == 404
    joined = stranger.get(invite.replace("http://localhost", ""))
    assert joined.status_code == 302 and joined.headers["Location"].endswith("/g/les-jeudis")
    assert stranger.get("/g/les-jeudis").status_code == 200
    assert stranger.get("/g/les-jeudis/join?key=wrong").status_code == 404


def test_group_and_member_pages(app, client):
    with app.app_context():
        made, ids, records = club(count=8)
        session = get_session()
        raw = battle(500, 2, 20).decode("utf-8").replace("Alice", "Zed").encode("utf-8")
        odd = ingest(session, raw).record
        games.add_game(session, made.group, odd)
        key, slug = made.invite_key, made.group.slug
    client.get(f"/g/{slug}/join?key={key}")
    page = client.get(f"/g/{slug}").get_data(as_text=True)
    assert 'data-board="pop/battle"' in page and "Who played?" in page and "Zed" in page
    assert page.count("data-member=") == 5
    member = client.get(f"/g/{slug}/p/{ids['Alice']}").get_data(as_text=True)
    assert '<svg class="rating-chart"' in member and "<script" not in member.split("</head>")[1]
    assert "Head to head" in member and "Bruno" in member
    french = client.get(f"/g/{slug}/p/{ids['Alice']}?lang=fr").get_data(as_text=True)
    assert "Face à face" in french
    # the question answered: Zed was Eun-ji
    answer = client.post(f"/g/{slug}/names/{odd.slug}", data={"seat-0": str(ids["Eun-ji"])})
    assert answer.status_code == 303
    assert "Who played?" not in client.get(f"/g/{slug}").get_data(as_text=True)


def test_a_private_group_page_is_not_found_without_the_link(app, client):
    with app.app_context():
        made = access.create_group(get_session(), name="Hidden")
    assert client.get(f"/g/{made.group.slug}").status_code == 404
    assert client.get(f"/g/{made.group.slug}/p/1").status_code == 404


def test_a_score_sheet_entered_on_the_page(app, client):
    with app.app_context():
        made, ids, _ = club(count=0)
        slug, key = made.group.slug, made.invite_key
    client.get(f"/g/{slug}/join?key={key}")
    start = client.get(f"/g/{slug}/sheet").get_data(as_text=True)
    assert 'value="pop/battle"' in start
    players = {"board": "pop/battle", "m": [str(ids["Alice"]), str(ids["Bruno"])]}
    form = client.get(f"/g/{slug}/sheet", query_string=players).get_data(as_text=True)
    assert 'name="rounds-0-1"' in form and 'name="winners-0"' in form
    missing = client.post(f"/g/{slug}/sheet", data={**players, "rounds-0-0": "4"})
    assert missing.status_code == 422 and "/claimed/winners" in missing.get_data(as_text=True)
    done = client.post(f"/g/{slug}/sheet", data={**players, "rounds-0-0": "4", "rounds-0-1": "9",
                                                 "winners-0": "1"})
    assert done.status_code == 303
    page = client.get(f"/g/{slug}").get_data(as_text=True)
    assert "score sheet — not checked move by move" in page and 'data-board="pop/battle"' in page


def test_a_kept_member_page_follows_every_change(app, client):
    with app.app_context():
        made, ids, _ = club(count=3)
        slug, key, group_id = made.group.slug, made.invite_key, made.group.id
    client.get(f"/g/{slug}/join?key={key}")
    url = f"/g/{slug}/p/{ids['Bruno']}"
    before = client.get(url).get_data(as_text=True)
    assert client.get(url).get_data(as_text=True) == before  # kept
    with app.app_context():
        from popreplay.db.groups import Group

        session = get_session()
        group = session.get(Group, group_id)
        games.add_game(session, group, ingest(session, battle(777, 3, 25)).record)
        members.rename(session, group, members.member_of(session, group, ids["Alice"]), "Alicia")
    after = client.get(url).get_data(as_text=True)
    assert after != before and "Alicia" in after
