"""Game ids: never given again after a delete, out of range answered 404/422, and an unlisted
number costs what a missing one costs (no row loaded). Found in the hardening rounds of issues 15,
16 and 25 (docs/reliability.md)."""

from __future__ import annotations

import json
from typing import Any

import pytest
import sqlalchemy as sa

from popreplay.db.models import GameRecord
from tests.conftest import as_bytes, simulated
from tests.reliability.hardening import post

# --- 11. ids are never given again ---------------------------------------------------------------


def test_11_the_id_of_a_deleted_game_is_never_given_again(client):
    first = post(client, as_bytes(simulated("battle", 3, seed=91))).get_json()
    newest = post(client, as_bytes(simulated("battle", 3, seed=92))).get_json()
    deleted = client.delete(f"/api/v1/games/{newest['id']}",
                            headers={"Authorization": f"Bearer {newest['owner_token']}"})
    assert deleted.status_code == 204
    third = post(client, as_bytes(simulated("battle", 3, seed=93))).get_json()
    assert third["id"] > newest["id"] > first["id"]
    assert client.get(f"/api/v1/games/{newest['id']}").status_code == 404
    assert client.get(f"/r/{newest['slug']}").status_code == 404


# --- 7. ids out of range -------------------------------------------------------------------------


@pytest.mark.parametrize("ref", ["1099511627776", "2147483648", "9223372036854775808", "0"])
def test_7_numbers_past_the_id_range_are_404(client, ref):
    for suffix in ("", "/log", "/replay"):
        response = client.get(f"/api/v1/games/{ref}{suffix}")
        assert response.status_code == 404, (ref, suffix)
        assert response.get_json()["code"] == 404


@pytest.mark.parametrize("last_id", [2**63 + 5, 2**31, -1])
def test_7_a_cursor_past_the_id_range_is_422(client, last_id):
    import base64

    raw = json.dumps(["-created", "2026-11-30T00:00:00+00:00", last_id]).encode()
    cursor = base64.urlsafe_b64encode(raw).decode().rstrip("=")
    response = client.get("/api/v1/games", query_string={"cursor": cursor})
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["path"] == "/cursor"


# --- 10. unlisted ids cost what missing ones cost ------------------------------------------------


def test_10_an_unlisted_number_loads_no_row(app, client):
    unlisted = client.post("/api/v1/games?visibility=unlisted",
                           data=as_bytes(simulated("battle", 3, seed=103)),
                           content_type="application/json").get_json()
    loaded: list[Any] = []
    listener = lambda target, _context: loaded.append(target)  # noqa: E731
    sa.event.listen(GameRecord, "load", listener)
    try:
        assert client.get(f"/api/v1/games/{unlisted['id']}").status_code == 404
        assert loaded == []
        assert client.get(f"/api/v1/games/{unlisted['slug']}").status_code == 200
        assert len(loaded) == 1
    finally:
        sa.event.remove(GameRecord, "load", listener)
