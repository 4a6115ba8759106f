"""Bloops rules in detail, engine-level (no Flask): each test replays a small hand-written log."""

from __future__ import annotations

import pytest

from popreplay.checking import check_log

from .logs import ANA, BEN, A, B, C, call, counter, discard, draw, every, give, keep, log, look
from .logs import swap, turn


def replay(data: dict) -> dict:
    return check_log(data)


def error(result: dict) -> tuple[str, str, int | None]:
    assert result["status"] == "illegal", result
    (err,) = result["errors"]
    return err["code"], err["path"], err["turn"]


def zeros(turns: int) -> list[dict]:
    """Plain turns of Ana and Ben, alternating, each drawing and discarding a 0."""
    events: list[dict] = []
    for n in range(turns):
        events += turn(A if n % 2 == 0 else B, 0)
    return events


# --- turns ------------------------------------------------------------------------------------


def test_players_draw_in_the_order_of_the_log():
    result = replay(log([A, B, C], events=turn(A, 0) + turn(B, 0) + turn(C, 0) + [draw(B)]))
    assert error(result) == ("not-your-turn", "/events/6/player", 4)
    assert "it is Ana's turn to draw" in result["errors"][0]["message"]


def test_keep_puts_the_drawn_card_in_the_place_and_discards_the_old_one():
    result = replay(log(deal={A: ANA, B: BEN}, events=[draw(A, 0), keep(A, 6, 9),
                                                       swap(A, 1, B, 1)]))
    assert result["status"] == "incomplete"
    assert result["outcome"]["places"][A] == {"1": 2, "2": 1, "3": 4, "4": 1, "5": 5, "6": 0}
    assert result["outcome"]["places"][B]["1"] == 3


def test_a_kept_card_seen_when_drawn_is_checked_at_the_reveal():
    events = [draw(A, 3), keep(A, 1, 5), draw(B, 20), discard(B, 20)]
    assert error(replay(log(events=events, reveal={A: {"1": 4}}))) == (
        "wrong-value", "/reveal/Ana/1", None)
    assert replay(log(events=events, reveal={A: {"1": 3}}))["outcome"]["places"][A]["1"] == 3


def test_the_discarded_value_must_match_the_drawn_value():
    assert error(replay(log(events=[draw(A, 5), discard(A, 6)]))) == (
        "wrong-value", "/events/1/value", 1)


def test_discard_by_another_player_than_the_drawer():
    assert error(replay(log(events=[draw(A), discard(B, 3)]))) == (
        "not-your-turn", "/events/1/player", 1)


# --- counter-discards -------------------------------------------------------------------------


def test_counter_discard_before_any_discard_is_closed():
    result = replay(log(events=[counter(A, 1, 3)]))
    assert error(result) == ("counter-closed", "/events/0", None)
    assert "nothing has been discarded yet" in result["errors"][0]["message"]


def test_several_counter_discards_by_any_player_including_the_drawer():
    deal = {A: [4, 1, 1, 1, 1, 1], B: [4, 4, 0, 0, 0, 0]}
    events = [draw(A, 4), discard(A, 4), counter(B, 1, 4), counter(A, 1, 4), counter(B, 2, 4)]
    result = replay(log(deal=deal, events=events))
    assert result["status"] == "incomplete"
    assert list(result["outcome"]["places"][A]) == ["2", "3", "4", "5", "6"]
    assert list(result["outcome"]["places"][B]) == ["3", "4", "5", "6"]


def test_a_wrong_counter_discard_goes_back_and_draws_a_penalty_card():
    deal = {A: ANA, B: BEN}
    result = replay(log(deal=deal, events=[draw(A, 4), discard(A, 4), counter(B, 1, 2)]))
    assert result["outcome"]["places"][B] == {**every(*BEN), "7": None}


def test_a_wrong_counter_discard_of_the_twenty_does_not_end_the_game():
    deal = {A: ANA, B: [20, 6, 5, 3, 5, 8]}
    result = replay(log(deal=deal, events=[draw(A, 4), discard(A, 4), counter(B, 1, 20)]))
    assert result["status"] == "incomplete"
    assert result["outcome"]["places"][B]["1"] == 20


def test_counter_discards_stay_open_after_the_last_turn():
    events = turn(A, 5) + [call(A)] + turn(B, 5) + [counter(A, 1, 5)]
    reveal = {A: every(0, 0, 0, 0, 0), B: every(1, 1, 1, 1, 1, 1)}
    reveal[A].pop("1")
    reveal[A]["6"] = 0
    result = replay(log(events=events, reveal=reveal))
    assert result["status"] == "complete"
    assert result["outcome"]["ended_by"] == "bloops"
    assert result["outcome"]["scores"] == {A: 0, B: 6}


def test_counter_discard_after_the_twenty_is_after_the_end():
    assert error(replay(log(events=turn(A, 20) + [counter(B, 1, 5)]))) == (
        "after-game-end", "/events/2", 1)


def test_a_second_twenty_is_a_duplicate_even_without_a_declared_deck():
    unseen = [None] * 6
    result = replay(log(deal={A: [20, *unseen[1:]], B: unseen}, events=[draw(A, 20)]))
    assert error(result) == ("duplicate-card", "/events/0/value", 1)


# --- effects ----------------------------------------------------------------------------------


def test_effects_resolve_in_the_order_the_cards_were_laid():
    deal = {A: ANA, B: [7, 6, 5, 3, 5, 8]}
    events = [draw(A, 7), discard(A, 7), counter(B, 1, 7), look(B, A, 1)]
    result = replay(log(deal=deal, events=events))
    assert error(result) == ("wrong-effect", "/events/3/type", 1)
    assert "the next effect is Ana's 7" in result["errors"][0]["message"]


def test_counter_discards_may_come_between_effects():
    deal = {A: ANA, B: [7, 6, 5, 3, 5, 8]}
    events = [draw(A, 7), discard(A, 7), look(A, B, 2, 6), counter(B, 1, 7), look(B, B, 3, 5)]
    assert replay(log(deal=deal, events=events))["status"] == "incomplete"


def test_an_effect_must_be_carried_out_before_the_bloops_call():
    assert error(replay(log(events=[draw(A, 8), discard(A, 8), call(A)]))) == (
        "missing-effect", "/events/2", 1)


def test_a_six_goes_to_an_opponent_never_to_oneself():
    assert error(replay(log(events=[draw(A, 6), discard(A, 6), give(A, A)]))) == (
        "bad-target", "/events/2/target", 1)


def test_a_look_may_be_at_ones_own_card():
    result = replay(log(events=[draw(A, 7), discard(A, 7), look(A, A, 1, 11)]))
    assert result["outcome"]["places"][A]["1"] == 11


def test_a_nine_cannot_swap_with_the_bloops_holder_but_the_holder_may_play_one():
    deal = {A: [9, 0, 0, 0, 0, 0], B: [1, 1, 1, 1, 1, 1], C: [2, 2, 2, 2, 2, 2]}
    start = turn(A, 4) + [call(A), draw(B, 9), discard(B, 9), counter(A, 1, 9)]
    bad = replay(log([A, B, C], deal=deal, events=start + [swap(B, 1, A, 2)]))
    assert error(bad) == ("bad-target", "/events/6/target", 2)
    good = replay(log([A, B, C], deal=deal, events=start + [swap(B, 1, C, 1), swap(A, 2, C, 2)]))
    assert good["status"] == "incomplete"  # Cleo's last turn is still to come
    assert good["outcome"]["places"][A] == {"2": 2, "3": 0, "4": 0, "5": 0, "6": 0}
    assert good["outcome"]["places"][C]["1"] == 1 and good["outcome"]["places"][C]["2"] == 0


def test_an_effect_that_cannot_happen_is_lost():
    # Ben's 6 comes with the last card of the pile: nothing is left to give.
    events = zeros(51) + [draw(B, 6), discard(B, 6)]
    result = replay(log(events=events))
    assert result["status"] == "complete"
    assert result["outcome"]["ended_by"] == "pile-empty"
    assert error(replay(log(events=events + [give(B, A)]))) == (
        "wrong-effect", "/events/104/type", 52)


# --- endings ----------------------------------------------------------------------------------


def test_the_game_ends_when_a_turn_must_begin_and_the_pile_is_empty():
    events = zeros(52)  # 64 cards - 12 dealt = 52 turns
    result = replay(log(events=events))
    assert (result["status"], result["outcome"]["ended_by"], result["outcome"]["turns"]) == (
        "complete", "pile-empty", 52)
    late = replay(log(events=events + [draw(A)]))
    assert error(late) == ("after-game-end", "/events/104", 53)
    assert "the draw pile is empty" in late["errors"][0]["message"]


def test_no_penalty_card_when_the_pile_is_empty():
    events = zeros(52) + [counter(A, 1, 3)]
    result = replay(log(events=events))
    assert result["status"] == "complete"
    assert list(result["outcome"]["places"][A]) == ["1", "2", "3", "4", "5", "6"]
    assert error(replay(log(events=zeros(52) + [counter(A, 1, 3, penalty=4)]))) == (
        "bad-penalty", "/events/104/penalty", 52)


def test_the_bloops_caller_has_no_further_turn():
    events = turn(A, 1) + turn(B, 2) + [call(B)] + turn(C, 3) + turn(A, 4)
    result = replay(log([A, B, C], events=events + [draw(B)]))
    assert error(result) == ("after-game-end", "/events/9", 5)


def test_bloops_is_called_by_the_player_whose_turn_just_ended():
    assert error(replay(log(events=[call(A)]))) == ("not-your-turn", "/events/0/player", None)
    assert error(replay(log(events=turn(A, 1) + [call(B)]))) == (
        "not-your-turn", "/events/2/player", 1)
    assert error(replay(log(events=[draw(A), call(A)]))) == ("turn-not-finished", "/events/1", 1)


def test_an_incomplete_game_has_no_scores_and_cannot_be_revealed():
    result = replay(log(events=turn(A, 9)))
    assert result["status"] == "incomplete"
    outcome = result["outcome"]
    assert (outcome["ended_by"], outcome["scores"], outcome["winners"], outcome["shared"]) == (
        None, {A: None, B: None}, None, None)
    assert error(replay(log(events=turn(A, 9), reveal={A: {"1": 1}}))) == (
        "missing-effect", "/reveal", None)
    assert error(replay(log(events=turn(A, 1), reveal={A: {"1": 1}}))) == (
        "bad-reveal", "/reveal", None)


def test_a_reveal_names_existing_places_only():
    assert error(replay(log(events=turn(A, 20), reveal={B: {"7": 1}}))) == (
        "unknown-place", "/reveal/Ben/7", None)
    assert error(replay(log(events=turn(A, 20), reveal={B: {"x": 1}}))) == (
        "unknown-place", "/reveal/Ben/x", None)
    assert error(replay(log(events=turn(A, 20), reveal={B: {"01": 1}}))) == (
        "unknown-place", "/reveal/Ben/01", None)


# --- scores -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("cards", "score", "stars"), [
    ([10, 11, 12, 0, 0, 0], 0, 3),
    ([10, 10, 0, 0, 0, 1], 21, 2),
    ([12, 12, 12, 12, 12, 5], 5, 5),
    ([13, 9, 0, 0, 0, 0], 22, 0),
])
def test_three_stars_or_more_score_nothing(cards, score, stars):
    result = replay(log(deal={A: cards, B: BEN}, events=turn(A, 20)))
    assert result["outcome"]["scores"][A] == score
    assert result["outcome"]["stars"][A] == stars


def test_lowest_score_wins_and_ties_share():
    result = replay(log([A, B, C], deal={A: ANA, B: BEN, C: [1, 1, 4, 3, 5, 9]},
                        events=turn(A, 20)))
    assert result["outcome"]["winners"] == [A, C]
    assert result["outcome"]["shared"] is True


# --- hidden values and the deck ---------------------------------------------------------------


def test_values_are_never_invented():
    result = replay(log(events=turn(A, 20)))
    assert result["status"] == "complete"
    assert set(result["outcome"]["places"][B].values()) == {None}
    assert result["outcome"]["winners"] is None
    assert result["outcome"]["notes"][-1] == "The winners are unknown: not every card is revealed."


@pytest.mark.parametrize(("deck", "path"), [
    ({"21": 63, "20": 1}, "/deck/21"),
    ({"07": 63, "20": 1}, "/deck/07"),
    ({"0": 65, "1": -2, "20": 1}, "/deck/1"),
    ({"0": 64}, "/deck"),
    ({"0": 62, "20": 2}, "/deck"),
])
def test_a_declared_deck_must_be_a_bloops_deck(deck, path):
    assert error(replay(log(deck=deck))) == ("bad-deck", path, None)


def test_a_declared_deck_limits_each_value():
    deck = {"0": 60, "5": 3, "20": 1}
    deal = {A: [5, 5, 5, 0, 0, 0], B: [None] * 6}
    assert replay(log(deck=deck, deal=deal))["status"] == "incomplete"
    assert error(replay(log(deck=deck, deal=deal, events=[draw(A, 5)]))) == (
        "duplicate-card", "/events/0/value", 1)
    assert error(replay(log(deck=deck, events=[draw(A, 7)]))) == (
        "duplicate-card", "/events/0/value", 1)


def test_names_are_compared_after_nfc():
    decomposed, composed = "Chloe\u0301", "Chlo\u00e9"
    result = replay(log([A, decomposed], deal={A: ANA, composed: BEN},
                        events=turn(A, 2) + [draw(composed)]))
    assert result["status"] == "incomplete"
    assert error(replay(log([composed, decomposed]))) == ("bad-player-count", "/players/1", None)
