"""Replay format 2 (``popreplay.replayformat``): each step after the first carries the JSON Patch
from the state before; rebuilt, every step is byte for byte format 1, for every game (golden logs
and simulated games), and a long slap game's patches stay small."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from popreplay.checking import check_json, check_text
from popreplay.engine import GAMES
from popreplay.jsonout import compact
from popreplay.replayformat import apply_patch, in_format, is_latest, state_patch, with_states

GOLDEN = Path(__file__).resolve().parent / "golden"


def round_trip(result: dict) -> None:
    v1 = compact(result)
    v2 = compact(in_format(json.loads(v1), 2))
    assert is_latest(v2.encode())
    back = json.loads(v2)
    assert back.pop("replay_format") == 2
    for step in back.get("steps", [])[1:]:
        assert "state" not in step and list(step)[-1] == "state_patch"
    with_states(back.get("steps", []))
    assert compact(back) == v1


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*/*.log.json")), ids=lambda p: p.stem)
def test_golden_replays_rebuild_byte_for_byte(path):
    round_trip(dict(check_text(path.read_bytes(), with_steps=True)))


@pytest.mark.parametrize("name", sorted(GAMES))
def test_simulated_replays_rebuild_byte_for_byte(name):
    game = GAMES[name]
    for mode in game.modes:
        for players in (2, 3, 5):
            for seed in range(3):
                try:
                    log = game.simulate(mode=mode, players=players, seed=seed, options={})
                except ValueError:  # not for that many players
                    continue
                round_trip(dict(check_json(log, with_steps=True)))


def test_a_long_slap_replay_grows_with_the_game():
    log = GAMES["slap"].simulate(mode="elimination", players=4, seed=191, options={"deal": "counts"})
    result = dict(check_json(log, with_steps=True))
    steps = len(result["steps"])
    assert steps > 1000
    v1 = len(compact(result))
    v2 = len(compact(in_format(result, 2)))
    assert v2 < v1 / 4
    assert v2 / steps < 1500  # bytes a step, whatever the game's length


def test_patches_are_json_patch_and_share_what_did_not_change():
    before = {"a": [1, 2, 3, 4, 5, 6], "b": {"x": 1, "y/z": None}, "c": "k", "d": [True]}
    after = {"a": [2, 3, 4, 5, 6], "b": {"x": 1, "y/z": 2, "new~": []}, "c": "k", "d": [1]}
    ops = state_patch(before, after)
    assert {"op": "remove", "path": "/a/0"} in ops
    assert {"op": "replace", "path": "/b/y~1z", "value": 2} in ops
    assert {"op": "add", "path": "/b/new~0", "value": []} in ops
    assert {"op": "replace", "path": "/d", "value": [1]} in ops  # True is not 1 in JSON
    kept = copy.deepcopy(before)
    rebuilt = apply_patch(before, ops)
    assert before == kept  # the state before is left as it was
    assert json.dumps(rebuilt) == json.dumps(after)
    assert state_patch(after, after) == []
    moved = {"b": {"y/z": 2, "x": 1, "new~": []}}  # the same keys in another order
    assert json.dumps(apply_patch(after, state_patch(after, moved))) == json.dumps(moved)
    assert apply_patch({"a": 1}, state_patch({"a": 1}, None)) is None


def test_random_lists_rebuild_exactly_with_their_types():
    """Lists changed anywhere (one stretch or several, at an end or inside), of strings and of
    JSON values that Python calls equal (``True == 1 == 1.0``): the patch rebuilds each exactly,
    as JSON, and touches no more than the changed stretch when it does not replace the list."""
    import random

    rng = random.Random(35)
    atoms = ["a", "b", "?1", "?2.1", 1, 1.0, True, False, 0, None]
    for _ in range(3000):
        pool = atoms[:4] if rng.random() < 0.5 else atoms
        before = [rng.choice(pool) for _ in range(rng.randint(0, 12))]
        after = list(before)
        for _ in range(rng.randint(1, 3)):
            where = rng.randint(0, len(after))
            roll = rng.random()
            if roll < 0.35 and after:
                del after[min(where, len(after) - 1)]
            elif roll < 0.7:
                after.insert(where, rng.choice(atoms))
            elif after:
                after[min(where, len(after) - 1)] = rng.choice(atoms)
        state, later = {"list": before, "same": before[:2]}, {"list": after, "same": before[:2]}
        ops = state_patch(state, later)
        assert json.dumps(apply_patch(state, ops)) == json.dumps(later), (before, after, ops)
        assert all(op["path"].startswith("/list") for op in ops)
        if ops and ops[0]["path"] != "/list":  # element by element: at most the changed stretch
            assert len(ops) <= len(before) + len(after)
