"""What the recorder may offer next in POP!, from the engine (``pop/choices.py``): a whole
simulated game of every mode is re-entered card by card through ``choices`` alone, and the draft
it builds is the simulated log."""

from __future__ import annotations

import copy

import pytest

from popreplay.engine.games.pop import POP
from popreplay.engine.games.pop.choices import choices, cut

A, B, C = "Alice", "Bruno", "Chloé"


def put(entry, path, value):
    """Set ``value`` at the JSON Pointer ``path`` inside ``entry`` (what record.js does)."""
    tokens = path.split("/")[1:]
    node = entry
    for here, after in zip(tokens, tokens[1:]):
        if isinstance(node, list):
            while len(node) <= int(here):
                node.append([] if after.isdigit() else {})
            node = node[int(here)]
        else:
            node = node.setdefault(here, [] if after.isdigit() else {})
    last = tokens[-1]
    if isinstance(node, list):
        node.append(value)
    else:
        node[last] = value


def assemble(plan, cards):
    """The entry the recorder builds from a plan and the tapped cards."""
    entry = copy.deepcopy(plan["base"])
    k = 0
    for slot in plan["slots"]:
        taken = cards[k:k + slot["count"]]
        k += slot["count"]
        put(entry, slot["path"], taken[0] if slot.get("one") else list(taken))
    return entry


def commit(draft, plan, cards):
    entry = assemble(plan, cards)
    tokens = plan["at"].split("/")[1:]
    node = draft
    for token in tokens[:-1]:
        node = node[int(token)] if isinstance(node, list) else node[token]
    if plan["how"] == "append":
        node[tokens[-1] if isinstance(node, dict) else int(tokens[-1])].append(entry)
    else:
        node[tokens[-1]] = entry


def taps_for(kind, plan, source_round, turn=None):
    """The cards of one entry of the simulated log, in the plan's slot order."""
    cards = []
    for slot in plan["slots"]:
        source = source_round if kind in ("round", "kept") else turn
        if kind == "kept":
            source = source_round["kept"]
        value = source
        for token in slot["path"].split("/")[1:]:
            value = value[int(token)] if isinstance(value, list) else value.get(token)
            if value is None:  # a solo draw that the plays make impossible (a win)
                return cards
        cards.extend([value] if slot.get("one") else value)
    return cards


def record(log, *, hands=True):
    """Re-enter ``log`` through ``choices`` only: each card must be offered when it is tapped."""
    draft = {k: v for k, v in log.items() if k not in ("rounds", "claimed")}
    draft["rounds"] = []
    taps = 0
    for data in log["rounds"]:
        rows = len(data["layout"])
        answer = choices(draft, pending={"entry": "round", "hands": hands, "rows": rows})
        plan = answer["next"]["round"]
        cards = taps_for("round", plan, data)
        for k, card in enumerate(cards):
            answer = choices(draft, pending={"entry": "round", "hands": hands, "rows": rows,
                                             "cards": cards[:k]})
            assert card in answer["next"]["round"]["cards"] or card is None, (k, card)
        commit(draft, plan, cards)
        for turn in data["turns"]:
            answer = choices(draft, pending={"entry": "turn"})
            plan = answer["next"]["turn"]
            cards = taps_for("turn", plan, data, turn)
            for k, card in enumerate(cards):
                answer = choices(draft, pending={"entry": "turn", "cards": cards[:k]})
                assert card in answer["next"]["turn"]["cards"], (k, card, answer["next"]["turn"])
                plan = answer["next"]["turn"]  # a solo draw's size may change with the plays
            final = choices(draft, pending={"entry": "turn", "cards": cards})["next"]["turn"]
            assert final["done"] is True and final["slot"] is None
            commit(draft, final, cards)
            taps += len(cards)
        if data.get("kept") is not None:
            answer = choices(draft)
            plan = answer["next"]["kept"]
            commit(draft, plan, taps_for("kept", plan, data))
    return draft, taps


def without_hands(log):
    out = copy.deepcopy(log)
    for data in out["rounds"]:
        data.pop("hands", None)
        for turn in data["turns"]:
            turn.pop("draws", None)
    return out


CASES = [("battle", 3, None), ("battle", 2, {"two_player_variant": True}), ("battle", 5, None),
         ("coop", 4, None), ("solo", 1, {"difficulty": 1}), ("solo", 1, {"difficulty": 3})]


@pytest.mark.parametrize("mode,players,options", CASES)
@pytest.mark.parametrize("seed", [1, 2])
def test_a_simulated_game_is_re_entered_card_by_card_and_gives_the_same_log(mode, players,
                                                                            options, seed):
    log = POP.simulate(mode=mode, players=players, seed=seed, options=options)
    draft, _taps = record(log)
    expected = {k: v for k, v in log.items() if k != "claimed"}
    assert draft == expected
    assert choices(draft)["over"] is True
    assert choices(draft)["next"] == {}


@pytest.mark.parametrize("mode,players,options", [("battle", 3, None), ("coop", 3, None)])
def test_without_hands_every_card_not_seen_this_round_is_offered(mode, players, options):
    log = without_hands(POP.simulate(mode=mode, players=players, seed=5, options=options))
    draft, _ = record(log, hands=False)
    assert draft == {k: v for k, v in log.items() if k != "claimed"}


def test_a_puzzle_is_entered_row_by_row_with_gaps_and_no_hand():
    log = without_hands(POP.simulate(mode="puzzle", players=1, seed=4))
    draft, taps = record(log, hands=False)
    assert draft == {k: v for k, v in log.items() if k != "claimed"}
    assert taps == 5  # one tap per revealed card, nothing else


def test_a_3_player_battle_with_hands_takes_one_tap_per_revealed_card():
    log = POP.simulate(mode="battle", players=3, seed=7)
    _draft, taps = record(log)
    assert taps == 3 * 8 * 5  # 3 rounds of 8 turns of 5 revealed cards


def game(rounds, mode="battle", players=(A, B, C), **extra):
    return {"format": "popreplay/1", "game": "pop", "mode": mode, "players": list(players),
            **extra, "rounds": rounds}


ROUND = {"layout": [[21, 32, 23, 34, 25]], "turns": []}


def test_the_first_entry_of_a_draft_is_the_layout_and_touching_colours_are_not_offered():
    answer = choices(game([]), pending={"entry": "round", "cards": [21]})
    plan = answer["next"]["round"]
    assert [s["path"] for s in plan["slots"]] == ["/layout/0"]  # no hands asked for
    assert plan["slot"] == 0 and plan["left"] == 4
    assert 21 not in plan["cards"] and 26 not in plan["cards"]  # seen; colour of 21 on its left
    assert 22 in plan["cards"]
    assert answer["over"] is False and "turn" not in answer["next"]


def test_a_turn_without_hands_offers_every_unseen_card_and_the_chief_comes_last():
    answer = choices(game([ROUND]), pending={"entry": "turn", "cards": [12, 13, 14]})
    turn = answer["next"]["turn"]
    assert [(s["role"], s["player"], s["count"]) for s in turn["slots"]] == [
        ("play", A, 1), ("play", B, 1), ("play", C, 1), ("chief", None, 2)]
    assert turn["slot"] == 3 and turn["left"] == 2
    assert turn["cards"] == [c for c in range(1, 51) if c not in (21, 32, 23, 34, 25, 12, 13, 14)]
    assert turn["at"] == "/rounds/0/turns" and turn["turn"] == 1


def test_a_card_already_seen_is_refused_in_the_pending_entry_with_its_pointer():
    answer = choices(game([ROUND]), pending={"entry": "turn", "cards": [12, 21]})
    assert answer["next"] == {}
    assert answer["error"]["code"] == "pending"
    assert answer["error"]["path"] == "/pending/cards/1"
    assert "21" in answer["error"]["message"]


def test_an_entry_that_cannot_come_next_is_refused():
    answer = choices(game([]), pending={"entry": "turn"})
    assert answer["error"]["path"] == "/pending/entry"


def test_an_illegal_draft_answers_its_violation_and_nothing_next():
    bad = game([{"layout": [[21, 26, 23, 34, 25]], "turns": []}])
    answer = choices(bad)
    assert answer["next"] == {}
    assert answer["error"]["code"] == "bad-setup"


def test_a_battle_round_without_hands_offers_the_kept_cards_as_an_optional_entry():
    log = without_hands(POP.simulate(mode="battle", players=3, seed=2))
    first = copy.deepcopy(log["rounds"][0])
    answer = choices(game([first], players=log["players"]))
    assert set(answer["next"]) == {"kept", "round"}
    assert answer["next"]["kept"]["optional"] is True
    assert answer["next"]["kept"]["at"] == "/rounds/0/kept"


def test_cut_keeps_the_turns_whose_steps_all_come_at_or_before_the_step():
    log = POP.simulate(mode="battle", players=3, seed=1)
    steps = POP.replay(log, with_steps=True).steps
    # the last step of round 1, turn 3: the branch holds turns 1-3
    end3 = max(s["index"] for s in steps if s["round"] == 1 and s["turn"] == 3)
    branch = cut(log, end3)
    assert "claimed" not in branch
    assert len(branch["rounds"]) == 1 and branch["rounds"][0]["turns"] == log["rounds"][0]["turns"][:3]
    # a step inside turn 4 cuts before turn 4
    inside = min(s["index"] for s in steps if s["round"] == 1 and s["turn"] == 4)
    assert cut(log, inside)["rounds"][0]["turns"] == log["rounds"][0]["turns"][:3]
    # the deal of round 2 keeps round 1 whole and starts round 2 empty
    deal2 = min(s["index"] for s in steps if s["round"] == 2)
    two = cut(log, deal2)["rounds"]
    assert len(two) == 2 and two[0] == log["rounds"][0] and two[1]["turns"] == []
    # past the end: the whole log without its claims
    assert cut(log, 10_000)["rounds"] == log["rounds"]
    # step 0 is round 1's deal
    assert cut(log, 0)["rounds"] == [dict(log["rounds"][0], turns=[])]


def test_the_variant_says_which_draw_joins_which_play_slot_for_offline_offers():
    log = POP.simulate(mode="battle", players=2, seed=12, options={"two_player_variant": True})
    first = log["rounds"][0]
    draft = {k: v for k, v in log.items() if k not in ("rounds", "claimed")}
    draft["rounds"] = [{**first, "turns": first["turns"][:1]}]
    plan = choices(draft)["next"]["turn"]
    roles = [(s["role"], s["player"]) for s in plan["slots"]]
    names = log["players"]
    assert roles == [("draw", names[0]), ("draw", names[1]), ("play", names[0]),
                     ("play", names[1]), ("chief", None)]
    assert [s.get("joins") for s in plan["slots"]] == [None, None, [0], [1], None]
    # `may` for a play slot is the hand as it is: the card drawn joins it only once drawn
    hand = set(first["hands"][names[0]]) | set(first["turns"][0]["draws"][names[0]])
    hand -= set(first["turns"][0]["plays"][names[0]])
    assert plan["may"][2] == sorted(hand)
    # without the variant nothing joins
    plain = POP.simulate(mode="battle", players=3, seed=12)
    plain.pop("claimed")
    plain["rounds"] = plain["rounds"][:1]
    plain["rounds"][0]["turns"] = []
    assert all("joins" not in s for s in choices(plain)["next"]["turn"]["slots"])
