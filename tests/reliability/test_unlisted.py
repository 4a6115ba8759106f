"""Unlisted stays unlisted: its players' names and its branches are not listed, except to the owner
token of the game they branch from. Found in the hardening rounds of issues 15, 16 and 25
(docs/reliability.md)."""

from __future__ import annotations

import json

from popreplay.store.lookups import known_players
from tests.reliability.hardening import (
    API,
    nothing_kept,  # noqa: F401  (autouse: no engine work kept)
    small_cube,
    upload,
)

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
