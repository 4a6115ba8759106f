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


def test_the_document_is_a_contract_a_generator_can_use(spec):
    """Ids and tags on every operation, a type and a title on every component, constants and
    nullable maps typed, media types on every non-JSON answer, 429 and 503 with Retry-After."""
    from popreplay.api.operations import OPERATION_IDS

    ids = []
    for path, item in spec["paths"].items():
        for method, op in item.items():
            if method not in ("get", "post", "put", "delete", "patch"):
                continue
            assert OPERATION_IDS.get((method, path)) == op["operationId"], (method, path)
            assert op["tags"], (method, path)
            ids.append(op["operationId"])
            for status, answer in op["responses"].items():
                if status in ("204", "304") or "$ref" in answer:
                    continue
                assert answer.get("content"), (method, path, status)
            if path != "/api/v1/healthz":
                assert "Retry-After" in op["responses"]["503"]["headers"], (method, path)
    assert len(ids) == len(set(ids))
    schemas = spec["components"]["schemas"]
    for name, schema in schemas.items():
        assert schema["title"] == name and schema["type"], name
        assert not schema.get("nullable"), name
    end = [c for c in schemas["LogSlap_event"]["oneOf"] if "time_up" in c["properties"]][0]
    assert end["properties"]["time_up"] == {"enum": [True], "type": "boolean"}
    cards = schemas["LogSlap_claimed"]["properties"]["cards"]
    assert cards["additionalProperties"] == {"type": "integer", "nullable": True}
    assert schemas["LogSlap"]["properties"]["claimed"] == {
        "allOf": [{"$ref": "#/components/schemas/LogSlap_claimed"}], "nullable": True}
    paths = spec["paths"]
    assert "application/x-ndjson" in paths["/api/v1/games/export"]["get"]["responses"]["200"][
        "content"]
    assert "text/csv" in paths["/api/v1/games/export.csv"]["get"]["responses"]["200"]["content"]
    for method, path in (("post", "/api/v1/games"), ("get", "/api/v1/games/export"),
                         ("get", "/api/v1/games/{ref}/replay"), ("put", "/api/v1/record/games/{ref}"),
                         ("post", "/api/v1/tables")):
        assert "Retry-After" in paths[path][method]["responses"]["429"]["headers"], (method, path)
    assert "429" not in paths["/api/v1/games"]["get"]["responses"]
