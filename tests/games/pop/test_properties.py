"""Property tests (hypothesis) over simulated POP! games."""

from __future__ import annotations

import copy

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from popreplay.checking import check_log
from popreplay.engine import GAMES
from popreplay.engine.games.pop.cards import COLOUR, ICONS

POP = GAMES["pop"]
SETUPS = [
    ("battle", 2, {}), ("battle", 2, {"two_player_variant": True}), ("battle", 3, {}),
    ("battle", 4, {}), ("battle", 5, {}), ("coop", 3, {}), ("coop", 4, {}), ("coop", 5, {}),
    ("solo", 1, {"difficulty": 1}), ("solo", 1, {"difficulty": 2}), ("solo", 1, {"difficulty": 3}),
    ("solo", 1, {"difficulty": 4}), ("puzzle", 1, {}),
]
FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def simulated(draw):
    mode, players, options = draw(st.sampled_from(SETUPS))
    seed = draw(st.integers(min_value=0, max_value=10**9))
    return POP.simulate(mode=mode, players=players, seed=seed, options=options)


def _touching(rows):
    for r, row in enumerate(rows):
        for c, card in enumerate(row):
            if card is None:
                continue
            right = row[c + 1] if c < 4 else None
            below = rows[r + 1][c] if r + 1 < len(rows) else None
            for other in (right, below):
                if other is not None and COLOUR[other] == COLOUR[card]:
                    return card, other
    return None


@FAST
@given(log=simulated())
def test_no_two_cards_of_a_colour_touch_after_a_resolved_placement(log):
    steps = check_log(log, with_steps=True)["steps"]
    for index, step in enumerate(steps):
        nxt = steps[index + 1] if index + 1 < len(steps) else None
        resolved = step["kind"] in ("explode", "place") and not (
            nxt is not None and nxt["kind"] == "explode")
        if resolved or step["kind"] in ("deal", "round-end"):
            assert _touching(step["state"]["area"]["rows"]) is None, step["note"]


@FAST
@given(log=simulated())
def test_each_score_equals_the_icons_collected(log):
    result = check_log(log, with_steps=True)
    if log["mode"] == "battle":
        for rnd in result["outcome"]["rounds"]:
            for name, cards in rnd["collected"].items():
                assert rnd["scores"][name] == sum(ICONS[c] for c in cards)
        assert result["outcome"]["totals"] == {
            p: sum(r["scores"][p] for r in result["outcome"]["rounds"]) for p in log["players"]}
    for step in result["steps"]:
        state = step["state"]
        if state is not None:
            for name, cards in state["collected"].items():
                assert state["scores"][name] == sum(ICONS[c] for c in cards)


@FAST
@given(log=simulated())
def test_a_simulated_game_replays_as_complete_and_legal(log):
    result = check_log(log)
    assert (result["status"], result["legal"], result["errors"]) == ("complete", True, [])
    assert result["claims"]["match"] is True


def _turn_paths(log):
    for r, rnd in enumerate(log["rounds"]):
        for t, turn in enumerate(rnd["turns"]):
            yield r, t, turn


@FAST
@given(log=simulated(), data=st.data())
def test_a_corrupted_card_is_a_violation_with_the_right_code(log, data):
    log = copy.deepcopy(log)
    turns = list(_turn_paths(log))
    r, t, turn = data.draw(st.sampled_from(turns))
    player = data.draw(st.sampled_from(sorted(turn["plays"])))
    k = data.draw(st.integers(0, len(turn["plays"][player]) - 1))
    kind = data.draw(st.sampled_from(["out-of-range", "from-layout", "dropped"]))
    path = f"/rounds/{r}/turns/{t}/plays/{player}"
    if kind == "out-of-range":
        turn["plays"][player][k] = data.draw(st.sampled_from([0, -3, 51, 10**6]))
        expected = ("unknown-card", f"{path}/{k}")
    elif kind == "from-layout":
        layout_cards = [c for row in log["rounds"][r]["layout"] for c in row if c is not None]
        turn["plays"][player][k] = data.draw(st.sampled_from(layout_cards))
        expected = ("not-in-hand", f"{path}/{k}")  # simulated logs track hands
    else:
        del turn["plays"][player][k]
        expected = ("wrong-play-count", path)
    result = check_log(log)
    assert result["status"] == "illegal" and result["legal"] is False
    error = result["errors"][0]
    assert (error["code"], error["path"]) == expected
    assert (error["round"], error["turn"]) == (r + 1, t + 1)
    assert result["outcome"] is None and result["claims"] is None


@FAST
@given(log=simulated(), data=st.data())
def test_a_corrupted_count_is_a_violation_with_the_right_code(log, data):
    outcome = check_log(log)["outcome"]
    log = copy.deepcopy(log)
    rounds = log["rounds"]
    turns = rounds[-1]["turns"]
    kind = data.draw(st.sampled_from(["extra-turn", "extra-round", "missing-turn"]))
    if kind == "missing-turn" and len(rounds) > 1:
        r = data.draw(st.integers(0, len(rounds) - 2))
        del rounds[r]["turns"][-1]
        expected = ("missing-turns", r + 1, None)
    elif kind == "extra-round" or kind == "missing-turn":
        rounds.append(copy.deepcopy(rounds[-1]))
        expected = ("too-many-rounds", len(rounds), None)
    else:
        turns.append(copy.deepcopy(turns[-1]))
        # a coop loss or a solo win ends the game: what follows is after its end
        over = (log["mode"], outcome.get("result")) in (("coop", "lost"), ("solo", "won"))
        code = "after-game-end" if over else "too-many-turns"
        expected = (code, len(rounds), len(turns))
    error = check_log(log)["errors"][0]
    assert (error["code"], error["round"], error["turn"]) == expected
