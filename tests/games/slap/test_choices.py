"""What the recorder may offer next in slap, from the engine (``slap/choices.py``)."""

from __future__ import annotations

import pytest

from popreplay.engine.games.slap import SLAP
from popreplay.engine.games.slap.cards import DECK
from popreplay.engine.games.slap.choices import choices, cut

A, B, C = "Alice", "Bruno", "Chloé"


def game(events, players=(A, B), mode="elimination", **extra):
    return {"format": "popreplay/1", "game": "slap", "mode": mode, "players": list(players),
            **extra, "events": events}


def flip(player, card):
    return {"flip": player, "card": card}


def test_the_first_flip_is_the_first_players_and_any_card_when_the_deal_is_not_known():
    answer = choices(game([]))
    assert answer["next"]["flip"] == {"player": A, "cards": list(DECK)}
    assert answer["next"]["slap"] == {"players": [A, B], "piles": ["central", "folies"]}
    assert "time_up" not in answer["next"]  # elimination: no end of time
    assert answer["over"] is False


def test_a_flipped_card_is_never_offered_again_and_the_next_player_flips():
    answer = choices(game([flip(A, "red-7"), flip(B, "blue-3")], mode="timed"))
    flip_next = answer["next"]["flip"]
    assert flip_next["player"] == A  # Bruno's 3 sets a challenge of 3 for Alice
    assert len(flip_next["cards"]) == 100
    assert "red-7" not in flip_next["cards"] and "blue-3" not in flip_next["cards"]
    assert answer["challenge"] == {"setter": B, "left": 3, "player": A}
    assert answer["next"]["time_up"] is True
    assert answer["window"]["card"] == "blue-3"


def test_a_known_deal_offers_exactly_the_top_card_of_the_flippers_pile():
    deal = {A: ["green-8", "red-0"] + [None] * 49, B: ["yellow-9"] + [None] * 50}
    answer = choices(game([flip(A, "green-8")], deal=deal))
    assert answer["next"]["flip"] == {"player": B, "cards": ["yellow-9"]}
    answer = choices(game([flip(A, "green-8"), flip(B, "yellow-9")], deal=deal))
    assert answer["next"]["flip"] == {"player": A, "cards": ["red-0"]}


def test_a_won_challenge_makes_its_setter_flip_next():
    # Bruno's 1 sets a challenge of one card; Alice's 9 does not answer it: Bruno takes the pile.
    answer = choices(game([flip(A, "red-8"), flip(B, "blue-1"), flip(A, "green-9")]))
    assert answer["next"]["flip"]["player"] == B
    assert answer["counts"] == {A: 49, B: 50}  # before the challenge is settled by the next flip


def test_the_end_of_time_ends_the_draft_and_nothing_more_is_offered():
    events = [flip(A, "red-8"), flip(B, "blue-8")]
    answer = choices(game(events, mode="timed"))
    assert answer["window"]["conditions"] == ["same-value"]
    assert answer["next"]["slap"]["players"] == [A, B]
    over = choices(game([*events, {"slap": B}, {"time_up": True}], mode="timed"))
    assert over["over"] is True and over["next"] == {}
    assert over["counts"] == {A: 50, B: 52}


def test_an_illegal_draft_gives_the_engines_violation():
    answer = choices(game([flip(B, "red-7")]))
    assert answer["error"]["code"] == "out-of-turn"
    assert answer["next"] == {}


@pytest.mark.parametrize("mode,seed,deal", [("elimination", 3, "full"), ("timed", 1, "none"),
                                            ("timed", 4, "counts")])
def test_every_move_of_a_simulated_game_is_offered(mode, seed, deal):
    log = SLAP.simulate(mode=mode, players=3, seed=seed, options={"deal": deal})
    events = log["events"]
    for k, event in enumerate(events):
        nxt = choices({**log, "events": events[:k]})["next"]
        if "flip" in event:
            assert nxt["flip"]["player"] == event["flip"], k
            assert event["card"] in nxt["flip"]["cards"], k
        elif "slap" in event:
            assert event["slap"] in nxt["slap"]["players"], k
            assert event.get("pile", "central") in nxt["slap"]["piles"], k
        else:
            assert nxt.get("time_up") is True, k
    assert choices(log)["over"] is True


def test_cut_keeps_the_events_up_to_the_step():
    log = SLAP.simulate(mode="timed", players=2, seed=2, options={})
    steps = SLAP.replay(log, with_steps=True).steps
    flips = [s["index"] for s in steps if s["kind"] == "flip"]
    branch = cut(log, flips[3])
    assert "claimed" not in branch and branch["deal"] == log["deal"]
    assert [e for e in branch["events"] if "flip" in e] == \
        [e for e in log["events"] if "flip" in e][:4]
    replayed = SLAP.replay(branch, with_steps=True).steps
    assert replayed[-1]["state"] == steps[flips[3]]["state"]
    assert cut(log, 0)["events"] == []
