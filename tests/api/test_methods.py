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
