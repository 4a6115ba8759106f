"""Hidden information, as a property: a simulated game seen by one player (every card they do not
see replaced by ``null``) replays as legal, with the same outcome, for many seeds."""

from __future__ import annotations

import copy

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from popreplay.checking import check_log
from popreplay.engine.games.cube import CUBE


def observer_view(log: dict, watcher: str) -> dict:
    """What ``watcher`` can log: their own cards, and every card played, laid, shown or discarded.
    Other players' dealt and drawn cards are unseen, and so is a card that changes hands between
    two other players; a card taken from or given to the watcher is seen."""
    seen = copy.deepcopy(log)
    names = seen["players"]
    for name in names:
        if name != watcher:
            seen["deal"][name] = [None] * len(seen["deal"][name])
    for turn in seen["turns"]:
        player = turn["player"]
        if player == watcher:
            continue
        turn["draw"] = [None] * len(turn.get("draw") or [])
        for event in turn.get("events") or []:
            if "draw" in event:
                event["draw"] = [None] * len(event["draw"])
            if "take" in event and not event.get("step"):  # from a hand, not from a table
                target = event.get("target") or next(n for n in names if n != player)
                if target != watcher:
                    event["take"] = [None] * len(event["take"])
    return seen


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32), watcher=st.integers(0, 3))
def test_an_observer_log_replays_with_the_same_outcome(players, seed, watcher):
    full = CUBE.simulate(mode="standard", players=players, seed=seed)
    expected = check_log(copy.deepcopy(full))
    seen = observer_view(full, full["players"][watcher % players])
    result = check_log(seen, with_steps=True)
    assert result["errors"] == []
    assert result["outcome"] == expected["outcome"], (players, seed, watcher)
    for step in result["steps"]:
        zones = CUBE.zones(step["state"])
        cards = [card for zone in zones.values() for card in zone]
        assert len(cards) == len(set(cards))
        state = step["state"]
        slots = sum(c.startswith("?") for p in state["players"].values() for c in p["hand"])
        if slots:  # every unseen card is either in the pile or behind a slot
            unknown_in_pile = state["pile"]["count"] - len(state["pile"]["cards"])
            assert len(state["unlocated"]) == unknown_in_pile + slots


def test_the_observer_view_hides_something():
    full = CUBE.simulate(mode="standard", players=3, seed=8)
    seen = observer_view(full, "Ana")
    assert seen["deal"]["Bruno"] == [None] * 5 and seen["deal"]["Ana"] == full["deal"]["Ana"]
    assert any(None in (t.get("draw") or []) for t in seen["turns"])
