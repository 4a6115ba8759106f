"""Every route, API and pages alike, answers a method it does not have with 405 and ``Allow``
(never 415 because the body was not JSON, nor 404), in the one error shape."""

from __future__ import annotations

import re

METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")


def concrete(rule: str) -> str:
    """A path the rule matches (``<slug>`` -> a plausible value)."""
    return re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", lambda m: "1" if "id" in m.group(1) else "abcdefgh",
                  rule)


def routed(app, path: str, method: str) -> bool:
    """Some route takes ``method`` on ``path`` (``DELETE /games/export`` is ``/games/{ref}``)."""
    from werkzeug.exceptions import HTTPException

    try:
        app.url_map.bind("localhost").match(path, method)
    except HTTPException:
        return False
    return True


def test_every_route_answers_405_with_allow_to_a_method_it_lacks(app, client):
    checked = 0
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        path = concrete(rule.rule)
        allowed = {m for m in METHODS + ("HEAD", "OPTIONS") if routed(app, path, m)}
        for method in METHODS:
            if method in allowed:
                continue
            response = client.open(path, method=method, data=b"x",
                                   content_type="text/plain")
            assert response.status_code == 405, (method, path, response.status_code)
            assert set(response.headers["Allow"].split(", ")) >= allowed - {"OPTIONS"}
            body = response.get_json()
            assert body["code"] == 405 and body["status"] == "Method Not Allowed", body
            checked += 1
    assert checked > 60


def test_options_allow_what_the_document_says(app, client):
    """``Allow`` (OPTIONS, and a 405's) lists the document's methods of the path, plus HEAD with
    GET and OPTIONS: ``/games/export`` no longer takes a game's DELETE."""
    spec = client.get("/api/v1/openapi.json").get_json()
    for path, item in spec["paths"].items():
        # a path parameter the document types as an integer (a member's id) takes a number
        concrete_path = re.sub(r"\{([^}]+)\}", lambda m: "7" if m.group(1).endswith("_id")
                               and m.group(1) != "table_id" else "abcdefgh", path)
        documented = {m.upper() for m in item if m in ("get", "post", "put", "patch", "delete")}
        expected = documented | {"OPTIONS"} | ({"HEAD"} if "GET" in documented else set())
        allow = client.options(concrete_path).headers["Allow"]
        assert {m.strip() for m in allow.split(",")} == expected, path


def test_a_deleted_game_answers_204_without_a_content_type(client, make_log):
    created = client.post("/api/v1/games", data=make_log(), content_type="application/json")
    body = created.get_json()
    gone = client.delete(f"/api/v1/games/{body['slug']}",
                         headers={"Authorization": f"Bearer {body['owner_token']}"})
    assert gone.status_code == 204 and gone.data == b""
    assert "Content-Type" not in gone.headers
    assert client.delete("/api/v1/games/export").status_code == 405


def test_a_table_refuses_a_number_for_record_hands(client):
    """schemathesis' finding (issue 33): `record_hands: 0` was taken for false."""
    start = {"format": "popreplay/1", "game": "pop", "mode": "battle",
             "players": ["Ana", "Bruno", "Chloé"], "rounds": []}
    for value in (0, 1, "true"):
        refused = client.post("/api/v1/tables", json={"log": start, "record_hands": value})
        assert refused.status_code == 422, value
        assert refused.get_json()["errors"][0]["path"] == "/record_hands"
    assert client.post("/api/v1/tables", json={"log": start,
                                               "record_hands": False}).status_code == 201
