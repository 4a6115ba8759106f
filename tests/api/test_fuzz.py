"""Whatever the body or the query string, the API answers in its shape and never with a 500."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import simulated

FUZZ = settings(max_examples=40, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**20, 10**20) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                 max_size=4),
    max_leaves=20)


def mutated_logs():
    base = simulated("battle", 3, seed=99)
    keys = st.sampled_from(sorted(base))
    return st.tuples(keys, json_values).map(lambda kv: json.dumps({**base, kv[0]: kv[1]}))


@FUZZ
@given(body=st.binary(max_size=300) | mutated_logs().map(str.encode))
def test_upload_any_body(client, body):
    response = client.post("/api/v1/games", data=body, content_type="application/json")
    assert response.status_code in (200, 201, 422)
    payload = response.get_json()
    if response.status_code == 422:
        assert payload["code"] == 422 and payload["errors"]
    else:
        assert payload["result"]["status"] in ("complete", "incomplete", "illegal")


@FUZZ
@given(query=st.dictionaries(
    st.sampled_from(["game", "mode", "player", "status", "legal", "claims_differ",
                     "played_after", "played_before", "sort", "cursor", "limit", "x"]),
    st.text(max_size=12), max_size=4))
def test_list_any_query(client, query):
    response = client.get("/api/v1/games", query_string=query)
    assert response.status_code in (200, 422)
    assert set(response.get_json()) in ({"items", "next_cursor", "has_more"},
                                        {"code", "status", "message", "errors"})
