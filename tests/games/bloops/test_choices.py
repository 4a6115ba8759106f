"""What the recorder may offer next in Bloops, from the engine (``bloops/choices.py``)."""

from __future__ import annotations

import pytest

from popreplay.engine.games.bloops import BLOOPS
from popreplay.engine.games.bloops.cards import SIMULATED_DECK
from popreplay.engine.games.bloops.choices import choices, cut

from .logs import A, B, C, counter, discard, draw, log

ALL_VALUES = list(range(21))


def test_the_first_event_is_the_first_players_draw_of_any_value():
    answer = choices(log([A, B, C]))
    six = [1, 2, 3, 4, 5, 6]
    assert answer["next"] == {"draw": {"player": A},  # and anyone may rearrange at any time
                              "rearrange": {"places": {A: six, B: six, C: six}}}
    assert answer["values"] == ALL_VALUES
    assert answer["over"] is False


def test_after_a_draw_the_drawer_keeps_in_one_of_their_places_or_discards():
    answer = choices(log([A, B], deal={A: [None, None, None, 2, 0, 5], B: [None] * 6},
                         events=[draw(A, 3)]))
    assert answer["next"]["discard"] == {"player": A, "value": 3}
    assert answer["next"]["keep"] == {"player": A, "places": [
        {"place": 1, "value": None}, {"place": 2, "value": None}, {"place": 3, "value": None},
        {"place": 4, "value": 2}, {"place": 5, "value": 0}, {"place": 6, "value": 5}]}
    assert set(answer["next"]) == {"discard", "keep", "rearrange"}  # no draw, no counter yet


def test_a_discard_opens_counter_discards_and_the_next_draw():
    answer = choices(log([A, B], events=[draw(A), discard(A, 11)]))
    nxt = answer["next"]
    assert nxt["draw"] == {"player": B}
    assert nxt["counter"]["top"] == 11 and nxt["counter"]["penalty"] is True
    assert [p["place"] for p in nxt["counter"]["places"][B]] == [1, 2, 3, 4, 5, 6]
    assert "bloops" in nxt and nxt["bloops"] == {"player": A}


def test_the_only_20_cannot_be_offered_twice_and_a_declared_deck_limits_values():
    answer = choices(log([A, B], events=[draw(A), discard(A, 20)]))
    assert answer["over"] is True and "reveal" in answer["next"]
    assert "draw" not in answer["next"] and "counter" not in answer["next"]
    assert "rearrange" not in answer["next"]  # the 20 ends the game at once
    deck = dict(SIMULATED_DECK)  # 0 six times, 20 once, the others three times
    answer = choices(log([A, B], deck=deck, deal={A: [4, 4, None, None, None, None],
                                                  B: [4, None, None, None, None, None]}))
    assert answer["values"] == [v for v in ALL_VALUES if v != 4]


def test_a_discarded_effect_card_must_be_carried_out_before_the_next_draw():
    answer = choices(log([A, B, C], events=[draw(A), discard(A, 9)]))
    nxt = answer["next"]
    assert "draw" not in nxt and "bloops" not in nxt
    assert nxt["effect"]["type"] == "swap" and nxt["effect"]["player"] == A
    assert sorted(nxt["effect"]["targets"]) == [B, C]
    answer = choices(log([A, B, C], events=[draw(A), discard(A, 7)]))
    assert answer["next"]["effect"]["type"] == "look"
    assert sorted(answer["next"]["effect"]["targets"]) == [A, B, C]  # a 7 may look at one's own
    answer = choices(log([A, B, C], events=[draw(A), discard(A, 6)]))
    assert answer["next"]["effect"] == {"type": "give", "player": A, "card": 6,
                                        "targets": [B, C]}


def test_the_bloops_holder_is_never_a_swap_target():
    events = [draw(A), discard(A, 1), {"type": "bloops", "player": A}, draw(B), discard(B, 9)]
    answer = choices(log([A, B, C], events=events))
    assert answer["holder"] == A and answer["final_turns_left"] == 1
    assert sorted(answer["next"]["effect"]["targets"]) == [C]
    assert "bloops" not in answer["next"]


def test_a_counter_discarded_place_is_gone_and_a_wrong_one_adds_a_place():
    events = [draw(A), discard(A, 5), counter(B, 2, 5), counter(A, 1, 3, penalty=None)]
    answer = choices(log([A, B], events=events))
    places = answer["next"]["counter"]["places"]
    assert [p["place"] for p in places[B]] == [1, 3, 4, 5, 6]
    assert places[A][0] == {"place": 1, "value": 3}  # shown to everyone, put back
    assert places[A][-1] == {"place": 7, "value": None}  # the penalty card


def test_an_illegal_draft_gives_the_engines_violation():
    answer = choices(log([A, B], events=[draw(B)]))
    assert answer["error"]["code"] == "not-your-turn"
    assert answer["next"] == {}


def offered(nxt: dict, event: dict, values: list[int]) -> bool:
    """Is ``event`` among the choices ``nxt``?"""
    kind, who = event["type"], event["player"]

    def value_ok(known, value):
        return value is None or (value == known if known is not None else value in values)

    def place(entries, number):
        return next((e for e in entries if e["place"] == number), None)

    if kind == "draw":
        return nxt.get("draw", {}).get("player") == who and value_ok(None, event.get("value"))
    if kind == "discard":
        d = nxt.get("discard")
        return d is not None and d["player"] == who and value_ok(d["value"], event["value"])
    if kind == "keep":
        k = nxt.get("keep")
        entry = k and place(k["places"], event["place"])
        return bool(entry) and k["player"] == who and value_ok(entry["value"], event["value"])
    if kind == "counter":
        c = nxt.get("counter")
        entry = c and place(c["places"].get(who, []), event["place"])
        penalty_ok = event.get("penalty") is None or c["penalty"]
        return bool(entry) and value_ok(entry["value"], event["value"]) and penalty_ok
    if kind == "bloops":
        return nxt.get("bloops") == {"player": who}
    if kind == "rearrange":
        mine = nxt.get("rearrange", {}).get("places", {}).get(who)
        order = event.get("order")
        return mine is not None and (order in (None, "unknown") or sorted(order) == mine)
    effect = nxt.get("effect")
    if effect is None or effect["type"] != kind or effect["player"] != who:
        return False
    if kind == "give":
        return event["target"] in effect["targets"]
    if kind == "look":
        entry = place(effect["targets"].get(event["target"], []), event["place"])
        return bool(entry) and value_ok(entry["value"], event.get("value"))
    return (place(effect["places"], event["place"]) is not None
            and place(effect["targets"].get(event["target"], []), event["target_place"]))


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 1), (3, 2), (4, 5), (5, 3)])
def test_every_move_of_a_simulated_game_is_offered(players, seed):
    full = BLOOPS.simulate(mode="classic", players=players, seed=seed)
    events = full["events"]
    body = {k: v for k, v in full.items() if k not in ("reveal", "claimed")}
    for k, event in enumerate(events):
        answer = choices({**body, "events": events[:k]})
        assert offered(answer["next"], event, answer["values"]), (k, event, answer["next"])
    end = choices(body)
    assert end["over"] is True
    reveal = end["next"]["reveal"]
    for name, values in full["reveal"].items():
        assert sorted(str(p["place"]) for p in reveal[name]) == sorted(values)


def test_cut_keeps_the_events_up_to_the_step():
    full = BLOOPS.simulate(mode="classic", players=3, seed=2)
    steps = BLOOPS.replay(full, with_steps=True).steps
    keeps = [s["index"] for s in steps if s["kind"] == "keep"]
    branch = cut(full, keeps[1])
    assert "reveal" not in branch and "claimed" not in branch
    assert branch["events"] == full["events"][:keeps[1]]  # step 0 is the deal
    assert BLOOPS.replay(branch, with_steps=True).steps[-1]["state"] == \
        steps[keeps[1]]["state"]
    assert cut(full, 0)["events"] == []
