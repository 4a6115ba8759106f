"""The OpenAPI document describes what the API really answers: responses are checked against the
document's own schemas (OpenAPI 3.0 schema objects, read as JSON Schema)."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest

from tests.conftest import as_bytes, simulated


def json_schema(node: Any, components: dict[str, Any]) -> Any:
    """OpenAPI 3.0 schema -> JSON Schema: resolve $ref, turn `nullable` into a null type."""
    if isinstance(node, list):
        return [json_schema(item, components) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        return json_schema(components[node["$ref"].rsplit("/", 1)[-1]], components)
    out = {key: json_schema(value, components) for key, value in node.items()
           if key not in ("nullable", "example", "readOnly", "writeOnly")}
    if node.get("nullable"):
        out = {"anyOf": [out, {"type": "null"}]}
    return out


@pytest.fixture
def spec(client):
    return client.get("/api/v1/openapi.json").get_json()


def check(spec: dict[str, Any], path: str, method: str, status: int, body: Any) -> None:
    responses = spec["paths"][path][method]["responses"]
    documented = responses.get(str(status)) or responses.get("default")
    assert documented is not None, f"{method} {path} {status} is not documented"
    schema = documented["content"]["application/json"]["schema"]
    jsonschema.validate(body, json_schema(schema, spec["components"]["schemas"]))


def test_responses_match_the_document(client, spec):
    raw = as_bytes(simulated("battle", 3, seed=91, meta={"played_at": "2026-05-01T10:00:00Z"}))
    created = client.post("/api/v1/games", data=raw, content_type="application/json")
    check(spec, "/api/v1/games", "post", 201, created.get_json())
    again = client.post("/api/v1/games", data=raw, content_type="application/json")
    check(spec, "/api/v1/games", "post", 200, again.get_json())
    invalid = client.post("/api/v1/games", data=b"{}", content_type="application/json")
    check(spec, "/api/v1/games", "post", 422, invalid.get_json())
    slug = created.get_json()["slug"]
    check(spec, "/api/v1/games", "get", 200,
          client.get("/api/v1/games?limit=1").get_json())
    check(spec, "/api/v1/games/{ref}", "get", 200, client.get(f"/api/v1/games/{slug}").get_json())
    check(spec, "/api/v1/games/{ref}", "get", 404, client.get("/api/v1/games/nope").get_json())
    check(spec, "/api/v1/games/{ref}/replay", "get", 200,
          client.get(f"/api/v1/games/{slug}/replay").get_json())
    check(spec, "/api/v1/validate", "post", 200,
          client.post("/api/v1/validate", data=raw, content_type="application/json").get_json())
    check(spec, "/api/v1/players/{name}", "get", 200,
          client.get("/api/v1/players/Alice").get_json())
    check(spec, "/api/v1/healthz", "get", 200, client.get("/api/v1/healthz").get_json())
    check(spec, "/api/v1/readyz", "get", 200, client.get("/api/v1/readyz").get_json())
    denied = client.delete(f"/api/v1/games/{slug}")
    check(spec, "/api/v1/games/{ref}", "delete", 401, denied.get_json())
