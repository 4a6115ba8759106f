"""Listing queries: ``player=`` as people type it (case and accents folded, exact still there),
unknown ``game=``/``mode=`` answered like a bad sort, entity tags on a game and on list pages.
Found in the hardening rounds of issues 15, 16 and 25 (docs/reliability.md)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import as_bytes, simulated
from tests.reliability.hardening import post

# --- issue 16: player= as people type it; unknown game= / mode= ----------------------------------


def test_player_filter_folds_case_and_accents_and_exact_is_still_there(client):
    created = post(client, as_bytes(simulated("battle", 3, seed=130))).get_json()
    assert "Chloé" in created["players"]

    def found(**query: Any) -> list[int]:
        response = client.get("/api/v1/games", query_string=query)
        assert response.status_code == 200, response.get_json()
        return [g["id"] for g in response.get_json()["items"]]

    for typed in ("Chloé", "chloe", "CHLOE", " chloe\u0301 ", "Chloe"):
        assert found(player=typed) == [created["id"]], typed
    assert found(player="Chloé", player_exact="true") == [created["id"]]
    assert found(player="chloe", player_exact="true") == []
    assert found(player="Chlo") == []


@pytest.mark.parametrize("query, path", [("game=chess", "/game"), ("mode=batle", "/mode")])
def test_an_unknown_game_or_mode_is_422_like_a_bad_sort(client, query, path):
    response = client.get(f"/api/v1/games?{query}")
    assert response.status_code == 422
    assert [e["path"] for e in response.get_json()["errors"]] == [path]
    assert client.get("/api/v1/games?game=slap&mode=timed").status_code == 200


# --- issue 16: ETags on a game and on lists ------------------------------------------------------


def test_a_game_and_a_list_page_carry_etags(client):
    created = post(client, as_bytes(simulated("battle", 3, seed=131))).get_json()
    for path in (f"/api/v1/games/{created['slug']}", "/api/v1/games?limit=5"):
        first = client.get(path)
        etag = first.headers["ETag"]
        assert first.headers["Cache-Control"] == "no-cache"
        again = client.get(path, headers={"If-None-Match": etag})
        assert again.status_code == 304 and again.data == b""
    listed = client.get("/api/v1/games").headers["ETag"]
    post(client, as_bytes(simulated("battle", 3, seed=132)))
    changed = client.get("/api/v1/games", headers={"If-None-Match": listed})
    assert changed.status_code == 200 and changed.headers["ETag"] != listed
