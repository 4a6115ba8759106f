"""Issue 26: a set that joins a new unseen rearrangement keeps what it knew — its unseen cards
that a shown place bound to a value join as cards of that value. Engine 0.2.1 forgot them, counted
one card of that value too few, and refused the real game of ``popreplay simulate --game bloops
--mode classic --players 3 --seed 3097``. The hand checks are in tests/golden/bloops/README.md."""

from __future__ import annotations

import json
from pathlib import Path

from popreplay.checking import check_text
from popreplay.engine import GAMES

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "bloops"


def _result(case: str) -> dict:
    return check_text((GOLDEN / f"{case}.log.json").read_bytes())


def test_a_set_joins_a_new_one_with_the_value_its_place_showed():
    result = _result("rearrange-set-joins-with-shown-value")
    assert (result["status"], result["errors"]) == ("complete", [])
    places = result["outcome"]["places"]
    assert (places["Ana"]["1"], places["Ana"]["3"], places["Ben"]["3"]) == (16, 16, 16)
    assert result["outcome"]["winners"] is None  # most places are never revealed


def test_seed_3097_is_the_real_game_the_simulator_played():
    result = _result("simulated-seed-3097")
    assert (result["status"], result["errors"]) == ("complete", [])
    outcome = result["outcome"]
    assert outcome["scores"] == {"Alice": 57, "Bruno": 108, "Chloé": 26}
    assert (outcome["winners"], outcome["ended_by"], outcome["bloops"]) == (
        ["Chloé"], "bloops", "Alice")
    sixes = [(name, place) for name, places in outcome["places"].items()
             for place, value in places.items() if value == 6]
    assert sixes == [("Alice", "8"), ("Chloé", "3"), ("Chloé", "7")]  # the deck's three 6s
    assert result["claims"] == {"match": True, "differences": []}
    simulated = GAMES["bloops"].simulate(mode="classic", players=3, seed=3097)
    assert (GOLDEN / "simulated-seed-3097.log.json").read_text("utf-8") == json.dumps(
        simulated, ensure_ascii=False, indent=2) + "\n"  # the golden log is that seed's game
