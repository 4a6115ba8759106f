"""``POST /api/v1/record/check`` fuzzed (issue 25, finding 4): random shapes of the draft, of the
entry being built (``pending``) and of the body never answer 5xx; a 200 is a whole answer, a 422
is in the error shape (Hypothesis, SQLite and PostgreSQL)."""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from popreplay import budget
from tests.reliability.test_fuzz import BASES, ERROR_KEYS, FUZZ, json_values, paths_of, \
    replaced, strange


def short(log: dict[str, Any], moves: int) -> dict[str, Any]:
    """A draft: the log's first ``moves`` moves (whatever its game calls them), no claims."""
    draft = {k: v for k, v in copy.deepcopy(log).items() if k != "claimed"}
    for key in ("events", "turns"):
        if isinstance(draft.get(key), list):
            draft[key] = draft[key][:moves]
    if isinstance(draft.get("rounds"), list) and draft["rounds"]:
        first = dict(draft["rounds"][0])
        first["turns"] = list(first.get("turns") or [])[:moves]
        draft["rounds"] = [first][:1 if moves else 0]
    return draft


# The fields the recorders' panels send while an entry is built (docs/recorder.md), with any value.
PENDING_KEYS = ["entry", "cards", "hands", "rows", "deal", "player", "draw", "play", "x"]
pendings = st.one_of(
    st.none(),
    st.dictionaries(st.sampled_from(PENDING_KEYS), st.one_of(json_values, strange), max_size=4),
    json_values,
)


@st.composite
def drafts(draw: Any) -> Any:
    log = short(draw(st.sampled_from(BASES)), draw(st.integers(min_value=0, max_value=6)))
    how = draw(st.sampled_from(["as is", "replace", "empty list", "add"]))
    if how == "replace":
        return replaced(log, draw(st.sampled_from(paths_of(log))), draw(st.one_of(
            json_values, st.just([]), st.just({}))))
    if how == "empty list":
        return {**log, draw(st.sampled_from([*log, "unknown"])): []}
    if how == "add":
        return {**log, draw(st.text(max_size=8)): draw(json_values)}
    return log


bodies = st.one_of(
    st.fixed_dictionaries({"log": drafts(), "pending": pendings},
                          optional={"steps": st.sampled_from(["tail", "none", "all", "x", 3])}),
    st.dictionaries(st.sampled_from(["log", "pending", "steps", "other"]), json_values,
                    max_size=4),
    json_values,
)


@FUZZ
@given(body=bodies, lang=st.sampled_from(["en", "fr"]))
def test_the_live_check_never_answers_5xx(module_app, body, lang):
    module_app.config["REPLAY_WAIT"] = None  # computed in the request: nothing left running
    budget.clear()
    answer = module_app.test_client().post(f"/api/v1/record/check?lang={lang}",
                                           data=json.dumps(body), content_type="application/json")
    assert answer.status_code in (200, 422), (answer.status_code, body, answer.get_data())
    data = answer.get_json()
    if answer.status_code == 422:
        assert set(data) >= ERROR_KEYS and data["errors"]
        return
    assert set(data) == {"result", "steps", "choices"}
    assert isinstance(data["choices"], dict) and isinstance(data["steps"], list)
    error = data["choices"].get("error")
    if error is not None:
        assert error["path"] is None or error["path"] == "" or error["path"].startswith("/")
