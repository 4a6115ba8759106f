"""The API docs page (``/api/v1/docs``): enums, Markdown descriptions (escaped), and one example
per operation that is true: each example request is replayed, in order, against the test app and
its answer must have the example's status and shape."""

from __future__ import annotations

import json
from typing import Any

from popreplay.api import docs
from popreplay.api.examples import (DRAFT_SLUG, DRAFT_TOKEN, ELIDED, EXAMPLES, HOST, JOIN,
                                    ORIGIN, SEAT, SLUG, TABLE, TOKEN)


def same_shape(example: Any, actual: Any, where: str = "") -> None:
    """Same JSON types, same object keys; ``"…"`` matches anything; an example list may be shorter
    (each of its items matches the answer's item at the same place)."""
    if example == ELIDED:
        return
    if isinstance(example, dict):
        assert isinstance(actual, dict), where
        assert set(example) == set(actual), (where, set(example) ^ set(actual))
        for key in example:
            same_shape(example[key], actual[key], f"{where}/{key}")
    elif isinstance(example, list):
        assert isinstance(actual, list) and len(example) <= len(actual), where
        for i, item in enumerate(example):
            same_shape(item, actual[i], f"{where}/{i}")
    elif isinstance(example, bool) or example is None:
        assert type(actual) is type(example), (where, example, actual)
    elif isinstance(example, (int, float)):
        assert isinstance(actual, (int, float)) and not isinstance(actual, bool), where
    else:
        assert isinstance(actual, str), (where, actual)


def test_every_example_is_true(client):
    spec = client.get("/api/v1/openapi.json").get_json()
    operations = {(method, path) for path, item in spec["paths"].items()
                  for method in docs.METHODS if method in item}
    assert {(e["method"], e["path"]) for e in EXAMPLES} == operations
    real: dict[str, str] = {ORIGIN: "http://localhost"}
    client.application.config["WEBHOOK_LOOPBACK"] = True  # the webhook's example receiver

    def fill(text: str) -> str:
        for stand_in, value in real.items():
            text = text.replace(stand_in, value)
        return text

    for example in EXAMPLES:
        assert spec["paths"][example["path"]][example["method"]]["x-example"]["request"] == \
            json.loads(json.dumps(example["request"]))
        request, shown = example["request"], example["response"]
        body = request.get("body")
        answer = client.open(fill(request["url"]), method=request["method"],
                             headers={k: fill(v) for k, v in request["headers"].items()},
                             data=None if body is None else fill(json.dumps(body)))
        name = f"{example['method']} {example['path']}"
        assert answer.status_code == shown["status"], (name, answer.data[:300])
        if "captures" in example:  # the stand-ins it names get their values from this answer
            for stand_in, pointer in example["captures"].items():
                value = answer.get_json()
                for key in pointer.strip("/").split("/"):
                    value = value[key]
                real[stand_in] = value
        elif answer.status_code == 201 and "host_token" in answer.get_json():  # a table
            made = answer.get_json()
            real[TABLE], real[HOST], real[JOIN] = (made["table"], made["host_token"],
                                                   made["join_key"])
        elif answer.status_code == 201 and "seat_token" in answer.get_json():
            real[SEAT] = answer.get_json()["seat_token"]
        elif answer.status_code == 201 and "/tables/" in request["url"]:
            pass  # a table's entry or its stored game
        elif answer.status_code == 201:
            created = answer.get_json()
            slug, token = (SLUG, TOKEN) if SLUG not in real else (DRAFT_SLUG, DRAFT_TOKEN)
            real[slug], real[token] = created["slug"], created["owner_token"]
        if shown.get("text"):
            assert answer.mimetype == shown["content_type"], name
            assert answer.get_data(as_text=True).startswith(shown["text"].split("{")[0]), name
        elif shown.get("lines"):
            assert answer.mimetype == shown["content_type"], name
            lines = [json.loads(line) for line in answer.data.decode().splitlines()]
            same_shape(shown["lines"], lines, name)
        elif shown.get("text"):  # a table: the same header, as many rows, the same cells
            assert answer.mimetype == shown["content_type"], name
            assert answer.data.decode() == fill(shown["text"]), name
        elif shown.get("body") is None:
            assert answer.data == b"", name
        else:
            assert answer.mimetype == shown["content_type"], name
            same_shape(shown["body"], answer.get_json(), name)


def test_page_lists_enums_examples_and_renders_markdown(client):
    html = client.get("/api/v1/docs").data.decode()
    spec = client.get("/api/v1/openapi.json").get_json()
    list_params = {p["name"]: p["schema"] for p in spec["paths"]["/api/v1/games"]["get"]["parameters"]}
    for name in ("game", "mode", "status", "sort"):
        for value in list_params[name]["enum"]:
            assert f"<code>&quot;{value}&quot;</code>" in html, (name, value)
    for value in spec["components"]["schemas"]["Game"]["properties"]["visibility"]["enum"]:
        assert f"<code>&quot;{value}&quot;</code>" in html
    assert html.count("<pre class=request tabindex=0>") == len(EXAMPLES)
    assert "<code>player_exact=true</code>" in html  # Markdown backticks, rendered
    assert "`" not in html.split("<h2>Schemas</h2>")[0].replace("<pre", "\0").split("\0")[0]


def test_markdown_cannot_inject_html():
    page = docs.render({"info": {"title": "<b>x</b>", "description": "<script>alert(1)</script> "
                                 "[a](javascript:alert(1)) **ok**"},
                        "paths": {}, "components": {"schemas": {"S": {"properties": {
                            "f": {"type": "string", "description": "<img src=x onerror=y>",
                                  "enum": ["<i>"]}}}}}})
    assert "<script" not in page and "<img" not in page and "<i>" not in page
    assert "href=\"javascript" not in page and "<b>x</b>" not in page  # link left as text
    assert "<strong>ok</strong>" in page
