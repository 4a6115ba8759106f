"""Claims: partial maps key by key, rounds entry by entry, winners as a set, lists as a whole."""

from __future__ import annotations

from popreplay.engine.replay import compare_claims

OUTCOME = {
    "rounds": [{"scores": {"Ana": 3, "Ben": 2}, "collected": {"Ana": [12, 17], "Ben": [21, 26]},
                "kept": {"Ana": 9, "Ben": 40}, "chief_pending": []}],
    "totals": {"Ana": 3, "Ben": 2}, "winners": ["Ana", "Ben"], "tie_break": "shared",
}


def test_a_partial_claim_that_matches():
    assert compare_claims({"totals": {"Ben": 2}}, OUTCOME) == {"match": True, "differences": []}


def test_winners_compare_as_a_set():
    assert compare_claims({"winners": ["Ben", "Ana"]}, OUTCOME)["match"] is True
    diff = compare_claims({"winners": ["Ana"]}, OUTCOME)["differences"]
    assert diff == [{"field": "/winners", "claimed": ["Ana"], "computed": ["Ana", "Ben"]}]


def test_rounds_compare_entry_by_entry_each_partially():
    claim = {"rounds": [{"scores": {"Ana": 4}}, {"scores": {"Ana": 0}}]}
    assert compare_claims(claim, OUTCOME)["differences"] == [
        {"field": "/rounds/0/scores/Ana", "claimed": 4, "computed": 3},
        {"field": "/rounds/1/scores/Ana", "claimed": 0, "computed": None},
    ]


def test_other_lists_compare_as_a_whole():
    claim = {"rounds": [{"collected": {"Ana": [17, 12]}}]}
    assert compare_claims(claim, OUTCOME)["differences"] == [
        {"field": "/rounds/0/collected/Ana", "claimed": [17, 12], "computed": [12, 17]}]


def test_a_name_that_is_not_a_player_is_a_difference_with_computed_null():
    assert compare_claims({"totals": {"Zoé": 0}}, OUTCOME)["differences"] == [
        {"field": "/totals/Zoé", "claimed": 0, "computed": None}]


def test_booleans_never_equal_numbers_and_pointers_escape():
    assert compare_claims({"totals": {"Ana": True}}, {"totals": {"Ana": 1}})["match"] is False
    diff = compare_claims({"totals": {"a/b": 1}}, {"totals": {}})["differences"]
    assert diff[0]["field"] == "/totals/a~1b"
