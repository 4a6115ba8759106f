"""Arbitrary slap event lists never crash the engine: each replays to a legal status or to one rule
violation, and while legal every card stays accounted for (the piles always hold 102 cards)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from popreplay.checking import check_log
from popreplay.engine.games.slap import SLAP
from popreplay.engine.games.slap.cards import DECK

NAMES = ["Alice", "Bruno", "Chloé"]
cards = st.sampled_from(list(DECK[:40]) + ["red-17", "purple-1"])
players = st.sampled_from(NAMES + ["Zoé"])
events = st.one_of(
    st.builds(lambda p, c: {"flip": p, "card": c}, players, cards),
    st.builds(lambda p: {"slap": p}, players),
    st.builds(lambda p: {"slap": p, "pile": "folies"}, players),
    st.just({"time_up": True}),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mode=st.sampled_from(["elimination", "timed"]), count=st.integers(2, 3),
       log_events=st.lists(events, max_size=40))
def test_any_event_list_replays_without_crashing(mode, count, log_events):
    log = {"format": "popreplay/1", "game": "slap", "mode": mode, "players": NAMES[:count],
           "events": log_events}
    result = check_log(log, with_steps=True)
    assert result["status"] in ("complete", "incomplete", "illegal")
    if result["status"] == "illegal":
        assert len(result["errors"]) == 1 and result["steps"][-1]["kind"] == "violation"
        return
    outcome = result["outcome"]
    assert sum(outcome["cards"].values()) + outcome["central_pile"] + outcome["folies_pile"] == 102
    for step in result["steps"]:
        zones = SLAP.zones(step["state"])
        entries = [e for zone in zones.values() for e in zone]
        assert len(entries) == len(set(entries)) == 102


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), cut=st.integers(0, 400))
def test_every_prefix_of_a_simulated_game_is_legal(seed, cut):
    log = SLAP.simulate(mode="elimination", players=3, seed=seed, options={"deal": "counts"})
    log["events"] = log["events"][:cut]
    del log["claimed"]
    result = check_log(log)
    assert result["legal"], result["errors"]
