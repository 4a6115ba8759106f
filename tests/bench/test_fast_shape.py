"""The compiled validator of the shape fast path gives the reference verdict (``jsonschema``).

``check_parsed_shape`` trusts its "valid" and lets marshmallow decide the rest, so a log it passes
wrongly would skip the shape check: both directions are compared here on corrupted logs.
"""

from __future__ import annotations

import copy
import functools
import json

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from popreplay.engine import GAMES
from popreplay.logformat import SHAPES, _fast_validator, published_schema

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**30), 10**30)
    | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=6), children, max_size=4),
    max_leaves=8,
)


@functools.cache
def _reference(game: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(published_schema(game))


@functools.cache
def _examples(game: str) -> tuple[str, ...]:
    engine = GAMES[game]
    logs = []
    for mode in engine.modes:
        low, high = engine.player_counts[mode]
        logs.append(engine.simulate(mode=mode, players=high, seed=3))
        logs.append(engine.simulate(mode=mode, players=low, seed=4))
    return tuple(json.dumps(log) for log in logs)


def _paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _paths(child, (*path, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from _paths(child, (*path, index))


def _fast(game, log) -> bool:
    try:
        return _fast_validator(game)(log)
    except Exception:  # noqa: BLE001 - check_parsed_shape treats this as "not valid"
        return False


@pytest.mark.parametrize("game", sorted(SHAPES))
def test_examples_are_valid_on_the_fast_path(game):
    for text in _examples(game):
        assert _fast(game, json.loads(text))


@pytest.mark.parametrize("game", sorted(SHAPES))
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_corrupted_logs_get_the_reference_verdict(game, data):
    log = json.loads(data.draw(st.sampled_from(_examples(game))))
    path = data.draw(st.sampled_from([p for p in _paths(log) if p and p[0] != "game"]))
    parent = log
    for token in path[:-1]:
        parent = parent[token]
    action = data.draw(st.sampled_from(["replace", "remove", "add-key", "edge"]))
    if action == "remove":
        del parent[path[-1]]
    elif action == "add-key" and isinstance(parent, dict):
        parent["extra"] = 1
    elif action == "edge":
        parent[path[-1]] = data.draw(st.sampled_from(
            [0, -1, 3.0, 2.5, True, False, "5", 10**40, float("inf"), [], {}, "\ud800"]))
    else:
        parent[path[-1]] = data.draw(json_values)
    reference = _reference(game).is_valid(copy.deepcopy(log))
    assert _fast(game, log) == reference
