"""The tables' endpoints fuzzed (issue 25's property, extended to issue 23's entries): random
shapes of a table's first draft, of a seat, and of the entries the phones send never answer 5xx;
an error is in the one error shape; a refused entry appends nothing (Hypothesis, SQLite and
PostgreSQL)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from popreplay import budget
from tests.reliability.test_fuzz import BASES, ERROR_KEYS, FUZZ, json_values, strange
from tests.reliability.test_fuzz_record import short
from tests.tables.helpers import API, bearer

KINDS = ["round", "turn", "kept", "deal", "x", ""]
slots = st.dictionaries(st.one_of(st.sampled_from(["0", "1", "2", "9", "-1", "x"]),
                                  st.text(max_size=3)),
                        st.one_of(st.lists(st.integers(min_value=-3, max_value=60), max_size=6),
                                  json_values), max_size=4)
entries = st.one_of(
    st.fixed_dictionaries({"type": st.just("part"), "entry": st.sampled_from(KINDS),
                           "slots": st.one_of(slots, json_values)}),
    st.fixed_dictionaries({"type": st.just("place"),
                           "at": st.one_of(st.sampled_from(["", "/rounds", "/rounds/0",
                                                             "/rounds/0/turns/0", "/events/0",
                                                             "/turns/0", "/x"]), json_values),
                           "how": st.one_of(st.sampled_from(["append", "replace", "x"]),
                                            json_values),
                           "value": st.one_of(json_values, strange)}),
    st.dictionaries(st.sampled_from(["type", "entry", "slots", "at", "how", "value", "x"]),
                    json_values, max_size=4),
    json_values,
)
bodies = st.one_of(
    st.fixed_dictionaries({"id": st.one_of(st.text(min_size=1, max_size=8), json_values),
                           "seen": st.one_of(st.integers(min_value=-2, max_value=2**70),
                                             json_values),
                           "entry": entries}),
    st.dictionaries(st.sampled_from(["id", "seen", "entry", "other"]), json_values, max_size=4),
    json_values,
)


@pytest.fixture(scope="module")
def tables(module_app: Any) -> list[dict[str, Any]]:
    """A table of every game (POP! with hands recorded), with a seat taken in each."""
    client = module_app.test_client()
    made = []
    for log in BASES:
        answer = client.post(API, json={"log": short(log, 0),
                                        "record_hands": log["game"] == "pop"})
        assert answer.status_code == 201, answer.get_json()
        created = answer.get_json()
        seat = client.post(f"{API}/{created['table']}/seats", json={"player": log["players"][0]},
                           headers=bearer(created["join_key"]))
        assert seat.status_code == 201, seat.get_json()
        made.append({"id": created["table"], "tokens": [created["host_token"],
                                                        seat.get_json()["seat_token"]]})
    return made


def shaped_error(answer: Any) -> None:
    data = answer.get_json()
    assert isinstance(data, dict) and set(data) >= ERROR_KEYS, answer.get_data()[:300]


@FUZZ
@given(body=bodies, which=st.integers(min_value=0, max_value=len(BASES) - 1),
       seat=st.booleans(), lang=st.sampled_from(["en", "fr"]))
def test_entries_never_answer_5xx(module_app, tables, body, which, seat, lang):
    module_app.config["REPLAY_WAIT"] = None  # computed in the request: nothing left running
    budget.clear()
    client = module_app.test_client()
    table = tables[which]
    headers = bearer(table["tokens"][int(seat)])
    before = client.get(f"{API}/{table['id']}", headers=headers).get_json()["seq"]
    answer = client.post(f"{API}/{table['id']}/entries?lang={lang}", data=json.dumps(body),
                         content_type="application/json", headers=headers)
    assert answer.status_code in (200, 201, 403, 409, 422), (answer.status_code, body,
                                                              answer.get_data()[:300])
    after = client.get(f"{API}/{table['id']}", headers=headers).get_json()["seq"]
    if answer.status_code >= 400:
        shaped_error(answer)
        assert after == before  # a refused entry appends nothing
    else:
        assert answer.get_json()["seqs"] and after >= before


@FUZZ
@given(log=st.one_of(json_values, st.builds(lambda base, key, value: {**short(base, 0),
                                                                     key: value},
                                            st.sampled_from(BASES),
                                            st.sampled_from(["game", "mode", "players", "rounds",
                                                             "format", "x"]),
                                            json_values)),
       hands=st.one_of(st.booleans(), json_values))
def test_a_new_table_never_answers_5xx(module_app, log, hands):
    module_app.config["REPLAY_WAIT"] = None
    budget.clear()
    answer = module_app.test_client().post(API, data=json.dumps({"log": log,
                                                                 "record_hands": hands}),
                                           content_type="application/json")
    assert answer.status_code in (201, 422), (answer.status_code, log, answer.get_data()[:300])
    if answer.status_code == 422:
        shaped_error(answer)


@FUZZ
@given(player=st.one_of(st.text(max_size=12), json_values), key=st.booleans())
def test_a_seat_never_answers_5xx(module_app, tables, player, key):
    client = module_app.test_client()
    table = tables[0]
    token = table["tokens"][0] if key else "not-a-token"
    answer = client.post(f"{API}/{table['id']}/seats", data=json.dumps({"player": player}),
                         content_type="application/json", headers=bearer(token))
    assert answer.status_code < 500, (answer.status_code, player, answer.get_data()[:300])
    if answer.status_code >= 400:
        shaped_error(answer)
