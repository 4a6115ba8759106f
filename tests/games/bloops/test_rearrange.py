"""The ``rearrange`` event (issue 14): a new order of places, or an unseen one (the cards become a
set known by its values until each is seen again)."""

from __future__ import annotations

from popreplay.checking import check_log

from .logs import A, B, counter, discard, draw, every, keep, log, look, swap

SEEN = {A: [1, 2, 3, 4, 5, 6], B: [0, 0, 0, 0, 0, 0]}


def mix(player: str) -> dict:
    return {"type": "rearrange", "player": player, "order": "unknown"}


def error(result: dict) -> tuple[str, str] | None:
    return (result["errors"][0]["code"], result["errors"][0]["path"]) if result["errors"] else None


def test_a_known_order_moves_the_values_with_the_cards():
    result = check_log(log(deal=SEEN, events=[
        {"type": "rearrange", "player": A, "order": [6, 5, 4, 3, 2, 1]}]))
    assert result["outcome"]["places"][A] == every(6, 5, 4, 3, 2, 1)


def test_an_order_names_real_places_each_once():
    bad = check_log(log(events=[{"type": "rearrange", "player": A, "order": [1, 2, 3, 4, 5, 7]}]))
    assert error(bad) == ("unknown-place", "/events/0/order/5")
    short = check_log(log(events=[{"type": "rearrange", "player": A, "order": [1, 2, 3, 4, 5]}]))
    assert error(short) == ("bad-rearrange", "/events/0/order")


def test_null_and_absent_orders_are_unknown_orders():
    for event in ({"type": "rearrange", "player": A, "order": None},
                  {"type": "rearrange", "player": A}, mix(A)):
        result = check_log(log(deal=SEEN, events=[event]), with_steps=True)
        assert result["steps"][1]["state"]["places"][A][0]["set"] == "Ana's set 1"
        assert result["outcome"]["places"][A] == every(*[None] * 6)


def test_a_set_of_one_card_is_that_card():
    # Ana's last two cards (5, 6) are mixed; the 5 leaves: the card left is the 6
    events = []
    for place in (1, 2, 3, 4):  # Ana counter-discards her 1, 2, 3 and 4
        player = A if place % 2 else B
        events += [draw(player, place), discard(player, place), counter(A, place, place)]
    events += [mix(A), draw(A, 7), discard(A, 7), look(A, A, 5, 5), draw(B, 0), discard(B, 0),
               draw(A), keep(A, 5, 5)]
    result = check_log(log(deal=SEEN, events=events), with_steps=True)
    assert result["legal"], result["errors"]
    assert result["steps"][-1]["state"]["places"][A][1] == {
        "place": 6, "row": "bottom", "card": "#6", "value": 6, "seen_by": [], "set": None}
    wrong = check_log(log(deal=SEEN, events=[*events, counter(A, 6, 9)]))
    assert error(wrong) == ("wrong-value", f"/events/{len(events)}/value")


def test_a_card_a_nine_takes_from_a_set_stays_one_of_the_set():
    # Ana's set {1..6}; her 9 sends one of them to Ben's place 1: seen there, it must fit the set
    deal = {A: [1, 2, 3, 4, 5, 9], B: [0] * 6}
    events = [mix(A), draw(A, 0), keep(A, 6, 9), swap(A, 1, B, 1),
              draw(B, 7), discard(B, 7)]
    assert check_log(log(deal=deal, events=[*events, look(B, B, 1, 5)]))["legal"]
    wrong = check_log(log(deal=deal, events=[*events, look(B, B, 1, 0)]))
    assert error(wrong) == ("wrong-value", "/events/6/value")
    # the 9 kept from place 6 left the set: no other card of it is a 9
    gone = check_log(log(deal=deal, events=[*events, look(B, B, 1, 9)]))
    assert error(gone) == ("wrong-value", "/events/6/value")


def test_what_was_seen_in_a_set_is_kept_when_it_is_mixed_again():
    # two unseen cards seen as 9s, then mixed again: two 9s are still among Ana's cards (they may
    # be the ones seen next); a third may be unseen; a fourth is one 9 too many for the deck
    deck = {str(v): 3 for v in range(20)} | {"0": 6, "20": 1}
    events = [mix(A), draw(A, 7), discard(A, 7), look(A, A, 1, 9),
              draw(B, 8), discard(B, 8), look(B, A, 2, 9), mix(A),
              draw(A, 7), discard(A, 7), look(A, A, 3, 9),
              draw(B, 8), discard(B, 8), look(B, A, 4, 9),
              draw(A, 7), discard(A, 7), look(A, A, 5, 9)]
    assert check_log(log(deck=deck, events=events))["legal"]
    more = [draw(B, 8), discard(B, 8), look(B, A, 6, 9)]
    assert error(check_log(log(deck=deck, events=events + more))) == (
        "duplicate-card", "/events/19/value")


def test_a_rearrangement_may_come_at_any_moment_before_the_game_ends():
    events = [mix(B), draw(A, 3), mix(A), keep(A, 1, 4), mix(B)]
    assert check_log(log(events=events))["legal"]
    over = check_log(log(events=[draw(A, 20), discard(A, 20), mix(A)]))
    assert error(over) == ("after-game-end", "/events/2")


def test_winners_come_from_the_set_when_its_values_decide():
    # Ana's set {1, 2, 3, 4, 5, 6} is never revealed: her score is 21 whatever the order
    events = [mix(A), draw(A), discard(A, 20)]
    deal = {A: SEEN[A], B: [None] * 6}
    result = check_log(log(deal=deal, events=events, reveal={B: every(9, 9, 9, 9, 9, 9)}))
    outcome = result["outcome"]
    assert (outcome["scores"], outcome["winners"]) == ({A: 21, B: 54}, [A])
    assert outcome["places"][A] == every(*[None] * 6)
