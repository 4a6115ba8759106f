"""What the recorder may offer next in cube, from the engine (``cube/choices.py``)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from popreplay.engine.games.cube import CUBE
from popreplay.engine.games.cube.cards import deck
from popreplay.engine.games.cube.choices import choices, cut

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "cube"

A, B, C = "Ana", "Bruno", "Chloé"


def log(players=(A, B), **body):
    return {"format": "popreplay/1", "game": "cube", "mode": "standard",
            "players": list(players), **body}


DEAL = {A: ["CROSS-1", "WHITE-1", "F2L-1", "RED-1", "BLUE-1"],
        B: ["OLL-1", "POP-1", "PB-1", "YELLOW-1", "CORNER-TWIST-1"]}


def flat(groups: dict) -> list[str]:
    return sorted(card for ids in groups.values() for card in ids)


def test_without_a_deal_every_card_can_be_dealt_by_kind():
    answer = choices(log())
    deal = answer["next"]["deal"]
    assert deal["players"] == [A, B] and deal["count"] == 5
    assert deal["cards"]["PB"] == ["PB-1", "PB-2", "PB-3", "PB-4", "PB-5"]
    assert len(deal["cards"]) == 20  # one button per kind
    partial = choices(log(), pending={"deal": {A: ["PB-2", None, "RED-1"]}})
    assert partial["next"]["deal"]["cards"]["PB"] == ["PB-1", "PB-3", "PB-4", "PB-5"]
    assert "RED" not in partial["next"]["deal"]["cards"]  # the 2-player deck has one red


def test_fmc_marked_copies_are_told_apart():
    fmc = {"XCROSS": ["WR-1"], "1st F2L": ["PB-2"], "2nd F2L": ["PB-3"], "3rd F2L": ["DNF-2"],
           "OLL": ["ONE-HAND-1"], "T-PERM": ["SCRAMBLE-1"]}
    groups = choices(log(deck={"fmc": fmc}))["next"]["deal"]["cards"]
    assert groups["PB"] == ["PB-1", "PB-4", "PB-5"]
    assert groups["PB-2"] == ["PB-2"] and groups["WR-1"] == ["WR-1"]
    assert "SCRAMBLE" not in groups and groups["SCRAMBLE-1"] == ["SCRAMBLE-1"]


def test_the_deal_can_be_entered_until_the_first_turn():
    unseen = {A: [None] * 5, B: [None] * 5}
    answer = choices(log(deal=unseen, turns=[]))
    assert len(flat(answer["next"]["deal"]["cards"])) == 40
    assert answer["next"]["turn"]["player"] == A
    turns = [{"player": A, "draw": [None, None]}]
    assert "deal" not in choices(log(deal=unseen, turns=turns))["next"]


def test_the_first_turn_draws_two_cards_from_the_cards_nobody_holds():
    answer = choices(log(deal=DEAL, turns=[]))
    turn = answer["next"]["turn"]
    assert turn["player"] == A and turn["count"] == 2
    assert flat(turn["cards"]) == sorted(set(deck(2)) - {c for h in DEAL.values() for c in h})
    assert answer["hands"][A] == {"known": DEAL[A], "hidden": 0}


def test_a_draw_entered_card_by_card_then_lays_every_cube_card():
    first = choices(log(deal=DEAL, turns=[]), pending={"player": A, "draw": ["CROSS-2"]})
    assert first["next"]["draw"]["left"] == 1
    assert "CROSS" not in first["next"]["draw"]["cards"]  # both crosses are now located
    whole = choices(log(deal=DEAL, turns=[]), pending={"player": A, "draw": ["CROSS-2", "OLL-2"]})
    assert whole["next"]["lay"] == {"player": A, "cards": ["CROSS-1", "F2L-1", "CROSS-2", "OLL-2"],
                                    "hidden": 0, "may": {}}


def test_a_hidden_hand_may_lay_any_unlocated_cube_card():
    deal = {A: DEAL[A], B: [None] * 5}
    turns = [{"player": A, "draw": ["GREEN-1", "PB-2"], "lay": ["CROSS-1", "F2L-1"]}]
    answer = choices(log(deal=deal, turns=turns), pending={"player": B, "draw": [None, None]})
    lay = answer["next"]["lay"]
    assert lay["cards"] == [] and lay["hidden"] == 7
    assert lay["may"] == {"CROSS": ["CROSS-2"], "F2L": ["F2L-2"], "OLL": ["OLL-1", "OLL-2"],
                          "PLL": ["PLL-1", "PLL-2"]}


def test_each_card_in_hand_comes_with_where_it_can_go():
    turns = [{"player": A, "draw": ["YELLOW-2", "PB-2"], "lay": ["CROSS-1", "F2L-1"]}]
    answer = choices(log(deal=DEAL, turns=turns))
    play = answer["next"]["play"]
    assert play["player"] == A
    assert play["cards"]["WHITE"] == {"cards": ["WHITE-1"], "steps": ["CROSS"]}
    assert play["cards"]["YELLOW"] == {"cards": ["YELLOW-2"], "steps": ["CROSS"]}
    assert play["cards"]["RED"] == {"cards": ["RED-1"], "steps": ["F2L"]}
    assert play["cards"]["PB"] == {"cards": ["PB-2"], "steps": ["CROSS", "F2L"]}
    assert answer["next"]["turn"] == {"player": B, "count": 2, "cards": answer["next"]["turn"]
                                      ["cards"]}
    # once the cross is white, the yellow has nowhere to go; the F2L takes blue after red
    turns[0]["events"] = [{"play": "WHITE-1", "step": "CROSS"}, {"play": "RED-1", "step": "F2L"}]
    cards = choices(log(deal=DEAL, turns=turns))["next"]["play"]["cards"]
    assert "YELLOW" not in cards and "RED" not in cards
    assert cards["BLUE"] == {"cards": ["BLUE-1"], "steps": ["F2L"]}


def test_targeted_cards_list_each_opponent_and_what_they_can_take():
    turns = [{"player": A, "draw": ["YELLOW-2", "PB-2"], "lay": ["CROSS-1", "F2L-1"],
              "events": [{"play": "WHITE-1", "step": "CROSS"}, {"play": "RED-1", "step": "F2L"},
                         {"play": "PB-2", "step": "CROSS"}]},
             {"player": B, "draw": ["GREEN-1", "DNF-1"], "lay": ["OLL-1"]}]
    cards = choices(log(deal=DEAL, turns=turns))["next"]["play"]["cards"]
    assert cards["POP"]["targets"] == {A: {"steps": ["F2L"]}}  # the cross is protected
    assert cards["CORNER-TWIST"]["targets"] == {A: {"colours": {"F2L": ["RED-1"]}}}
    assert cards["DNF"]["targets"] == {A: {"steps": ["CROSS"]}}
    assert cards["GREEN"] == {"cards": ["GREEN-1"], "steps": ["OLL"]}
    assert "YELLOW" not in cards  # Bruno has no CROSS yet: his yellow has nowhere to go


def test_a_card_taken_from_an_unseen_hand_may_be_named():
    deal = {A: DEAL[A], B: [None] * 5}
    turns = [{"player": A, "draw": ["ONE-HAND-1", "BLIND-SOLVE-1"], "lay": ["CROSS-1", "F2L-1"]}]
    cards = choices(log(deal=deal, turns=turns))["next"]["play"]["cards"]
    one_hand = cards["ONE-HAND"]["targets"][B]
    assert one_hand["known"] == [] and one_hand["hidden"] == 5
    assert one_hand["may"]["POP"] == ["POP-1", "POP-2", "POP-3"]
    assert one_hand["may"]["CROSS"] == ["CROSS-2"]  # CROSS-1 is on Ana's table
    blind = cards["BLIND-SOLVE"]["targets"][B]["may"]
    assert set(blind) == {"WHITE", "YELLOW", "ORANGE", "GREEN", "SKIP"}  # Ana holds the red, the blue


def test_a_hand_over_ten_must_discard_before_the_next_turn():
    hand = ["WHITE-1", "YELLOW-1", "ORANGE-1", "GREEN-1", "PB-1"]
    deal = {A: hand, B: ["WHITE-2", "YELLOW-2", "ORANGE-2", "GREEN-2", "PB-2"]}
    turns = [{"player": A, "draw": ["PB-3", "PB-4"]},
             {"player": B, "draw": ["PB-5", "DNF-1"]},
             {"player": A, "draw": ["DNF-2", "DNF-3"]},
             {"player": B, "draw": ["ONE-HAND-1", "ONE-HAND-2"]},
             {"player": A, "draw": ["ONE-HAND-3", "POP-1"]}]
    answer = choices(log(deal=deal, turns=turns))
    assert answer["hands"][A]["hidden"] == 0 and len(answer["hands"][A]["known"]) == 11
    assert answer["next"]["discard"]["count"] == 1
    assert flat(answer["next"]["discard"]["cards"]) == sorted(answer["hands"][A]["known"])
    assert "turn" not in answer["next"]  # the surplus goes before the next turn


def test_an_illegal_draft_gives_the_engines_violation():
    answer = choices(log(deal=DEAL, turns=[{"player": B, "draw": ["PB-2", "PB-3"]}]))
    assert answer["error"]["code"] == "wrong-player"


def check_event(nxt: dict, event: dict, names: list[str], player: str) -> None:
    """The logged event is one of the offered plays, discards or shows."""
    if "show" in event:
        marks = nxt["show"]["marks"]
        assert all(card in m["cards"] for card, m in zip(event["show"], marks))
        return
    if "discard" in event:
        assert set(event["discard"]) <= set(flat(nxt["discard"]["cards"]))
        assert len(event["discard"]) == nxt["discard"]["count"]
        return
    card = event["play"]
    option = next(o for o in nxt["play"]["cards"].values() if card in o["cards"])
    if "steps" in option and "targets" not in option:
        assert event["step"] in option["steps"]
        return
    if "draw" in option:
        assert len(event.get("draw") or []) == option["draw"]
        return
    target = event.get("target") or next(n for n in names if n != player)
    chosen = option["targets"][target]
    if "steps" in chosen:
        assert event["step"] in chosen["steps"]
    elif "colours" in chosen:
        assert event["take"][0] in chosen["colours"][event["step"]]
    elif "give" in option:
        assert event["give"] in flat(option["give"])
        assert set(chosen["known"]) <= set(event["take"])
    else:
        assert set(event.get("take") or []) <= set(chosen["known"]) or chosen["hidden"]


@pytest.mark.parametrize("players,seed", [(2, 1), (2, 4), (3, 2), (4, 3)])
def test_every_move_of_a_simulated_game_is_offered(players, seed):
    full = CUBE.simulate(mode="standard", players=players, seed=seed)
    body = {k: v for k, v in full.items() if k != "claimed"}
    names = full["players"]
    for index, turn in enumerate(full["turns"]):
        before = {**body, "turns": full["turns"][:index]}
        nxt = choices(before)["next"]
        assert nxt["turn"]["player"] == turn["player"]
        assert nxt["turn"]["count"] == len(turn.get("draw") or [])
        drawn = list(turn.get("draw") or [])
        assert not drawn or drawn[0] in flat(nxt["turn"]["cards"]), index
        for k, card in enumerate(drawn):
            step = choices(before, pending={"player": turn["player"], "draw": drawn[:k]})
            assert card in flat(step["next"]["draw"]["cards"]), (index, k)
        lay = choices(before, pending={"player": turn["player"], "draw": drawn})["next"]["lay"]
        assert lay["cards"] == list(turn.get("lay") or []), index
        events = list(turn.get("events") or [])
        for k, event in enumerate(events):
            partial = {k2: v for k2, v in turn.items() if k2 != "events"}
            partial["events"] = events[:k]
            nxt = choices({**body, "turns": [*full["turns"][:index], partial]})["next"]
            check_event(nxt, event, names, turn["player"])
            if event.get("play", "").startswith("LOOK-AHEAD"):
                pending = {"play": event["play"], "draw": []}
                for j, card in enumerate(event.get("draw") or []):
                    pending["draw"] = event["draw"][:j]
                    step = choices({**body, "turns": [*full["turns"][:index], partial]},
                                   pending=pending)
                    assert card in flat(step["next"]["draw"]["cards"]), (index, k, j)
    assert choices(body)["over"] is True


def test_cut_cuts_inside_a_turn():
    full = CUBE.simulate(mode="standard", players=2, seed=1)
    steps = CUBE.replay(full, with_steps=True).steps
    plays = [s["index"] for s in steps if s["kind"] == "play"]
    at = plays[len(plays) // 2]
    branch = cut(copy.deepcopy(full), at)
    assert "claimed" not in branch
    assert CUBE.replay(branch, with_steps=True).steps[-1]["state"] == steps[at]["state"]
    draws = [s["index"] for s in steps if s["kind"] == "draw"]
    branch = cut(full, draws[3])
    assert len(branch["turns"]) == 4 and set(branch["turns"][-1]) == {"player", "draw"}
    assert cut(full, 0)["turns"] == []


def test_any_player_holding_the_six_marked_cards_is_offered_the_show():
    """Issue 14 ruling: an F.M.C. show by any player at any moment. Cut before Bruno's show in
    Ana's turn (golden fmc-out-of-turn): Bruno is offered it, Ana (who does not hold them) is not."""
    golden = json.loads((GOLDEN / "fmc-out-of-turn.log.json").read_text("utf-8"))
    draft = copy.deepcopy(golden)
    del draft["claimed"]
    draft["turns"][-1]["events"] = draft["turns"][-1]["events"][:-1]
    answer = choices(draft)
    assert answer["current"] == "Ana"
    assert "show" not in answer["next"]  # the current player cannot show
    (offer,) = answer["next"]["shows"]
    assert offer["player"] == "Bruno"
    assert [m["cards"] for m in offer["marks"]] == [[c] for c in golden["turns"][-1]["events"][-1]["show"]]


def test_where_the_picture_forgot_the_offers_come_from_the_exact_search(monkeypatch):
    """An observer's draft (3 players, seed 0, 21 turns): the picture has forgotten which cards
    moved, and would offer cards for the next draw that no deal can put in the pile. Each card it
    would offer and the offer leaves out is refused by the engine at that draw; each card offered
    is accepted there."""
    from popreplay.checking import check_log
    from popreplay.engine.games.cube import choices as module

    from .test_hidden import observer_view

    full = CUBE.simulate(mode="standard", players=3, seed=0)
    full.pop("claimed")
    seen = observer_view(full, full["players"][0])
    draft = {**seen, "turns": seen["turns"][:21]}
    offered = set(flat(choices(draft)["next"]["turn"]["cards"]))
    with monkeypatch.context() as patch:  # the picture's offer, without the search
        patch.setattr(module, "exactly", lambda know, hand, cards, op: set(cards))
        wider = set(flat(choices(draft)["next"]["turn"]["cards"]))
    assert offered < wider and len(wider - offered) >= 3

    def first_draw(card: str) -> list[tuple[str, str]]:
        """The errors of the draft with one more turn that draws ``card`` first (and nothing
        else: the turn's lay and plays are not the question)."""
        turn = seen["turns"][21]
        draw = [card] + [None] * (len(turn["draw"]) - 1)
        log = copy.deepcopy({**draft, "turns": [*draft["turns"],
                                                {"player": turn["player"], "draw": draw}]})
        return [(e["code"], e["path"]) for e in check_log(log)["errors"]]

    for card in sorted(wider - offered):
        assert first_draw(card)[:1] == [("duplicate-card", "/turns/21/draw/0")], card
    for card in sorted(offered)[::3]:  # a sample: each check replays 22 turns
        assert not any(path.startswith("/turns/21/draw") for _, path in first_draw(card)), card


@pytest.mark.parametrize("played", ["LOOK-AHEAD-1", None, 5, ["LOOK-AHEAD-1"]])
def test_a_card_played_before_any_turn_is_refused_with_its_place(played):
    answer = choices(log(deal=DEAL, turns=[]), pending={"draw": [], "play": played})
    assert answer["next"] == {}
    assert answer["error"]["code"] == "pending" and answer["error"]["path"] == "/pending/play"
    assert answer["error"]["message"] == "no turn has begun: a card is played in a turn"


@pytest.mark.parametrize("played", [None, 5, "NOT-A-CARD-1", {"id": "x"}])
def test_a_played_card_that_is_no_card_of_the_game_is_refused(played):
    turns = [{"player": A, "draw": ["LOOK-AHEAD-1", "PB-2"], "lay": ["CROSS-1", "F2L-1"]}]
    answer = choices(log(deal=DEAL, turns=turns), pending={"draw": [], "play": played})
    assert answer["next"] == {}
    assert answer["error"]["path"] == "/pending/play"
    assert answer["error"]["message"] == "the card played is not a card of this game"
    # a card of the game is offered its draw (Look Ahead: two cards)
    fine = choices(log(deal=DEAL, turns=turns), pending={"draw": [], "play": "LOOK-AHEAD-1"})
    assert fine["next"]["draw"]["player"] == A and fine["next"]["draw"]["left"] == 2
