"""The review's resource probes through the HTTP (docs/table.md "Limits"): an entry nested 900
levels deep is refused before the engine (and the engine still answers after 100 of them), and
`after` past any sequence number is a 422, not a 500."""

from __future__ import annotations

import json
from typing import Any

from tests.tables.helpers import API, Table, bearer, game_log


def deep(levels: int) -> Any:
    value: Any = 1
    for _ in range(levels):
        value = {"x": value}
    return value


def test_a_deep_entry_is_refused_before_the_engine_and_the_engine_goes_on(client):
    table = Table(client, game_log())
    body = json.dumps({"id": "deep-0", "seen": 0, "entry": {
        "type": "place", "at": "/meta", "how": "set", "value": deep(900)}})
    for k in range(100):
        answer = client.post(f"{API}/{table.id}/entries", data=body.replace("deep-0", f"d{k}"),
                             content_type="application/json", headers=bearer(table.host))
        assert answer.status_code == 422, answer.get_data()[:200]
        assert answer.get_json()["errors"][0]["path"] == "/entry"
    layout = table.log["rounds"][0]["layout"][0]
    assert table.part("host", "round", {0: layout}).status_code == 201  # the engine answers


def test_entries_after_a_number_past_any_sequence_number_is_422(client):
    table = Table(client, game_log())
    for after in (str(2**63), str(2**31), "99999999999999999999"):
        answer = client.get(f"{API}/{table.id}/entries?after={after}",
                            headers=bearer(table.host))
        assert answer.status_code == 422, after
        assert answer.get_json()["errors"][0]["path"] == "/after"
    assert client.get(f"{API}/{table.id}/entries?after=0",
                      headers=bearer(table.host)).get_json() == {"entries": []}
