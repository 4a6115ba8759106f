"""Visibility follows the group: a private group's games, names and statistics appear nowhere
without its link or a token — the list, search by player, /players, the NDJSON and CSV exports,
a game by number, the home page, the recorder's names, a deleted game's tombstone. A public
group's public games stay listed."""

from __future__ import annotations

import json

import pytest

from popreplay.db.session import get_session
from popreplay.groups import access, games
from popreplay.store.edits import delete_game
from popreplay.store.ingestion import ingest
from tests.conftest import as_bytes, simulated

SECRET = "Zéphyrine"  # a name only the private group's game has


def secret_log(seed: int = 7) -> bytes:
    log = simulated("battle", 2, seed)
    text = json.dumps(log, ensure_ascii=False).replace("Alice", SECRET)
    return text.encode("utf-8")


@pytest.fixture
def hidden(app):
    """A public game in a private group, and a public game outside it: (hidden, open)."""
    with app.app_context():
        session = get_session()
        group = access.create_group(session, name="Secret Club").group
        secret = ingest(session, secret_log()).record
        games.add_game(session, group, secret)
        other = ingest(session, as_bytes(simulated("battle", 2, 8))).record
        return (secret.slug, secret.id, secret.content_hash), (other.slug, other.id)


def test_the_list_and_a_search_by_player_leave_it_out(client, hidden):
    (slug, _, _), (other, _) = hidden
    listed = [g["slug"] for g in client.get("/api/v1/games").get_json()["items"]]
    assert other in listed and slug not in listed
    assert client.get(f"/api/v1/games?player={SECRET}").get_json()["items"] == []


def test_players_knows_no_such_player(client, hidden):
    assert client.get(f"/api/v1/players/{SECRET}").status_code == 404
    body = client.get("/api/v1/players/Bruno").get_json()
    assert [g["slug"] for g in body["games"]] == [hidden[1][0]]
    assert sum(s["games"] for s in body["stats"]) == 1


def test_the_exports_leave_it_out(client, hidden):
    (slug, _, _), (other, _) = hidden
    ndjson = client.get("/api/v1/games/export").get_data(as_text=True)
    assert other in ndjson and slug not in ndjson and SECRET not in ndjson
    csv = client.get("/api/v1/games/export.csv").get_data(as_text=True)
    assert other in csv and slug not in csv and SECRET not in csv


def test_its_number_is_no_game_but_its_share_link_opens_it(client, hidden):
    (slug, number, _), (_, other_number) = hidden
    assert client.get(f"/api/v1/games/{number}").status_code == 404
    assert client.get(f"/api/v1/games/{other_number}").status_code == 200
    assert client.get(f"/api/v1/games/{slug}").status_code == 200  # the link is a capability


def test_the_home_page_and_the_recorder_do_not_show_it(client, hidden):
    (slug, _, _), (other, _) = hidden
    home = client.get("/").get_data(as_text=True)
    assert other in home and slug not in home and SECRET not in home
    recorder = client.get("/record").get_data(as_text=True)
    assert SECRET not in recorder and "Bruno" in recorder


def test_a_deleted_private_game_leaves_no_public_tombstone(app, client, hidden):
    (slug, _, digest), _ = hidden
    with app.app_context():
        session = get_session()
        from popreplay.store.lookups import find_by_slug

        delete_game(session, find_by_slug(session, slug))
    lines = client.get("/api/v1/games/export?with_deleted=true").get_data(as_text=True)
    assert slug not in lines and digest not in lines


def test_a_public_groups_games_stay_listed(app, client):
    with app.app_context():
        session = get_session()
        group = access.create_group(session, name="Open Club", private=False).group
        record = ingest(session, secret_log(9)).record
        games.add_game(session, group, record)
        slug = record.slug
    assert slug in [g["slug"] for g in client.get("/api/v1/games").get_json()["items"]]
    assert client.get(f"/api/v1/players/{SECRET}").status_code == 200
