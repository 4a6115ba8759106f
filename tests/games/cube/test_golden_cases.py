"""The cube golden logs say what ``golden_cases.py`` states by hand, and are the files on disk."""

from __future__ import annotations

import json

import pytest

from popreplay.checking import check_log

from .golden_cases import CASES, GOLDEN, dumps


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_gives_the_stated_result(name):
    the_log, expect = CASES[name]
    result = check_log(json.loads(json.dumps(the_log)))
    assert result["status"] == expect["status"], result["errors"]
    if expect["status"] == "illegal":
        (error,) = result["errors"]
        assert (error["code"], error["path"], error["round"], error["turn"]) == (
            expect["code"], expect["path"], expect["round"], expect["turn"]), error["message"]
        assert result["outcome"] is None and result["claims"] is None
        return
    assert result["errors"] == []
    facts = dict(expect["outcome"])
    match = facts.pop("claims_match", None)
    differences = facts.pop("differences", None)
    steps_of = facts.pop("steps_of", {})
    outcome = result["outcome"]
    for key, value in facts.items():
        assert outcome[key] == value, key
    if match is not None:
        assert result["claims"]["match"] is match
    if differences is not None:
        assert [d["field"] for d in result["claims"]["differences"]] == differences
    for player, steps in steps_of.items():
        for step, colours in steps.items():
            got = outcome["steps"][player][step]
            assert (None if got is None else got["colours"]) == colours, (player, step)


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_file_is_the_case(name):
    path = GOLDEN / f"{name}.log.json"
    assert path.read_text("utf-8") == dumps(CASES[name][0])
