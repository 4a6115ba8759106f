"""Claims in every registered game: names after NFC, winners as a set (issue 14, every game).

Each simulated game claims its own outcome (``claimed``); the claim is rewritten the ways people
write it by hand — names with decomposed accents ("Chlo" + U+0301), winners in another order and
repeated — and must still match; a claim naming another winner must still differ.
"""

from __future__ import annotations

import unicodedata

import pytest

from popreplay.checking import check_log
from popreplay.engine import GAMES
from popreplay.engine.replay import compare_claims

CASES = [
    (name, mode, game.player_counts[mode][1])
    for name, game in sorted(GAMES.items())
    for mode in game.modes
    if game.player_counts[mode][1] >= 3  # simulated players: Alice, Bruno, Chloé, …
]


def nfd(value):
    """Every text in ``value``, keys included, in Unicode NFD."""
    if isinstance(value, str):
        return unicodedata.normalize("NFD", value)
    if isinstance(value, list):
        return [nfd(item) for item in value]
    if isinstance(value, dict):
        return {nfd(key): nfd(item) for key, item in value.items()}
    return value


def simulated(name, mode, players, seed=3):
    log = GAMES[name].simulate(mode=mode, players=players, seed=seed)
    assert "Chloé" in log["players"]  # a name whose NFD differs from its NFC
    return log


@pytest.mark.parametrize(("name", "mode", "players"), CASES)
def test_a_claim_with_decomposed_names_matches(name, mode, players):
    log = simulated(name, mode, players)
    claimed = check_log(log)["outcome"]  # the whole outcome, every name in it
    assert any(unicodedata.normalize("NFD", n) != n for n in log["players"])
    log["claimed"] = nfd(claimed)  # (coop, solo and puzzle outcomes name nobody: unchanged)
    result = check_log(log)
    assert result["claims"] == {"match": True, "differences": []}


@pytest.mark.parametrize(("name", "mode", "players"), CASES)
def test_decomposed_player_names_match_a_composed_claim(name, mode, players):
    log = simulated(name, mode, players)
    claimed = check_log(log)["outcome"]
    decomposed = nfd({key: value for key, value in log.items() if key != "claimed"})
    decomposed["claimed"] = claimed  # the log spells names in NFD, the claim in NFC
    result = check_log(decomposed)
    assert result["legal"] is True
    assert result["claims"] == {"match": True, "differences": []}


WINNERS = [case for case in CASES  # the modes whose outcome has a ``winners`` list
           if "winners" in check_log(simulated(*case))["outcome"]]


@pytest.mark.parametrize(("name", "mode", "players"), WINNERS)
def test_claimed_winners_are_a_set(name, mode, players):
    for seed in range(40):  # a seed whose game has winners
        log = simulated(name, mode, players, seed)
        winners = check_log(log)["outcome"].get("winners")
        if winners:
            break
    else:
        raise AssertionError(f"{name} {mode}: no simulated game with winners in 40 seeds")
    shuffled = nfd(list(reversed(winners)) + winners[:1])  # another order, one name twice
    log["claimed"] = {"winners": shuffled}
    assert check_log(log)["claims"] == {"match": True, "differences": []}
    others = [p for p in log["players"] if p not in winners]
    log["claimed"] = {"winners": winners + others[:1]}
    result = check_log(log)
    assert result["claims"]["match"] is False
    assert result["claims"]["differences"] == [
        {"field": "/winners", "claimed": winners + others[:1], "computed": winners}]


def test_the_difference_points_at_the_outcome_s_spelling():
    outcome = {"totals": {"Chloé": 4}, "winners": ["Chloé"]}
    claim = {"totals": {"Chloe\u0301": 5}, "winners": ["Chloe\u0301", "Chloe\u0301"]}
    assert compare_claims(claim, outcome) == {"match": False, "differences": [
        {"field": "/totals/Chloé", "claimed": 5, "computed": 4}]}


def test_a_decomposed_name_that_is_not_a_player_still_differs():
    outcome = {"totals": {"Chloé": 4}}
    assert compare_claims({"totals": {"Cle\u0301o": 0}}, outcome)["differences"] == [
        {"field": "/totals/Cle\u0301o", "claimed": 0, "computed": None}]
