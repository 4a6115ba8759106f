"""Annotated steps: one note per step, the whole table after it, hidden values kept hidden."""

from __future__ import annotations

import json
from pathlib import Path

from popreplay.checking import check_log, check_text
from popreplay.engine import GAMES

from .logs import ANA, BEN, A, B, call, counter, discard, draw, log, look, turn

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "bloops"
BLOOPS = GAMES["bloops"]


def steps_of(data: dict) -> list[dict]:
    return check_log(data, with_steps=True)["steps"]


def test_steps_follow_the_events_with_one_note_each():
    data = log(deal={A: ANA, B: [7, 6, 5, 3, 5, 8]},
               events=[draw(A, 7), discard(A, 7), counter(B, 1, 7), look(A, B, 2),
                       look(B, A, 3, 4)] + turn(B, 20))
    steps = steps_of(data)
    assert [s["kind"] for s in steps] == ["deal", "draw", "discard", "counter", "look", "look",
                                          "draw", "discard", "game-end"]
    assert [s["turn"] for s in steps] == [None, 1, 1, 1, 1, 1, 2, 2, None]
    assert all(s["round"] is None for s in steps)
    assert steps[3]["note"] == ("Ben counter-discards the 7 that was their top-left card. Its effect: Ben will "
                                "look at one card.")
    assert steps[4]["note"] == "Ana's 7: Ana looks at Ben's top-middle card: it is a 6."
    assert steps[-1]["note"] == ("Game over (the 20 was discarded): Ana wins with 23 points. "
                                 "Scores: Ana 23, Ben 27.")


def test_the_state_shows_places_face_down_with_known_values_only():
    data = log(deal={A: [None, None, None, 1, 2, 3], B: [None] * 6}, events=[draw(A)])
    state = steps_of(data)[-1]["state"]
    assert [p["value"] for p in state["places"][A]] == [None, None, None, 1, 2, 3]
    assert [p["row"] for p in state["places"][A]] == ["top"] * 3 + ["bottom"] * 3
    assert state["places"][A][3]["seen_by"] == [A] and state["places"][A][0]["seen_by"] == []
    assert state["drawn"] == {"player": A, "card": "#13", "value": None}
    assert len(state["pile"]) == 51 and state["pile"][0] == "#14"
    assert (state["bloops"], state["counter"], state["pending"]) == (None, None, [])


def test_the_state_tracks_effects_waiting_and_what_can_be_counter_discarded():
    steps = steps_of(log(events=[draw(A, 8), discard(A, 8)]))
    state = steps[-1]["state"]
    assert state["pending"] == [{"value": 8, "effect": "look", "player": A}]
    assert state["counter"] == 8
    assert state["discard"] == [{"card": "#13", "value": 8, "by": A}]


def test_the_bloops_card_moves_to_the_caller():
    steps = steps_of(log(events=turn(A, 1) + [call(A)]))
    assert steps[-1]["kind"] == "bloops"
    assert steps[-1]["state"]["bloops"] == A
    assert steps[-1]["state"]["final_turns_left"] == 1
    zones = BLOOPS.zones(steps[-1]["state"])
    assert zones["bloops/Ana"] == ["bloops"] and "bloops/aside" not in zones


def test_every_card_is_always_somewhere():
    for path in sorted(GOLDEN.glob("*.log.json")):
        result = check_text(path.read_bytes(), with_steps=True)
        for step in result.get("steps", []):
            if step["state"] is None:
                continue
            cards = [c for zone in BLOOPS.zones(step["state"]).values() for c in zone]
            assert sorted(cards) == sorted([f"#{n}" for n in range(1, 65)] + ["bloops"]), (
                path.name, step["index"])


def test_a_violation_is_the_last_step():
    steps = steps_of(log(events=[draw(B)]))
    assert steps[-1]["kind"] == "violation"
    assert steps[-1]["note"] == "Illegal: it is Ana's turn to draw, not Ben's."
    assert steps_of(log([A]))[-1]["state"] is None


def test_the_fast_path_and_the_steps_give_the_same_result():
    for seed in range(4):
        data = BLOOPS.simulate(mode="classic", players=3, seed=seed)
        fast = check_log(json.loads(json.dumps(data)))
        slow = check_log(json.loads(json.dumps(data)), with_steps=True)
        slow.pop("steps")
        assert fast == slow


def test_standings_follow_the_outcome():
    result = check_log(log(deal={A: ANA, B: BEN}, events=turn(A, 20)))
    assert BLOOPS.standings(result["outcome"], [A, B]) == {
        A: {"score": 23, "won": True}, B: {"score": 29, "won": False}}
    open_game = check_log(log(events=turn(A, 1)))
    assert BLOOPS.standings(open_game["outcome"], [A, B]) == {
        A: {"score": None, "won": None}, B: {"score": None, "won": None}}
