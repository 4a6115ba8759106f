"""Access: owner tokens (≥128 random bits, stored hashed, compared in constant time), unlisted
games kept out of every list, export and statistic, unguessable share slugs, nobody changes or
deletes another person's game, security headers on HTML pages, CORS only where configured."""

from __future__ import annotations

import base64
import hashlib
import json
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from popreplay import create_app
from popreplay.store import tokens
from popreplay.store.tokens import new_owner_token, new_slug
from tests.conftest import as_bytes, simulated
from tests.databases import upgraded


def post(client: Any, log: dict[str, Any], visibility: str = "public") -> dict[str, Any]:
    response = client.post(f"/api/v1/games?visibility={visibility}", data=as_bytes(log),
                           content_type="application/json")
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def random_bits(token: str) -> int:
    """Bits of a ``secrets.token_urlsafe`` value (URL-safe base64 without padding)."""
    return len(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))) * 8


# --- owner tokens --------------------------------------------------------------------------------


def test_owner_tokens_have_at_least_128_random_bits_and_never_repeat(client):
    tokens = [post(client, simulated("battle", 3, seed=3000 + i))["owner_token"]
              for i in range(20)]
    assert all(random_bits(token) >= 128 for token in tokens)
    assert random_bits(tokens[0]) == 256
    assert len(set(tokens)) == len(tokens)
    generated = {new_owner_token() for _ in range(2000)}
    assert len(generated) == 2000


def test_owner_tokens_are_stored_only_as_their_hash(app, client, db_url):
    created = post(client, simulated("battle", 3, seed=3100))
    token = created["owner_token"]
    engine = create_engine(db_url)
    try:
        with engine.connect() as connection:
            row = connection.execute(text("SELECT * FROM games WHERE slug = :s"),
                                     {"s": created["slug"]}).mappings().one()
    finally:
        engine.dispose()
    stored = " ".join(str(value) for value in row.values())
    assert token not in stored
    assert row["owner_token_hash"] == hashlib.sha256(token.encode()).hexdigest()
    for url in (f"/api/v1/games/{created['slug']}", "/api/v1/games",
                "/api/v1/games/export", f"/api/v1/players/{created['players'][0]}"):
        body = client.get(url).data.decode()
        assert token not in body and row["owner_token_hash"] not in body, url


def test_owner_tokens_are_compared_in_constant_time(client, monkeypatch):
    created = post(client, simulated("battle", 3, seed=3200))
    calls = []
    real = tokens.hmac.compare_digest

    def spy(a: Any, b: Any) -> bool:
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(tokens.hmac, "compare_digest", spy)
    wrong = client.delete(f"/api/v1/games/{created['slug']}",
                          headers={"Authorization": "Bearer " + "A" * 43})
    assert wrong.status_code == 403
    assert len(calls) == 1
    # what is compared is two hashes of the same length, never the token itself
    assert len(calls[0][0]) == len(calls[0][1]) == 64
    right = client.delete(f"/api/v1/games/{created['slug']}",
                          headers={"Authorization": f"Bearer {created['owner_token']}"})
    assert right.status_code == 204
    assert len(calls) == 2


# --- nobody touches another person's game ---------------------------------------------------------


def test_no_request_changes_or_deletes_another_persons_game(client):
    mine = post(client, simulated("battle", 3, seed=3300))
    theirs = post(client, simulated("battle", 3, seed=3301), visibility="unlisted")
    url = f"/api/v1/games/{theirs['slug']}"
    attempts = [
        client.delete(url),
        client.delete(url, headers={"Authorization": f"Bearer {mine['owner_token']}"}),
        client.delete(url, headers={"Authorization": f"Basic {mine['owner_token']}"}),
        client.delete(url, headers={"Authorization": "Bearer "}),
        client.delete(url, headers={"Authorization": f"Bearer {theirs['owner_token'][:-1]}"}),
        client.delete(url, headers={"Authorization": f"Bearer {theirs['owner_token']}x"}),
        client.put(url, data=b"{}", content_type="application/json"),
        client.patch(url, data=b'{"visibility": "public"}', content_type="application/json"),
        client.post(url, data=b"{}", content_type="application/json"),
        client.put(f"{url}/log", data=b"{}", content_type="application/json"),
        client.delete(f"{url}/log"),
    ]
    assert [r.status_code for r in attempts] == [401, 403, 401, 401, 403, 403,
                                                 405, 405, 405, 405, 405]
    for response in attempts:
        assert set(response.get_json()) == {"code", "status", "message", "errors"}
    # Uploading the same bytes again, publicly, changes nothing about the stored game.
    again = client.post("/api/v1/games?visibility=public",
                        data=as_bytes(simulated("battle", 3, seed=3301)),
                        content_type="application/json")
    assert again.status_code == 200 and "owner_token" not in again.get_json()
    after = client.get(url).get_json()
    assert after["visibility"] == "unlisted"
    assert after == {k: v for k, v in theirs.items() if k != "owner_token"}
    assert client.get(f"{url}/log").data == as_bytes(simulated("battle", 3, seed=3301))


# --- unlisted games ------------------------------------------------------------------------------


def test_unlisted_games_never_appear_in_lists_exports_or_statistics(client):
    log = simulated("battle", 3, seed=3400)
    log["players"] = ["Secretive", "Bruno", "Chloé"]
    raw = json.dumps(log).replace('"Alice"', '"Secretive"').encode()
    hidden = client.post("/api/v1/games?visibility=unlisted", data=raw,
                         content_type="application/json").get_json()
    visible = post(client, simulated("battle", 3, seed=3401))
    listings = [
        "/api/v1/games", "/api/v1/games?limit=100", "/api/v1/games?player=Secretive",
        "/api/v1/games?player=Bruno", "/api/v1/games?game=pop&mode=battle",
        "/api/v1/games?sort=played_at", "/api/v1/games?legal=true",
        "/api/v1/games?status=complete", "/api/v1/games?claims_differ=false",
        "/api/v1/games?claims_differ=true", "/api/v1/games/export",
        "/api/v1/games/export?player=Secretive",
    ]
    for url in listings:
        body = client.get(url).data.decode()
        assert hidden["slug"] not in body, url
        assert hidden["sha256"] not in body, url
    assert visible["slug"] in client.get("/api/v1/games").data.decode()
    assert client.get("/api/v1/players/Secretive").status_code == 404
    bruno = client.get("/api/v1/players/Bruno").get_json()
    assert sum(s["games"] for s in bruno["stats"]) == 1
    assert hidden["slug"] not in json.dumps(bruno)
    # not by number either, and not on the home page
    for suffix in ("", "/log", "/replay"):
        assert client.get(f"/api/v1/games/{hidden['id']}{suffix}").status_code == 404
    assert hidden["slug"] not in client.get("/").data.decode()
    # but the link works
    assert client.get(f"/api/v1/games/{hidden['slug']}").status_code == 200
    assert client.get(f"/r/{hidden['slug']}").status_code == 200


# --- share slugs ---------------------------------------------------------------------------------


def test_share_slugs_are_unguessable():
    slugs = [new_slug() for _ in range(5000)]
    assert len(set(slugs)) == len(slugs)
    assert all(len(s) == 12 and random_bits(s) == 72 for s in slugs)
    alphabet = set("".join(slugs))
    assert len(alphabet) == 64  # every URL-safe base64 character turns up: no fixed part
    # Every position varies: nothing (a counter, a time) is baked into a place.
    for place in range(12):
        assert len({s[place] for s in slugs}) > 50
    # Guessing (docs/reliability.md): a million unlisted games, ten thousand guesses a second
    # for a year: the chance that any guess opens any game stays below 1 in 10,000.
    assert 1e6 * 1e4 * 3600 * 24 * 365 / 2**72 < 1e-4


def test_neighbouring_slugs_do_not_open_games(client):
    created = post(client, simulated("battle", 3, seed=3500))
    slug = created["slug"]
    for guess in (slug[:-1], slug + "A", slug.upper() if slug.upper() != slug else slug.lower(),
                  slug[::-1], created["sha256"], created["sha256"][:12]):
        if guess != slug:
            assert client.get(f"/api/v1/games/{guess}").status_code == 404
            assert client.get(f"/r/{guess}").status_code == 404


# --- security headers ----------------------------------------------------------------------------


def html_pages(client: Any) -> list[str]:
    slug = post(client, simulated("battle", 3, seed=3600))["slug"]
    return ["/", f"/r/{slug}", "/r/doesnotexist", "/examples/battle", "/api/v1/docs"]


def test_html_pages_send_security_headers(client):
    for url in html_pages(client):
        response = client.get(url)
        assert response.mimetype == "text/html", url
        csp = response.headers.get("Content-Security-Policy", "")
        directives = dict((part.strip().split(" ", 1) + [""])[:2]
                          for part in csp.split(";") if part.strip())
        script = directives.get("script-src", directives.get("default-src", ""))
        assert "'unsafe-inline'" not in script and "'unsafe-eval'" not in script, (url, csp)
        assert script in ("'self'", "'none'"), (url, csp)
        assert directives.get("frame-ancestors") == "'none'", (url, csp)
        assert directives.get("object-src", directives.get("default-src")) == "'none'" or \
            directives.get("default-src") == "'none'", (url, csp)
        assert response.headers.get("X-Content-Type-Options") == "nosniff", url
        assert response.headers.get("X-Frame-Options") == "DENY", url
        assert response.headers.get("Referrer-Policy") == "no-referrer", url
        if url != "/api/v1/docs":  # the viewer's pages: no inline script in the markup either
            body = response.data.decode()
            for tag in body.split("<script")[1:]:
                head = tag.split(">", 1)[0]
                assert "src=" in head or 'type="application/json"' in head, (url, head)


def test_every_response_says_nosniff(client):
    for url in ("/api/v1/games", "/api/v1/openapi.json", "/healthz", "/no/such/page"):
        assert client.get(url).headers.get("X-Content-Type-Options") == "nosniff", url


# --- CORS ----------------------------------------------------------------------------------------

ORIGIN = "https://scores.example.org"


def test_no_cors_unless_configured(client):
    for method, url in (("get", "/api/v1/games"), ("options", "/api/v1/games"),
                        ("get", "/api/v1/healthz")):
        response = getattr(client, method)(url, headers={"Origin": ORIGIN})
        assert not [h for h in response.headers.keys() if h.startswith("Access-Control-")]


@pytest.fixture
def cors_app(db_url: str, monkeypatch: Any) -> Any:
    """``cors_app("origins")``: a client of an app made with POPREPLAY_CORS_ORIGINS set."""
    from popreplay.db.session import get_database

    upgraded(db_url)
    apps = []

    def make(value: str) -> Any:
        monkeypatch.setenv("POPREPLAY_CORS_ORIGINS", value)
        apps.append(create_app({"DATABASE_URL": db_url, "TESTING": True}))
        return apps[-1].test_client()

    yield make
    for app in apps:
        get_database(app).dispose()


def test_cors_for_configured_origins_only(cors_app):
    client = cors_app(f"{ORIGIN}, http://localhost:3000")
    allowed = client.get("/api/v1/games", headers={"Origin": ORIGIN})
    assert allowed.headers["Access-Control-Allow-Origin"] == ORIGIN
    assert "Origin" in allowed.headers["Vary"]
    other = client.get("/api/v1/games", headers={"Origin": "https://evil.example"})
    assert "Access-Control-Allow-Origin" not in other.headers
    assert "Origin" in other.headers["Vary"]
    preflight = client.options("/api/v1/games/abc", headers={
        "Origin": "http://localhost:3000", "Access-Control-Request-Method": "DELETE",
        "Access-Control-Request-Headers": "Authorization"})
    assert preflight.headers["Access-Control-Allow-Origin"] == "http://localhost:3000"
    assert "DELETE" in preflight.headers["Access-Control-Allow-Methods"]
    assert "Authorization" in preflight.headers["Access-Control-Allow-Headers"]
    assert "Access-Control-Allow-Credentials" not in preflight.headers
    # pages are not API: no CORS on them
    page = client.get("/", headers={"Origin": ORIGIN})
    assert "Access-Control-Allow-Origin" not in page.headers
    # errors carry it too, so a browser page can read the error shape
    missing = client.get("/api/v1/games/nope", headers={"Origin": ORIGIN})
    assert missing.status_code == 404
    assert missing.headers["Access-Control-Allow-Origin"] == ORIGIN


def test_cors_star_allows_any_origin(cors_app):
    client = cors_app("*")
    response = client.get("/api/v1/healthz", headers={"Origin": "https://anywhere.example"})
    assert response.headers["Access-Control-Allow-Origin"] == "*"


@pytest.mark.parametrize("value", ["scores.example.org", "https://a.example/path", "ftp://x"])
def test_a_nonsense_cors_origin_is_refused(monkeypatch, value):
    monkeypatch.setenv("POPREPLAY_CORS_ORIGINS", value)
    with pytest.raises(ValueError, match="POPREPLAY_CORS_ORIGINS"):
        create_app({"DATABASE_URL": "sqlite://"})
