"""Every example of the API's documentation validates against the OpenAPI document it is shown
in (issue 28): the request body against the operation's request schema, the answer against the
schema of its status (openapi-schema-validator, OpenAPI 3.0's dialect: ``nullable``,
discriminators). ``test_docs_page.py`` replays the same examples against the server; together they
say that the document, the examples and the service agree. A value elided in an example (``…``)
matches anything."""

from __future__ import annotations

from typing import Any

import pytest
from openapi_schema_validator import OAS30Validator

from popreplay.api.examples import ELIDED, EXAMPLES


def nulls_allowed(schema: Any) -> Any:
    """``nullable`` beside ``allOf`` (how the document writes a nested schema that may be null)
    read as "this, or null": OpenAPI 3.0.3 ties ``nullable`` to a ``type`` beside it, and a
    validator then still checks null against the ``allOf``."""
    if isinstance(schema, list):
        return [nulls_allowed(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    schema = {k: nulls_allowed(v) for k, v in schema.items()}
    if schema.get("nullable") is True and "type" not in schema:
        rest = {k: v for k, v in schema.items() if k != "nullable"}
        return {"anyOf": [rest, {"enum": [None]}]}
    return schema


def schema_of(spec: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with the document's components beside it, so that its ``$ref``s resolve."""
    return nulls_allowed({**schema, "components": spec["components"]})


def elided_only(error: Any) -> bool:
    """An error that is only about a value elided in the example (``…``)."""
    if error.instance == ELIDED:
        return True
    return bool(error.context) and all(elided_only(e) for e in error.context)


def problems(spec: dict[str, Any], schema: dict[str, Any], value: Any) -> list[str]:
    validator = OAS30Validator(schema_of(spec, schema))
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message[:200]}"
            for e in validator.iter_errors(value) if not elided_only(e)]


def json_schema(content: dict[str, Any] | None) -> dict[str, Any] | None:
    media = (content or {}).get("application/json")
    return media.get("schema") if media else None


@pytest.fixture(scope="module")
def spec(module_app: Any) -> dict[str, Any]:
    return module_app.test_client().get("/api/v1/openapi.json").get_json()


@pytest.fixture(scope="module")
def module_app(tmp_path_factory: pytest.TempPathFactory) -> Any:
    from tests.conftest import migrated_app

    yield from migrated_app(f"sqlite:///{tmp_path_factory.mktemp('examples') / 'db.sqlite'}")


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: f"{e['method']} {e['path']}")
def test_the_example_validates_against_the_document(spec, example):
    operation = spec["paths"][example["path"]][example["method"]]
    body = example["request"].get("body")
    if body is not None and example["request"]["headers"].get("Content-Type",
                                                             "").startswith("application/json"):
        schema = json_schema(operation["requestBody"]["content"])
        assert schema is not None, "a JSON body the document does not describe"
        assert problems(spec, schema, body) == []
    response = example["response"]
    documented = operation["responses"].get(str(response["status"]))
    assert documented is not None, f"status {response['status']} is not documented"
    if response.get("body") is not None:
        schema = json_schema(documented.get("content"))
        assert schema is not None, "a JSON answer the document does not describe"
        assert problems(spec, schema, response["body"]) == []


def test_a_wrong_example_is_caught(spec):
    """The check has teeth: a number for a title, or a string for ``legal``, fails."""
    [created] = [e for e in EXAMPLES if e["method"] == "get" and e["path"] == "/api/v1/games/{ref}"]
    schema = json_schema(spec["paths"]["/api/v1/games/{ref}"]["get"]["responses"]["200"]["content"])
    body = dict(created["response"]["body"])
    assert problems(spec, schema, body) == []
    assert problems(spec, schema, {**body, "title": 7})
    assert problems(spec, schema, {**body, "legal": "yes"})
