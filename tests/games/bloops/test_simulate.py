"""The simulator: legal complete games of every ending, the same for the same seed."""

from __future__ import annotations

import pytest

from popreplay.checking import check_log
from popreplay.engine import GAMES

BLOOPS = GAMES["bloops"]


def test_simulated_games_reach_every_ending():
    endings = set()
    views = set()
    for seed in range(60):
        data = BLOOPS.simulate(mode="classic", players=2 + seed % 4, seed=seed)
        result = check_log(data)
        assert result["status"] == "complete" and result["claims"]["match"], seed
        endings.add(result["outcome"]["ended_by"])
        views.add(data["events"][0]["value"] is None)
    assert endings == {"twenty", "bloops", "pile-empty"}
    assert views == {True, False}  # some logs hide the face-down values, some show them all


def test_simulated_games_use_effects_and_counter_discards():
    kinds = set()
    for seed in range(20):
        kinds.update(e["type"] for e in BLOOPS.simulate(mode="classic", players=3,
                                                          seed=seed)["events"])
    assert kinds == {"draw", "discard", "keep", "counter", "give", "look", "swap", "bloops",
                     "rearrange"}


def test_simulation_depends_on_the_seed_only():
    first = BLOOPS.simulate(mode="classic", players=4, seed=11)
    assert first == BLOOPS.simulate(mode="classic", players=4, seed=11)
    assert first != BLOOPS.simulate(mode="classic", players=4, seed=12)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"mode": "battle", "players": 2}, "unknown mode"),
    ({"mode": "classic", "players": 1}, "classic is for 2–5 players"),
    ({"mode": "classic", "players": 6}, "classic is for 2–5 players"),
    ({"mode": "classic", "players": 2, "options": {"x": 1}}, "Bloops has no options"),
])
def test_simulation_refuses_what_bloops_does_not_have(kwargs, message):
    with pytest.raises(ValueError, match=message):
        BLOOPS.simulate(seed=0, **kwargs)
