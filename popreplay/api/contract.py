"""What the generated OpenAPI document needs beyond the marshmallow schemas, so that it is the
contract a client can trust:

* the log bodies are the published JSON Schemas (``schemas/popreplay/1/<game>.schema.json``, one
  per game, chosen by ``game``: a ``oneOf`` with a discriminator), written in OpenAPI 3.0's
  dialect (``const`` as a one-value ``enum``, ``[type, "null"]`` as ``nullable``, ``$defs`` as
  components ``Log<Game>_<name>``); each keeps its ``$id`` as ``x-schema-id``;
* ``links`` between operations: a stored game's body leads to its reading, log, replay and
  deletion (with the owner token), a page of the list to its games and to the next page, a
  recorder draft to reading and updating it.
"""

from __future__ import annotations

from typing import Any

from ..engine import GAMES
from ..logformat import published_schema
from . import operations

LOG_BODY = "LogBody"


def _component(game: str) -> str:
    return f"Log{game.capitalize()}"


def to_openapi30(schema: Any, prefix: str) -> Any:
    """A JSON Schema (2020-12, as ``schemas/`` publishes it) in OpenAPI 3.0's dialect."""
    if isinstance(schema, list):
        return [to_openapi30(item, prefix) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in ("$schema", "$id", "$defs"):
            continue
        if key == "const":
            out["enum"] = [value]
            out.setdefault("type", _kind(value))
        elif key == "$ref":
            out["$ref"] = "#/components/schemas/" + prefix + "_" + value.rsplit("/", 1)[1]
        elif key == "type" and isinstance(value, list):
            kinds = [kind for kind in value if kind != "null"]
            if len(kinds) == 1:
                out["type"] = kinds[0]
            else:
                out["anyOf"] = [{"type": kind} for kind in kinds]
            if "null" in value:
                out["nullable"] = True
        elif key in ("anyOf", "oneOf") and {"type": "null"} in value:
            rest = [item for item in value if item != {"type": "null"}]
            out[key] = to_openapi30(rest, prefix)
            out["nullable"] = True
        elif key in ("properties", "patternProperties"):
            out[key] = {name: to_openapi30(item, prefix) for name, item in value.items()}
        else:
            out[key] = to_openapi30(value, prefix)
    if "enum" in out and "type" not in out:
        types = {_kind(item) for item in out["enum"] if item is not None}
        if len(types) == 1:
            out["type"] = types.pop()
        if None in out["enum"]:
            out["nullable"] = True
    return out


def _kind(value: Any) -> str:
    """The JSON Schema type of a constant (generators drop an ``enum`` without a type)."""
    kinds = {bool: "boolean", int: "integer", float: "number", str: "string"}
    return kinds.get(type(value), "object" if isinstance(value, dict) else "array")


def for_generators(schemas: dict[str, Any]) -> None:
    """Every component with a type and a short title (its name: generators name their models
    after it), and none nullable at its top: a nullable component (a claimed outcome) is made
    nullable where it is used (``allOf: [ref]``, ``nullable``), as generators expect."""
    nullable = {name for name, schema in schemas.items() if schema.pop("nullable", False)}
    for name, schema in schemas.items():
        component = schemas[name] = _nullable_refs(schema, nullable)
        component["title"] = name
        component.setdefault("type", "object")


OPEN = ("properties", "additionalProperties", "oneOf", "anyOf", "allOf", "$ref")


def _nullable_refs(schema: Any, nullable: set[str]) -> Any:
    """``schema`` with references to the ``nullable`` components made nullable where used, and
    every object of unknown keys (``meta``, an outcome) saying so (``additionalProperties: {}``:
    without it TypeScript generators type it as an object with no keys)."""
    if isinstance(schema, list):
        return [_nullable_refs(item, nullable) for item in schema]
    if not isinstance(schema, dict):
        return schema
    if schema.get("type") == "object" and not any(key in schema for key in OPEN):
        schema = {**schema, "additionalProperties": {}}
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.rsplit("/", 1)[-1] in nullable:
        rest = {key: value for key, value in schema.items() if key != "$ref"}
        return {**rest, "allOf": [{"$ref": ref}], "nullable": True}
    return {key: _nullable_refs(value, nullable) for key, value in schema.items()}


def log_components() -> dict[str, dict[str, Any]]:
    """The components: one log schema per game, its definitions, and the body that picks one."""
    components: dict[str, dict[str, Any]] = {}
    mapping = {}
    for game in GAMES:
        published = published_schema(game)
        name = _component(game)
        for key, definition in published.get("$defs", {}).items():
            components[f"{name}_{key}"] = to_openapi30(definition, name)
        components[name] = {**to_openapi30(published, name), "x-schema-id": published["$id"]}
        mapping[game] = f"#/components/schemas/{name}"
    components[LOG_BODY] = {
        "description": "A game log (format popreplay/1): the published JSON Schema of its game "
                       "(`schemas/popreplay/1/<game>.schema.json`), chosen by `game`. Shape "
                       "only: the rules are checked by replaying, and an illegal log is stored "
                       "too.",
        "oneOf": [{"$ref": ref} for ref in mapping.values()],
        "discriminator": {"propertyName": "game", "mapping": mapping},
    }
    return components


def _nullable_nested(prop: dict[str, Any]) -> dict[str, Any]:
    """apispec writes a nullable nested schema as ``anyOf: [ref, {type: object, nullable}]``,
    which admits any object: written ``allOf: [ref]`` with ``nullable`` instead."""
    choices = prop.get("anyOf")
    loose = {"type": "object", "nullable": True}
    if isinstance(choices, list) and len(choices) == 2 and loose in choices:
        [ref] = [choice for choice in choices if choice != loose]
        if "$ref" in ref:
            rest = {k: v for k, v in prop.items() if k != "anyOf"}
            return {**rest, "allOf": [ref], "nullable": True}
    return prop


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _op(path: str, method: str) -> str:
    return "#/paths/" + path.replace("~", "~0").replace("/", "~1") + "/" + method


GAME = "/api/v1/games/{ref}"
DRAFT = "/api/v1/record/games/{ref}"


def _game_links(slug: str, token: str | None) -> dict[str, Any]:
    links: dict[str, Any] = {
        "GetGame": {"operationRef": _op(GAME, "get"), "parameters": {"ref": slug},
                    "description": "the game stored"},
        "GetLog": {"operationRef": _op(GAME + "/log", "get"), "parameters": {"ref": slug}},
        "GetReplay": {"operationRef": _op(GAME + "/replay", "get"),
                      "parameters": {"ref": slug}},
    }
    if token is not None:
        links["DeleteGame"] = {
            "operationRef": _op(GAME, "delete"),
            "parameters": {"ref": slug, "header.Authorization": f"Bearer {{{token}}}"},
            "description": "delete it with the owner token shown once"}
    return links


def _links() -> dict[tuple[str, str, str], dict[str, Any]]:
    slug, token = "$response.body#/slug", "$response.body#/owner_token"
    first = "$response.body#/items/0/slug"
    return {
        ("/api/v1/games", "post", "201"): _game_links(slug, token),
        ("/api/v1/games", "post", "200"): _game_links(slug, None),
        ("/api/v1/games", "get", "200"): {
            "GetFirstGame": {"operationRef": _op(GAME, "get"), "parameters": {"ref": first}},
            "NextPage": {"operationRef": _op("/api/v1/games", "get"),
                         "parameters": {"cursor": "$response.body#/next_cursor",
                                        "sort": "$request.query.sort"},
                         "description": "the next page (same sort and filters)"},
        },
        (GAME, "get", "200"): _game_links(slug, None),
        ("/api/v1/record/games", "post", "201"): {
            "GetDraft": {"operationRef": _op(DRAFT, "get"),
                         "parameters": {"ref": slug,
                                        "header.Authorization": f"Bearer {{{token}}}"},
                         "description": "continue the draft with the owner token"},
            **_game_links(slug, token),
        },
    }


def complete(spec: Any, guarded: set[tuple[str, str]]) -> None:
    """Add the log schemas, the links, and what generators need (``operations``: ids, media
    types, 429 on the ``guarded`` operations and 503) to the document built from the views (an
    apispec ``APISpec``, in place: once, after the blueprints are registered)."""
    for name, component in log_components().items():
        spec.components.schema(name, component)
    schemas, paths = spec.components.schemas, spec._paths
    for schema in schemas.values():
        for name, prop in schema.get("properties", {}).items():
            schema["properties"][name] = _nullable_nested(prop)
    for name in ("StoreBody", "UpdateBody", "CheckBody"):
        if name in schemas:
            schemas[name]["properties"]["log"] = {
                "allOf": [_ref(LOG_BODY)], "description": "the log (popreplay/1)"}
    for path, method in (("/api/v1/games", "post"), ("/api/v1/validate", "post")):
        content = paths[path][method]["requestBody"]["content"]
        content["application/json"]["schema"] = _ref(LOG_BODY)
    answer = paths["/api/v1/games/{ref}/log"]["get"]["responses"]["200"]
    answer["content"] = {"application/json": {"schema": _ref(LOG_BODY)}}  # as uploaded: a log
    for (path, method, status), links in _links().items():
        response = paths.get(path, {}).get(method, {}).get("responses", {}).get(status)
        if response is not None:
            response["links"] = links
    for_generators(schemas)
    operations.complete(paths, guarded)
