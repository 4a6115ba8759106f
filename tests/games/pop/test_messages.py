"""Issue 16: messages for people logging POP! by hand (codes unchanged, each message asserted)."""

from __future__ import annotations

import copy
import json
import unicodedata
from pathlib import Path

import pytest

from popreplay.checking import check_log
from popreplay.engine import GAMES
from popreplay.engine.players import did_you_mean, folded

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "pop"


def golden(name):
    return json.loads((GOLDEN / f"{name}.log.json").read_text("utf-8"))


def error(log):
    result = check_log(copy.deepcopy(log))
    assert result["status"] == "illegal"
    (only,) = result["errors"]
    return only


def battle(players=3, seed=1):
    return GAMES["pop"].simulate(mode="battle", players=players, seed=seed)


def test_the_chief_s_count_says_what_is_expected_then_what_is_logged():
    log = battle()
    log["rounds"][0]["turns"][2]["chief"] = log["rounds"][0]["turns"][2]["chief"][:1]
    assert error(log) == {
        "code": "wrong-play-count", "round": 1, "turn": 3, "path": "/rounds/0/turns/2/chief",
        "message": "each turn the Multicolour Chief plays 2 cards with 3 players; "
                   "turn 3 logs 1 for it"}


def test_the_chief_s_count_in_the_two_player_variant():
    log = GAMES["pop"].simulate(mode="battle", players=2, seed=1,
                                options={"two_player_variant": True})
    log["rounds"][0]["turns"][0]["chief"].append(50)
    assert error(log)["message"] == ("each turn the Multicolour Chief plays 1 card in the "
                                     "2-player variant; turn 1 logs 2 for it")


def test_a_player_s_count_says_what_is_expected_then_what_is_logged():
    log = battle()
    log["rounds"][1]["turns"][4]["plays"]["Bruno"] = []
    found = error(log)
    assert (found["code"], found["path"]) == ("wrong-play-count", "/rounds/1/turns/4/plays/Bruno")
    assert found["message"] == "each turn Bruno plays 1 card; turn 5 logs 0 for them"


@pytest.mark.parametrize(("typed", "meant"), [
    ("Chloe", "Chloé"), ("chloé", "Chloé"), ("CHLOE", "Chloé"), ("Chlo\u0065\u0301 ", "Chloé"),
    ("Brunoo", "Bruno"), ("Alcie", "Alice"),
])
def test_a_misspelt_name_gets_did_you_mean(typed, meant):
    log = battle()
    plays = log["rounds"][0]["turns"][0]["plays"]
    plays[typed] = plays.pop(meant)
    found = error(log)
    assert found["code"] == "unknown-player"
    assert found["path"] == f"/rounds/0/turns/0/plays/{typed}"
    assert found["message"] == f"{typed!r} is not a player of this game; did you mean {meant!r}?"


def test_a_name_far_from_every_player_gets_no_suggestion():
    log = battle()
    plays = log["rounds"][0]["turns"][0]["plays"]
    plays["Zoltan"] = plays.pop("Alice")
    assert error(log)["message"] == "'Zoltan' is not a player of this game"


def test_folding_drops_accents_and_case():
    assert folded("Cléo") == folded("cleo") == folded(unicodedata.normalize("NFD", "CLÉO"))
    index = {"Cléo": 0, "Bruno": 1}
    assert did_you_mean("Cleo", index) == "; did you mean 'Cléo'?"
    assert did_you_mean("Max", index) == ""


def _rename_first(value, old, new):
    """The log with the first key or text equal to ``old`` (outside players/claimed/meta)
    renamed ``new``; ``None`` if there is none."""
    done = [False]

    def walk(node):
        if isinstance(node, dict):
            out = {}
            for key, item in node.items():
                if key == old and not done[0]:
                    done[0] = True
                    key = new
                out[key] = walk(item)
            return out
        if isinstance(node, list):
            return [walk(item) for item in node]
        if node == old and not done[0]:
            done[0] = True
            return new
        return node

    body = {k: v for k, v in value.items() if k not in ("players", "claimed", "meta")}
    renamed = walk(body)
    return {**value, **renamed} if done[0] else None


@pytest.mark.parametrize("name", sorted(GAMES))
def test_did_you_mean_works_in_every_game(name):
    """The suggestion lives in the shared ``players.py``: a name typed without its accent, in
    the first place a game's log names a player, is suggested back in every game."""
    game = GAMES[name]
    mode = next(m for m in game.modes if game.player_counts[m][1] >= 3)
    log = game.simulate(mode=mode, players=game.player_counts[mode][1], seed=5)
    broken = _rename_first(log, "Chloé", "chloe")
    assert broken is not None, f"{name}: the log never names Chloé"
    found = error(broken)
    assert found["code"] == "unknown-player"
    assert found["message"].endswith("; did you mean 'Chloé'?")


def test_a_duplicate_names_who_played_the_other_copy_and_where():
    found = error(golden("violation-duplicate-card-two-players"))
    assert found["message"] == ("card 17 is already in round 1: Ana played it in turn 2 "
                                "(see /rounds/0/turns/1/plays/Ana/0)")


def test_a_duplicate_names_the_layout_place():
    found = error(golden("violation-duplicate-card-chief-plays-layout-card"))
    assert found["message"] == ("card 21 is already in round 1: it is in the starting layout, "
                                "row 1, queue A (see /rounds/0/layout/0/0)")


def test_a_duplicate_follows_a_drawn_card_to_its_play():
    log = golden("battle-2p-variant-no-hands-kept-card-deduced")  # legal, draws recorded
    turns = log["rounds"][0]["turns"]
    card, player, drew, played, k = next(
        (c, p, t, u, turns[u]["plays"][p].index(c))
        for t, turn in enumerate(turns) for p, cards in turn["draws"].items() for c in cards
        for u in range(t, len(turns) - 1) if c in turns[u]["plays"][p])
    turns[played + 1]["chief"] = [card]  # the Chief plays it again in the next turn
    found = error(log)
    assert (found["code"], found["path"]) == ("duplicate-card",
                                              f"/rounds/0/turns/{played + 1}/chief/0")
    assert found["message"] == (
        f"card {card} is already in round 1: {player} drew it in turn {drew + 1}, then "
        f"{player} played it in turn {played + 1} "
        f"(see /rounds/0/turns/{played}/plays/{player}/{k})")


def test_not_in_hand_with_hands_names_who_holds_the_card():
    found = error(golden("violation-not-in-hand"))
    assert found["message"] == ("Alice does not hold 33: it was dealt to Bruno, then Bruno "
                                "played it in turn 1 (see /rounds/0/turns/0/plays/Bruno/0)")


def test_a_missing_turn_says_which():
    log = battle()
    del log["rounds"][0]["turns"][7]
    found = error(log)
    assert (found["code"], found["path"]) == ("missing-turns", "/rounds/0/turns")
    assert found["message"] == ("round 1 has 7 of its 8 turns, but round 2 follows: turn 8 is "
                                "missing (or a turn in between was not logged)")
    del log["rounds"][0]["turns"][6]
    assert error(log)["message"] == ("round 1 has 6 of its 8 turns, but round 2 follows: turns "
                                     "7 and 8 are missing (or 2 turns in between were not "
                                     "logged)")
