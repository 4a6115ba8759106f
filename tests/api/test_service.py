"""Validate, players, health, errors, limits, the OpenAPI document and its docs page."""

from __future__ import annotations

import json
import re

import pytest

from popreplay import create_app
from popreplay.checking import check_text
from tests.conftest import as_bytes, made_app, simulated
from tests.databases import upgraded


def test_validate_returns_the_full_result_and_stores_nothing(client, make_log):
    raw = make_log("battle", 3, seed=31)
    response = client.post("/api/v1/validate", data=raw, content_type="application/json")
    assert response.status_code == 200
    assert response.get_json() == check_text(raw)
    with_steps = client.post("/api/v1/validate?steps=true", data=raw,
                             content_type="application/json").get_json()
    assert with_steps == check_text(raw, with_steps=True)
    invalid = client.post("/api/v1/validate", data=b"{}", content_type="application/json")
    assert invalid.status_code == 200
    assert invalid.get_json()["status"] == "invalid"
    assert client.get("/api/v1/games").get_json()["items"] == []


def test_validate_ndjson_streams_one_result_per_line(client, make_log):
    logs = [make_log("coop", 3, seed=32), b"{not json", make_log("solo", 1, seed=33)]
    body = b"\n".join(logs) + b"\n\n"
    response = client.post("/api/v1/validate", data=body, content_type="application/x-ndjson")
    assert response.status_code == 200
    assert response.mimetype == "application/x-ndjson"
    lines = [json.loads(line) for line in response.data.decode().splitlines()]
    assert [line["line"] for line in lines] == [1, 2, 3]
    assert [line["status"] for line in lines] == [
        check_text(logs[0])["status"], "invalid", check_text(logs[2])["status"]]
    assert {k: v for k, v in lines[0].items() if k != "line"} == check_text(logs[0])


def test_player_statistics(client):
    totals = []
    for seed in (41, 42, 43):
        log = simulated("battle", 3, seed=seed)
        created = client.post("/api/v1/games", data=as_bytes(log),
                              content_type="application/json").get_json()
        assert created["status"] == "complete"
        totals.append(created["result"]["outcome"]["totals"]["Alice"])
    wins = 0
    for seed in (41, 42, 43):
        outcome = check_text(as_bytes(simulated("battle", 3, seed=seed)))["outcome"]
        wins += "Alice" in outcome["winners"]
    coop = client.post("/api/v1/games", data=as_bytes(simulated("coop", 3, seed=44)),
                       content_type="application/json").get_json()
    body = client.get("/api/v1/players/Alice").get_json()
    assert body["name"] == "Alice"
    battle = next(s for s in body["stats"] if s["mode"] == "battle")
    assert battle == {"game": "pop", "mode": "battle", "games": 3, "complete": 3, "wins": wins,
                      "average": round(sum(totals) / 3, 2), "best": min(totals)}
    coop_stats = next(s for s in body["stats"] if s["mode"] == "coop")
    assert coop_stats["games"] == 1
    assert coop_stats["wins"] == int(coop["result"]["outcome"]["result"] == "won")
    assert coop_stats["average"] is None and coop_stats["best"] is None
    assert len(body["games"]) == 4
    missing = client.get("/api/v1/players/Nobody")
    assert missing.status_code == 404
    assert missing.get_json()["code"] == 404


def test_health_and_readiness(client):
    for prefix in ("", "/api/v1"):
        assert client.get(f"{prefix}/healthz").get_json()["status"] == "ok"
        ready = client.get(f"{prefix}/readyz")
        assert ready.status_code == 200
        assert ready.get_json()["ready"] is True


def test_a_database_that_does_not_answer_is_503_with_retry_after(tmp_path):
    app = create_app({"DATABASE_URL": "postgresql+psycopg://nobody@127.0.0.1:1/none",
                      "TESTING": True})
    client = app.test_client()
    ready = client.get("/readyz")
    assert ready.status_code == 503
    assert ready.get_json()["ready"] is False
    assert ready.headers["Retry-After"]
    listing = client.get("/api/v1/games")
    assert listing.status_code == 503
    assert listing.headers["Retry-After"] == "5"
    body = listing.get_json()
    assert body["code"] == 503 and body["status"] == "Service Unavailable"
    assert client.get("/healthz").status_code == 200


def test_bodies_over_the_limit_are_413_in_the_error_shape(db_url):
    
    upgraded(db_url)
    with made_app({"DATABASE_URL": db_url, "MAX_CONTENT_LENGTH": 2000, "TESTING": True}) as app:
        client = app.test_client()
        raw = as_bytes(simulated("battle", 3, seed=51))
        assert len(raw) > 2000
        for url in ("/api/v1/games", "/api/v1/validate"):
            response = client.post(url, data=raw, content_type="application/json")
            assert response.status_code == 413
            body = response.get_json()
            assert body["code"] == 413 and body["status"] == "Request Entity Too Large"
        line_too_long = client.post("/api/v1/validate", data=raw + b"\n{}\n",
                                    content_type="application/x-ndjson")
        assert line_too_long.status_code == 200
        results = [json.loads(x) for x in line_too_long.data.decode().splitlines()]
        assert [r["status"] for r in results] == ["invalid", "invalid"]
        assert "longer than 2000 bytes" in results[0]["errors"][0]["message"]


@pytest.mark.parametrize(("method", "url", "code"), [
    ("get", "/no/such/page", 404),
    ("get", "/api/v1/nothing", 404),
    ("get", "/api/v1/games/ZZZZZZZZZZZZ", 404),
    ("get", "/api/v1/games/123456", 404),
    ("put", "/api/v1/games", 405),
    ("get", "/api/v1/validate", 405),
])
def test_errors_everywhere_have_one_shape(client, method, url, code):
    response = getattr(client, method)(url)
    assert response.status_code == code
    assert response.mimetype == "application/json"
    body = response.get_json()
    assert set(body) == {"code", "status", "message", "errors"}
    assert body["code"] == code


def test_openapi_document_and_offline_docs_page(client):
    spec = client.get("/api/v1/openapi.json").get_json()
    assert spec["openapi"].startswith("3.")
    for path in ("/api/v1/games", "/api/v1/games/{ref}", "/api/v1/games/{ref}/log",
                 "/api/v1/games/{ref}/replay", "/api/v1/games/export", "/api/v1/validate",
                 "/api/v1/players/{name}", "/api/v1/healthz", "/api/v1/readyz"):
        assert path in spec["paths"], path
    assert set(spec["paths"]["/api/v1/games/{ref}"]) >= {"get", "delete"}
    schemas = spec["components"]["schemas"]
    assert set(schemas["Error"]["properties"]) == {"code", "status", "message", "errors"}
    assert "owner_token" in schemas["CreatedGame"]["properties"]
    page = client.get("/api/v1/docs")
    assert page.status_code == 200
    html = page.data.decode()
    assert "/api/v1/games/{ref}/replay" in html
    # Offline: no script, and nothing loaded from or linked to another origin (a URL shown as
    # text, such as the webhook example's receiver, is not a link).
    assert "<script" not in html
    assert not re.search(r"""(?:src|href|action)\s*=\s*["']?(?:https?:)?//""", html)
