"""Conformance: the engine against a naive second reading of the spec, field by field.

Hand-made logs (the golden files) and random ones (simulated, with and without recorded hands,
cut short at random points) must give the same outcome in both; status and claims are compared too.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from popreplay.checking import check_log
from popreplay.engine import GAMES

from .reference import outcome as reference_outcome
from .test_properties import SETUPS

GOLDEN = sorted((Path(__file__).parents[2] / "golden" / "pop").glob("*.log.json"))


def _fields(outcome, prefix=""):
    """Flatten an outcome to {pointer: value} so that a difference names its field."""
    if isinstance(outcome, dict):
        out = {}
        for key, value in outcome.items():
            out.update(_fields(value, f"{prefix}/{key}"))
        return out
    if isinstance(outcome, list) and outcome and isinstance(outcome[0], dict):
        out = {}
        for index, value in enumerate(outcome):
            out.update(_fields(value, f"{prefix}/{index}"))
        return out
    return {prefix: outcome}


def assert_conforms(log):
    result = check_log(copy.deepcopy(log))
    if result["status"] == "illegal":
        assert result["outcome"] is None
        return
    assert _fields(result["outcome"]) == _fields(reference_outcome(log))


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.name[:-9])
def test_golden_logs_conform(path):
    assert_conforms(json.loads(path.read_text("utf-8")))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=st.sampled_from(SETUPS), seed=st.integers(0, 10**9), data=st.data())
def test_random_logs_conform(setup, seed, data):
    mode, players, options = setup
    log = GAMES["pop"].simulate(mode=mode, players=players, seed=seed, options=options)
    if data.draw(st.booleans()):  # forget the hands: the engine must not need them
        for rnd in log["rounds"]:
            rnd.pop("hands", None)
    if data.draw(st.booleans()):  # stop the log early
        rounds = log["rounds"]
        keep = data.draw(st.integers(1, len(rounds)))
        del rounds[keep:]
        turns = rounds[-1]["turns"]
        del turns[data.draw(st.integers(0, len(turns))):]
    result = check_log(copy.deepcopy(log))
    assert result["legal"] is True
    assert_conforms(log)
