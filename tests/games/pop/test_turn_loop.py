"""The turn loop's one-pass take of a common turn against the card-by-card checks.

``PopReplay.play_turns`` takes a common turn (hands tracked, one held card each under the
player's own name) in one pass, and hands any other turn, or one whose pass fails, to
``check_plays``, which checks card by card and words the violation. Without the one pass (every
turn card by card), the result must be the same, byte for byte, for every log: legal ones, cut
ones, and ones broken at a random turn in a way the pass has to notice and undo.
"""

from __future__ import annotations

import copy
import random
from contextlib import contextmanager

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from popreplay.checking import check_log
from popreplay.engine import GAMES
from popreplay.engine.games.pop import rules
from popreplay.engine.replay import canonical

from .test_properties import SETUPS

POP = GAMES["pop"]


@contextmanager
def card_by_card():
    """Every turn checked by ``check_plays``: no replay takes a turn in one pass."""
    original = rules.PopReplay.__init__

    def init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        self.one_held = False

    rules.PopReplay.__init__ = init
    try:
        yield
    finally:
        rules.PopReplay.__init__ = original


def both_paths(log):
    """The result with the one-pass take of common turns, and without it."""
    fast = canonical(check_log(copy.deepcopy(log)))
    with card_by_card():
        general = canonical(check_log(copy.deepcopy(log)))
    return fast, general


def break_turn(log, rng):
    """Change one turn so that it is no longer plain (most changes make it illegal too)."""
    turns = [(r, t) for r, rnd in enumerate(log["rounds"]) for t in range(len(rnd["turns"]))]
    r, t = rng.choice(turns)
    turn = log["rounds"][r]["turns"][t]
    player = rng.choice(sorted(turn["plays"]))
    layout = [c for row in log["rounds"][r]["layout"] for c in row if c is not None]
    kind = rng.choice(["not-held", "layout-card", "no-card", "two-cards", "unknown-key",
                       "missing-key", "draws", "chief-repeat", "chief-count", "chief-range",
                       "renamed-key", "string-card"])
    plays = turn["plays"]
    if kind == "not-held":
        plays[player] = [rng.choice([c for c in range(1, 51) if c not in plays[player]])]
    elif kind == "layout-card":
        plays[player] = [rng.choice(layout)]
    elif kind == "no-card":
        plays[player] = []
    elif kind == "two-cards":
        plays[player] = plays[player] + [rng.randint(1, 50)]
    elif kind == "unknown-key":
        plays["Nobody"] = plays.pop(player)
    elif kind == "missing-key":
        del plays[player]
    elif kind == "draws":
        turn["draws"] = {player: [rng.randint(1, 50)]}
    elif kind == "chief-repeat":  # the last card: the ones before it are new (and undone)
        turn["chief"] = (turn.get("chief") or [0])[:-1] + [rng.choice(layout)]
    elif kind == "chief-count":
        turn["chief"] = (turn.get("chief") or []) + [rng.randint(1, 50)]
    elif kind == "chief-range":
        turn["chief"] = [rng.choice([0, 51, -1])]
    elif kind == "renamed-key":  # the same player, spelled in another Unicode form
        plays[f" {player}"] = plays.pop(player)
    else:
        plays[player] = [str(plays[player][0])] if plays[player] else ["1"]
    return kind


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=st.sampled_from(SETUPS), seed=st.integers(0, 10**9), broken=st.booleans(),
       cut=st.booleans(), hands=st.booleans())
def test_fast_and_general_paths_agree(setup, seed, broken, cut, hands):
    mode, players, options = setup
    log = POP.simulate(mode=mode, players=players, seed=seed, options=options)
    rng = random.Random(seed)
    if not hands:
        for rnd in log["rounds"]:
            rnd.pop("hands", None)
    if cut:
        del log["rounds"][rng.randint(1, len(log["rounds"])):]
        turns = log["rounds"][-1]["turns"]
        del turns[rng.randint(0, len(turns)):]
    if broken and any(rnd["turns"] for rnd in log["rounds"]):
        break_turn(log, rng)
    try:
        fast, general = both_paths(log)
    except TypeError:  # (string cards are stopped by the shape check, before the engine)
        with pytest.raises(TypeError), card_by_card():
            check_log(copy.deepcopy(log))
        return
    assert fast == general


@pytest.mark.parametrize("players", [2, 5])  # the Chief plays 3 cards a turn, or none
@pytest.mark.parametrize("kind", ["not-held", "layout-card", "unknown-key", "chief-repeat",
                                  "chief-repeat-last", "two-cards", "draws"])
def test_a_broken_turn_after_plain_ones_is_found_where_it_is(kind, players):
    """The one pass fails at the broken turn; the violation names that turn, and the turns
    before it were played (the hands and seen cards the pass undid are whole again)."""
    log = POP.simulate(mode="battle", players=players, seed=11)
    rng = random.Random(3)
    turn = log["rounds"][1]["turns"][5]
    player = sorted(turn["plays"])[-1]
    layout = [c for row in log["rounds"][1]["layout"] for c in row]
    if kind == "not-held":
        held_later = log["rounds"][1]["turns"][6]["plays"][player][0]
        turn["plays"][player] = [held_later]  # held, but the next turn's card: legal here
    elif kind == "layout-card":
        turn["plays"][player] = [layout[0]]
    elif kind == "unknown-key":
        turn["plays"]["Nobody"] = turn["plays"].pop(player)
    elif kind == "chief-repeat":
        turn["chief"] = [layout[1]]
    elif kind == "chief-repeat-last":
        turn["chief"] = turn.get("chief", [])[:-1] + [layout[1]]
    elif kind == "two-cards":
        turn["plays"][player] = turn["plays"][player] + [rng.randint(1, 50)]
    else:
        turn["draws"] = {player: [7]}
    fast, general = both_paths(log)
    assert fast == general
    result = check_log(log)
    if kind == "not-held":  # swapping turn order of one player's cards is only wrong later
        assert result["legal"] is False
        assert (result["errors"][0]["round"], result["errors"][0]["turn"]) == (2, 7)
        assert result["errors"][0]["code"] == "not-in-hand"
        return
    error = result["errors"][0]
    assert (error["round"], error["turn"]) == (2, 6)
    assert error["path"].startswith("/rounds/1/turns/5/")


def _with_hands_keys(change):
    log = POP.simulate(mode="battle", players=5, seed=11)
    hands = log["rounds"][1]["hands"]
    change(hands)
    return check_log(log)


def test_hands_keyed_by_another_spelling_of_a_name_are_that_player_s():
    """The lookup-free path serves hands keyed by the exact names; any other keys go through the
    name lookup (NFC), with the same result when they name the same players."""
    plain = check_log(POP.simulate(mode="battle", players=5, seed=11))
    decomposed = "Chloe\u0301"  # Chloé in NFD

    def respell(hands):
        hands[decomposed] = hands.pop("Chloé")

    assert canonical(_with_hands_keys(respell)) == canonical(plain)


@pytest.mark.parametrize("change, code, path", [
    (lambda h: h.__setitem__("Nobody", h.pop("Bruno")), "unknown-player", "/rounds/1/hands/Nobody"),
    (lambda h: h.pop("Dmitri"), "bad-hand", "/rounds/1/hands/Dmitri"),
    (lambda h: h.__setitem__("Chloe\u0301", list(h["Chloé"])), "bad-hand",
     "/rounds/1/hands/Chloe\u0301"),
])
def test_hands_that_do_not_name_each_player_once_are_violations(change, code, path):
    result = _with_hands_keys(change)
    assert result["legal"] is False
    error = result["errors"][0]
    assert (error["code"], error["path"], error["round"]) == (code, path, 2)
