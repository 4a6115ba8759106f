"""The published JSON Schema of each game and the marshmallow shape accept and reject the same logs.

Examples: the golden logs and simulated games (accepted), then random corruptions of them: any node
replaced by random JSON, a key removed, an unknown key added. ``meta``'s nesting-depth limit is the
one rule the JSON Schema does not express (documented in docs/log-format.md); generated values stay
well below it.
"""

from __future__ import annotations

import copy
import functools
import json
from pathlib import Path

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from popreplay.engine import GAMES
from popreplay.logformat import SHAPES, ShapeError, check_parsed_shape, check_shape

ROOT = Path(__file__).resolve().parent.parent.parent
GAMES_WITH_SHAPES = sorted(SHAPES)


@functools.cache
def _validator(game: str) -> jsonschema.Draft202012Validator:
    schema = json.loads((ROOT / "schemas" / "popreplay" / "1" / f"{game}.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


@functools.cache
def _examples(game: str) -> list[dict]:
    logs = [json.loads(p.read_text("utf-8"))
            for p in sorted((ROOT / "tests" / "golden" / game).glob("*.log.json"))]
    engine = GAMES[game]
    for mode in engine.modes:
        low, high = engine.player_counts[mode]
        logs.append(engine.simulate(mode=mode, players=high, seed=1))
        logs.append(engine.simulate(mode=mode, players=low, seed=2))
    return [log for log in logs if log.get("game") == game]


def _accepted(log, check=check_shape) -> bool:
    """Does ``check`` (marshmallow by default, or the fast path) accept the log's shape?"""
    try:
        check(log)
    except ShapeError:
        return False
    return True


@pytest.mark.parametrize("game", GAMES_WITH_SHAPES)
def test_every_example_is_accepted_by_both(game):
    validator = _validator(game)
    for log in _examples(game):
        assert validator.is_valid(log), list(validator.iter_errors(log))[:1]
        assert _accepted(log)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**20), 10**20)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=6), children, max_size=4),
    max_leaves=8,
)


def _nodes(value, path=()):
    yield path
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _nodes(child, (*path, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from _nodes(child, (*path, index))


def _mutate(log, data):
    log = copy.deepcopy(log)
    paths = [p for p in _nodes(log) if p and p[0] not in ("game", "meta")]
    path = data.draw(st.sampled_from(paths))
    parent = log
    for token in path[:-1]:
        parent = parent[token]
    action = data.draw(st.sampled_from(["replace", "remove", "add-key", "small-int", "null"]))
    last = path[-1]
    if action == "remove":
        del parent[last]
    elif action == "add-key" and isinstance(parent, dict):
        parent[data.draw(st.sampled_from(["extra", "Extra", "playz", "layouts"]))] = 1
    elif action == "small-int":
        parent[last] = data.draw(st.sampled_from([0, 1, 5, 3.0, True, "5", -1]))
    elif action == "null":
        parent[last] = None
    else:
        parent[last] = data.draw(json_values)
    return log


@pytest.mark.parametrize("game", GAMES_WITH_SHAPES)
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_corrupted_logs_get_the_same_verdict(game, data):
    validator = _validator(game)
    examples = _examples(game)
    log = _mutate(data.draw(st.sampled_from(examples)), data)
    assert validator.is_valid(log) == _accepted(log), (
        [e.message for e in validator.iter_errors(log)][:3])


@pytest.mark.parametrize("game", GAMES_WITH_SHAPES)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_fast_path_gives_the_same_verdict(game, data):
    log = _mutate(data.draw(st.sampled_from(_examples(game))), data)
    assert _accepted(log, check_parsed_shape) == _accepted(log)


@pytest.mark.parametrize("game", GAMES_WITH_SHAPES)
def test_the_shape_layer_does_not_transform_a_valid_log(game):
    # The fast path hands the parsed log to the engine as it is: marshmallow must load it unchanged.
    for log in _examples(game):
        assert check_shape(copy.deepcopy(log)) == log
