"""Bad or odd input never gives a 500: NUL characters, lone surrogates, dates out of range."""

from __future__ import annotations

import json

import pytest

from popreplay.db.queries import player_name
from tests.conftest import simulated

ODD_NAMES = ["Al\\u0000ice", "\\ud83d\\ude00 Zoé"]  # lone surrogates: tests/reliability/test_text.py


@pytest.mark.parametrize("odd", ODD_NAMES)
def test_odd_player_names_are_stored_and_served(client, odd):
    text = json.dumps(simulated("battle", 3, seed=81), ensure_ascii=True)
    raw = text.replace("Alice", odd).encode()
    created = client.post("/api/v1/games", data=raw, content_type="application/json")
    assert created.status_code == 201, created.get_json()
    body = created.get_json()
    assert body["legal"] is True
    slug = body["slug"]
    assert client.get(f"/api/v1/games/{slug}").status_code == 200
    assert client.get(f"/api/v1/games/{slug}/log").data == raw
    assert client.get(f"/api/v1/games/{slug}/replay").status_code == 200
    export = client.get("/api/v1/games/export")
    assert json.loads(export.data)["raw_log"].encode() == raw
    stored_name = player_name(body["players"][0])  # U+FFFD for NUL and lone surrogates
    assert "\x00" not in stored_name
    found = client.get("/api/v1/games", query_string={"player": stored_name})
    assert found.status_code == 200
    assert [g["slug"] for g in found.get_json()["items"]] == [slug]


def test_odd_meta_is_kept_in_the_log_and_ignored_where_it_cannot_be_used(client):
    log = simulated("battle", 3, seed=82)
    log["meta"] = {"title": "a\u0000b", "played_at": "0001-01-01T00:00:00+14:00"}
    raw = json.dumps(log).encode()
    response = client.post("/api/v1/games", data=raw, content_type="application/json")
    assert response.status_code == 201
    body = response.get_json()
    assert body["title"] == "a\ufffdb"
    assert body["played_at"] is None


@pytest.mark.parametrize("query", [
    "player=a%00b", "game=%00", "mode=%ED%A0%80", "status=%00",
    "played_after=9999-12-31T23:59:59-12:00", "played_before=0001-01-01T00:00:00%2B14:00",
    "cursor=%00", "limit=1e99", "sort=%00",
])
def test_odd_query_strings(client, query):
    response = client.get(f"/api/v1/games?{query}")
    assert response.status_code in (200, 422)
    assert response.get_json()["items" if response.status_code == 200 else "errors"] is not None


@pytest.mark.parametrize("ref", ["a%00b", "%ED%A0%80", "..", "9" * 40, "-1"])
def test_odd_references_are_404(client, ref):
    for suffix in ("", "/log", "/replay"):
        response = client.get(f"/api/v1/games/{ref}{suffix}")
        assert response.status_code == 404
    assert client.get(f"/api/v1/players/{ref}").status_code == 404
