"""Who may call: unknown Host headers refused and never reflected, cross-site and non-JSON writes
refused, listed CORS origins allowed, the same-origin check compares the scheme. Found in the
hardening rounds of issues 15, 16 and 25 (docs/reliability.md)."""

from __future__ import annotations

import json

from popreplay.db.session import get_database
from tests.conftest import as_bytes, migrated_app, simulated
from tests.reliability.hardening import (
    count_games,
    nothing_kept,  # noqa: F401  (autouse: no engine work kept)
    small_cube,
)

# --- 8. Host header ------------------------------------------------------------------------------


def test_8_an_unknown_host_is_refused_and_never_reflected(app, client):
    raw = as_bytes(simulated("battle", 3, seed=99))
    for method, path in (("GET", "/"), ("GET", "/api/v1/games"), ("POST", "/api/v1/games")):
        response = client.open(path, method=method, data=raw, content_type="application/json",
                               headers={"Host": "evil.example"})
        assert response.status_code == 400, (method, path)
        assert b"evil.example" not in response.data
    assert count_games(app) == 0
    created = client.post("/api/v1/games", data=raw, content_type="application/json",
                          headers={"Host": "127.0.0.1:8000"})
    assert created.get_json()["share_url"].startswith("http://127.0.0.1:8000/r/")


def test_8_allowed_hosts_and_the_public_url(db_url):
    for app in migrated_app(db_url):
        pass
    from popreplay import create_app

    app = create_app({"DATABASE_URL": db_url, "ALLOWED_HOSTS": ("games.example", ".lan"),
                      "PUBLIC_BASE_URL": "https://replays.example"})
    try:
        client = app.test_client()
        for host in ("games.example", "box.lan", "replays.example"):
            assert client.get("/healthz", headers={"Host": host}).status_code == 200, host
        for host in ("localhost", "evil.example"):
            assert client.get("/healthz", headers={"Host": host}).status_code == 400, host
        created = client.post("/api/v1/games", data=as_bytes(simulated("battle", 3, seed=100)),
                              content_type="application/json", headers={"Host": "box.lan"})
        assert created.get_json()["share_url"].startswith("https://replays.example/r/")
        assert created.headers["Location"].startswith("https://replays.example/")
    finally:
        get_database(app).dispose()


# --- 9. cross-site writes ------------------------------------------------------------------------


def test_9_cross_site_and_non_json_writes_are_refused(app, client):
    raw = as_bytes(simulated("battle", 3, seed=101))
    cases = [
        ({"Content-Type": "text/plain", "Origin": "https://evil.example"}, 403),
        ({"Content-Type": "text/plain"}, 415),
        ({"Content-Type": "application/x-www-form-urlencoded"}, 415),
        ({}, 415),
        ({"Content-Type": "application/json", "Origin": "https://evil.example"}, 403),
        ({"Content-Type": "application/json", "Sec-Fetch-Site": "cross-site"}, 403),
    ]
    for headers, status in cases:
        response = client.post("/api/v1/games", data=raw, headers=headers)
        assert response.status_code == status, headers
        assert response.get_json()["code"] == status
    assert count_games(app) == 0
    same = client.post("/api/v1/games", data=raw, headers={
        "Content-Type": "application/json", "Origin": "http://localhost",
        "Sec-Fetch-Site": "same-origin"})
    assert same.status_code == 201
    token = same.get_json()["owner_token"]
    gone = client.delete(f"/api/v1/games/{same.get_json()['slug']}", headers={
        "Authorization": f"Bearer {token}", "Origin": "https://evil.example"})
    assert gone.status_code == 403


def test_9_a_listed_cors_origin_may_write(db_url):
    for _ in migrated_app(db_url):
        pass
    from popreplay import create_app

    app = create_app({"DATABASE_URL": db_url, "CORS_ORIGINS": ("https://club.example",)})
    try:
        response = app.test_client().post(
            "/api/v1/games", data=as_bytes(simulated("battle", 3, seed=102)),
            headers={"Content-Type": "application/json", "Origin": "https://club.example",
                     "Sec-Fetch-Site": "cross-site"})
        assert response.status_code == 403  # a browser says cross-site: refused all the same
        response = app.test_client().post(
            "/api/v1/games", data=as_bytes(simulated("battle", 3, seed=102)),
            headers={"Content-Type": "application/json", "Origin": "https://club.example"})
        assert response.status_code == 201
    finally:
        get_database(app).dispose()


# --- the same-origin check ------------------------------------------------------------

def test_the_same_origin_check_compares_the_scheme(client):
    log = json.dumps(small_cube())
    other = client.post("/api/v1/games", data=log, content_type="application/json",
                        headers={"Origin": "https://localhost"})
    assert other.status_code == 403
    same = client.post("/api/v1/games", data=log, content_type="application/json",
                       headers={"Origin": "http://localhost"})
    assert same.status_code == 201
