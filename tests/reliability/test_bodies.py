"""What a request body may hold: chunked bodies over the limit, NDJSON validation without steps,
bounded free text in ``meta``; lists never read the log column. Found in the hardening rounds of
issues 15, 16 and 25 (docs/reliability.md)."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
import sqlalchemy as sa

from popreplay.db.session import get_database
from tests.conftest import as_bytes, simulated
from tests.reliability.hardening import MiB, count_games, post

# --- 4. chunked bodies over the limit ------------------------------------------------------------


def chunked(client: Any, path: str, body: bytes) -> Any:
    """A body without Content-Length, ended by the server (as gunicorn does for chunked)."""
    return client.post(path, input_stream=io.BytesIO(body), content_type="application/json",
                       environ_overrides={"wsgi.input_terminated": True})


def test_4_a_chunked_body_over_the_limit_is_413_and_nothing_is_stored(app, client):
    log = simulated("battle", 3, seed=84)
    raw = as_bytes(log)
    created = chunked(client, "/api/v1/games", raw)
    assert created.status_code == 201
    assert client.get(f"/api/v1/games/{created.get_json()['slug']}/log").data == raw

    big = as_bytes(simulated("battle", 3, seed=85, meta={"note": "x" * MiB}))  # over the limit
    assert len(big) > MiB
    refused = chunked(client, "/api/v1/games", big)
    assert refused.status_code == 413
    assert refused.get_json()["code"] == 413
    assert count_games(app) == 1
    assert chunked(client, "/api/v1/validate", big).status_code == 413


def test_4_a_chunked_body_of_exactly_the_limit_is_read_whole(app, client):
    raw = as_bytes(simulated("battle", 3, seed=86))
    padded = raw[:-1] + b" " * (MiB - len(raw)) + b"}"
    assert len(padded) == MiB
    response = chunked(client, "/api/v1/games", padded)
    assert response.status_code == 201, response.get_json()
    assert client.get(f"/api/v1/games/{response.get_json()['slug']}/log").data == padded


# --- 3 (part). NDJSON validation refuses steps ---------------------------------------------------


def test_3_ndjson_validation_refuses_steps(client):
    body = as_bytes(simulated("battle", 3, seed=94)) + b"\n"
    refused = client.post("/api/v1/validate?steps=true", data=body,
                          content_type="application/x-ndjson")
    assert refused.status_code == 422
    assert refused.get_json()["errors"][0]["path"] == "/steps"
    lines = client.post("/api/v1/validate", data=body * 3, content_type="application/x-ndjson")
    results = [json.loads(line) for line in lines.data.splitlines()]
    assert [r["status"] for r in results] == ["complete"] * 3
    assert all("steps" not in r for r in results)


# --- 5. bounded free text; lists never load logs -------------------------------------------------


@pytest.mark.parametrize("meta, path", [
    ({"title": "t" * 201}, "/meta/title"),
    ({"note": "n" * 2001}, "/meta/note"),
    ({"where": {"deep": ["x", "y" * 2001]}}, "/meta/where/deep/1"),
    ({"many": list(range(300))}, "/meta"),
])
def test_5_meta_past_its_limits_is_422_with_a_pointer(app, client, meta, path):
    response = post(client, as_bytes(simulated("battle", 3, seed=95, meta=meta)))
    assert response.status_code == 422
    assert [(e["code"], e["path"]) for e in response.get_json()["errors"]] == [("schema", path)]
    assert count_games(app) == 0


def test_5_meta_at_its_limits_is_stored(client):
    meta = {"title": "t" * 200, "note": "n" * 2000}
    response = post(client, as_bytes(simulated("battle", 3, seed=96, meta=meta)))
    assert response.status_code == 201
    assert response.get_json()["title"] == "t" * 200


def statements(app: Any) -> list[str]:
    seen: list[str] = []
    sa.event.listen(get_database(app).engine, "before_cursor_execute",
                    lambda _c, _cur, statement, *_: seen.append(statement))
    return seen


def test_5_lists_and_pages_of_lists_never_read_the_log_column(app, client):
    for seed in (97, 98):
        post(client, as_bytes(simulated("battle", 3, seed=seed)))
    seen = statements(app)
    assert len(client.get("/api/v1/games").get_json()["items"]) == 2
    assert client.get("/").status_code == 200
    assert client.get("/api/v1/players/Alice").status_code == 200
    reads = [s for s in seen if s.lstrip().upper().startswith("SELECT")]
    assert reads and not [s for s in reads if "games.log" in s]
