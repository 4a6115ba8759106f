"""The cube golden logs, built here with the result each one must give, reasoned from the rules.

    python -m tests.games.cube.golden_cases   # (re)write tests/golden/cube/*.log.json

Each case states by hand what the replay must say (status, the violation with its place, or the
outcome's key facts); ``test_golden_cases.py`` checks the engine against these statements, and the
generic ``tests/engine/test_golden.py`` checks the full result files (written by
``scripts/golden --update`` and reviewed as a diff).

The base game (2 players, every card named): Ana is dealt CROSS-1 WHITE-1 F2L-1 RED-1 BLUE-1,
Bruno CROSS-2 YELLOW-1 OLL-1 PB-1 POP-1.
- Turn 1, Ana holds 5 and draws 2 (OLL-2, ORANGE-1), lays her three CUBE cards, puts WHITE-1 on
  the CROSS (complete), RED-1 and BLUE-1 on the F2L (complete) and ORANGE-1 on the OLL.
- Turn 2, Bruno holds 5 and draws 2 (GREEN-1, PLL-1), lays CROSS-2 OLL-1 PLL-1, puts YELLOW-1 on
  the CROSS (complete), GREEN-1 on the OLL and protects the OLL with PB-1. He keeps POP-1.
- Turn 3, Ana holds 0 and draws up to 5 (PLL-2 GREEN-2 YELLOW-2 PB-2 DNF-1), lays PLL-2, puts
  YELLOW-2 on the PLL (opposite her white CROSS) and GREEN-2 on the OLL (orange + green): her four
  steps are complete, she wins on turn 3, which is round 2.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "cube"
TWO = ["Ana", "Bruno"]
THREE = ["Ana", "Bruno", "Chloé"]
FOUR = ["Ana", "Bruno", "Chloé", "Dmitri"]
MARKS = ("XCROSS", "1st F2L", "2nd F2L", "3rd F2L", "OLL", "T-PERM")


def play(card: str, **fields: Any) -> dict[str, Any]:
    return {"play": card, **fields}


def log(turns: list, *, deal: dict | None = None, players: list | None = None,
        deck: dict | None = None, claimed: dict | None = None, title: str) -> dict[str, Any]:
    out: dict[str, Any] = {"format": "popreplay/1", "game": "cube", "mode": "standard",
                           "players": players or TWO, "meta": {"title": title}}
    if deck is not None:
        out["deck"] = deck
    out["deal"] = deal or copy.deepcopy(BASE_DEAL)
    out["turns"] = turns
    if claimed is not None:
        out["claimed"] = claimed
    return out


BASE_DEAL = {"Ana": ["CROSS-1", "WHITE-1", "F2L-1", "RED-1", "BLUE-1"],
             "Bruno": ["CROSS-2", "YELLOW-1", "OLL-1", "PB-1", "POP-1"]}


def t1() -> dict[str, Any]:
    return {"player": "Ana", "draw": ["OLL-2", "ORANGE-1"], "lay": ["CROSS-1", "F2L-1", "OLL-2"],
            "events": [play("WHITE-1", step="CROSS"), play("RED-1", step="F2L"),
                       play("BLUE-1", step="F2L"), play("ORANGE-1", step="OLL")]}


def t2() -> dict[str, Any]:
    return {"player": "Bruno", "draw": ["GREEN-1", "PLL-1"], "lay": ["CROSS-2", "OLL-1", "PLL-1"],
            "events": [play("YELLOW-1", step="CROSS"), play("GREEN-1", step="OLL"),
                       play("PB-1", step="OLL")]}


def t3() -> dict[str, Any]:
    return {"player": "Ana", "draw": ["PLL-2", "GREEN-2", "YELLOW-2", "PB-2", "DNF-1"],
            "lay": ["PLL-2"],
            "events": [play("YELLOW-2", step="PLL"), play("GREEN-2", step="OLL")]}


def base() -> list[dict[str, Any]]:
    return [t1(), t2(), t3()]


def illegal(code: str, path: str, round_: int | None = None, turn: int | None = None) -> dict:
    return {"status": "illegal", "code": code, "path": path, "round": round_, "turn": turn}


def outcome(status: str, **facts: Any) -> dict:
    return {"status": status, "outcome": facts}


CASES: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {}


def case(name: str, the_log: dict, expect: dict) -> None:
    CASES[name] = (the_log, expect)


# --- legal games ----------------------------------------------------------------------------------

case("win-by-steps", log(base(), claimed={"winners": ["Ana"], "won_by": "steps", "turn": 3},
                         title="Ana completes her four steps on turn 3"),
     outcome("complete", winners=["Ana"], won_by="steps", turn=3, round=2,
             completed={"Ana": 4, "Bruno": 1}, claims_match=True))

case("claims-differ",
     log(base(), claimed={"winners": ["Bruno"], "turn": 3, "completed": {"Bruno": 2}},
         title="The claim names the wrong winner and Bruno's count"),
     outcome("complete", winners=["Ana"], claims_match=False,
             differences=["/winners", "/completed/Bruno"]))

case("incomplete", log([t1(), t2()], title="The log stops after two turns"),
     outcome("incomplete", winners=None, won_by=None, turn=None, round=None,
             completed={"Ana": 2, "Bruno": 1}))

FMC_DECK = {"fmc": {"XCROSS": ["WR-1"], "1st F2L": ["PB-2"], "2nd F2L": ["PB-3"],
                    "3rd F2L": ["DNF-2"], "OLL": ["ONE-HAND-1"], "T-PERM": ["SCRAMBLE-1"]}}
FMC_SHOW = ["WR-1", "PB-2", "PB-3", "DNF-2", "ONE-HAND-1", "SCRAMBLE-1"]
case("win-by-fmc",
     log([{"player": "Ana", "draw": ["SCRAMBLE-1", "RED-1"], "events": [{"show": FMC_SHOW}]}],
         deck=FMC_DECK,
         deal={"Ana": ["WR-1", "PB-2", "PB-3", "DNF-2", "ONE-HAND-1"],
               "Bruno": [None, None, None, None, None]},
         claimed={"winners": ["Ana"], "won_by": "fmc"},
         title="Ana draws the Scramble and shows the six F.M.C. cards in order"),
     outcome("complete", winners=["Ana"], won_by="fmc", turn=1, round=1,
             completed={"Ana": 0, "Bruno": 0}, claims_match=True))

# Bruno pops Ana's F2L (he has none: it goes to his table, bare) and her OLL (he has OLL-1: OLL-2
# goes to the right discard); RED-1, BLUE-1 and ORANGE-1 go back to Ana's hand.
POP_T2 = {"player": "Bruno", "draw": ["POP-2", "PLL-1"], "lay": ["CROSS-2", "OLL-1", "PLL-1"],
          "events": [play("POP-1", step="F2L"), play("POP-2", target="Ana", step="OLL")]}
case("pop-sends-colours-back",
     log([t1(), POP_T2, {"player": "Ana", "draw": ["F2L-2", "GREEN-1"], "lay": ["F2L-2"],
                         "events": [play("ORANGE-1", step="F2L"), play("GREEN-1", step="F2L")]}],
         claimed={"steps": {"Ana": {"F2L": {"card": "F2L-2", "colours": ["ORANGE-1", "GREEN-1"]},
                                    "OLL": None},
                            "Bruno": {"F2L": {"card": "F2L-1", "colours": []}}}},
         title="Pop: the colours go back to Ana, who lays a new F2L and colours it again"),
     outcome("incomplete", winners=None, completed={"Ana": 2, "Bruno": 0}, claims_match=True,
             steps_of={"Ana": {"CROSS": ["WHITE-1"], "F2L": ["ORANGE-1", "GREEN-1"],
                               "OLL": None, "PLL": None},
                       "Bruno": {"CROSS": [], "F2L": [], "OLL": [], "PLL": []}}))

# Turn 3 Ana holds RED-1 BLUE-1 ORANGE-1 (3 cards): she draws 2, F2L-2 and GREEN-1.

case("corner-twist",
     log([t1(), {"player": "Bruno", "draw": ["CORNER-TWIST-1", "PLL-1"],
                 "lay": ["CROSS-2", "OLL-1", "PLL-1"],
                 "events": [play("CORNER-TWIST-1", step="F2L", take=["RED-1"]),
                            play("RED-1", step="OLL")]}],
         title="Corner Twist takes RED-1 off Ana's F2L; Bruno puts it on his OLL"),
     outcome("incomplete", completed={"Ana": 1, "Bruno": 0},
             steps_of={"Ana": {"CROSS": ["WHITE-1"], "F2L": ["BLUE-1"], "OLL": ["ORANGE-1"],
                               "PLL": None},
                       "Bruno": {"CROSS": [], "F2L": None, "OLL": ["RED-1"], "PLL": []}}))

# Ana protects her F2L with PB-2; Bruno's DNF discards it, then his Pop takes the F2L.
DNF_T1 = {"player": "Ana", "draw": ["OLL-2", "PB-2"], "lay": ["CROSS-1", "F2L-1", "OLL-2"],
          "events": [play("WHITE-1", step="CROSS"), play("RED-1", step="F2L"),
                     play("BLUE-1", step="F2L"), play("PB-2", step="F2L")]}
case("dnf-then-pop",
     log([DNF_T1, {"player": "Bruno", "draw": ["DNF-1", "WR-1"], "lay": ["CROSS-2", "OLL-1"],
                   "events": [play("YELLOW-1", step="CROSS"), play("WR-1", step="CROSS"),
                              play("DNF-1", target="Ana", step="F2L"),
                              play("POP-1", target="Ana", step="F2L"), play("PB-1", step="F2L")]}],
         claimed={"steps": {"Ana": {"F2L": None},
                            "Bruno": {"CROSS": {"timer": "WR-1"},
                                      "F2L": {"card": "F2L-1", "timer": "PB-1"}}}},
         title="A DNF removes Ana's Personal Best, then Pop takes her F2L"),
     outcome("incomplete", completed={"Ana": 1, "Bruno": 1}, claims_match=True))

# Ana keeps RED-1 BLUE-1 ORANGE-1. Bruno (dealt a Scramble instead of PB-1) takes ORANGE-1 with One
# Hand, RED-1 with Blind Solve, and swaps YELLOW-1 for BLUE-1 with Scramble; he completes his OLL
# with ORANGE-1 and RED-1. Turn 3: Ana holds 1 card (YELLOW-1), so she draws up to 5: 4 cards.
STEAL_DEAL = {"Ana": ["CROSS-1", "WHITE-1", "F2L-1", "RED-1", "BLUE-1"],
              "Bruno": ["CROSS-2", "YELLOW-1", "OLL-1", "SCRAMBLE-1", "POP-1"]}
case("one-hand-blind-solve-scramble",
     log([{"player": "Ana", "draw": ["ORANGE-1", "PB-2"], "lay": ["CROSS-1", "F2L-1"],
           "events": [play("WHITE-1", step="CROSS"), play("PB-2", step="F2L")]},
          {"player": "Bruno", "draw": ["ONE-HAND-1", "BLIND-SOLVE-1"], "lay": ["CROSS-2", "OLL-1"],
           "events": [play("ONE-HAND-1", take=["ORANGE-1"]),
                      play("BLIND-SOLVE-1", target="Ana", take=["RED-1"]),
                      play("SCRAMBLE-1", give="YELLOW-1", take=["BLUE-1"]),
                      play("ORANGE-1", step="OLL"), play("RED-1", step="OLL")]},
          {"player": "Ana", "draw": [None, None, None, None], "events": []}],
         deal=STEAL_DEAL, claimed={"completed": {"Ana": 1, "Bruno": 1}},
         title="One Hand, Blind Solve and Scramble empty Ana's colours"),
     outcome("incomplete", completed={"Ana": 1, "Bruno": 1}, claims_match=True,
             steps_of={"Ana": {"CROSS": ["WHITE-1"], "F2L": [], "OLL": None, "PLL": None},
                       "Bruno": {"CROSS": [], "F2L": None, "OLL": ["ORANGE-1", "RED-1"],
                                 "PLL": None}}))

# One Hand on an empty hand takes nothing; Blind Solve and Scramble on a hand without COLOUR cards
# are spent anyway (Bruno keeps the yellow he offered and puts it on his CROSS). Ana still wins.
SPENT_DEAL = {"Ana": ["CROSS-1", "WHITE-1", "F2L-1", "RED-1", "BLUE-1"],
              "Bruno": ["CROSS-2", "YELLOW-1", "OLL-1", "ONE-HAND-1", "POP-1"]}
case("spent-anyway",
     log([t1(), {"player": "Bruno", "draw": ["BLIND-SOLVE-1", "SCRAMBLE-1"],
                 "lay": ["CROSS-2", "OLL-1"],
                 "events": [play("ONE-HAND-1", take=[]), play("BLIND-SOLVE-1", take=[]),
                            play("SCRAMBLE-1", give="YELLOW-1", take=[]),
                            play("YELLOW-1", step="CROSS")]},
          {**t3(), "draw": ["PLL-2", "YELLOW-2", "PB-2", "DNF-1", "GREEN-2"]}],
         deal=SPENT_DEAL, claimed={"completed": {"Bruno": 1}},
         title="One Hand, Blind Solve and Scramble find nothing to take"),
     outcome("complete", winners=["Ana"], won_by="steps", turn=3,
             completed={"Ana": 4, "Bruno": 1}, claims_match=True))

case("skip-card",
     log([{"player": "Ana", "draw": ["SKIP-1", "OLL-2"], "lay": ["CROSS-1", "F2L-1", "OLL-2"],
           "events": [play("SKIP-1", step="F2L"), play("RED-1", step="OLL"),
                      play("BLUE-1", step="OLL")]}],
         title="The skip card completes the F2L alone; red and blue complete the OLL"),
     outcome("incomplete", completed={"Ana": 2, "Bruno": 0},
             steps_of={"Ana": {"CROSS": [], "F2L": ["SKIP-1"], "OLL": ["RED-1", "BLUE-1"],
                               "PLL": None}}))

# Three players: the 60-card deck has RED-2, PB-7...; every targeted card names its target.
case("three-players",
     log([{"player": "Ana", "draw": ["RED-2", "ONE-HAND-4"], "lay": ["CROSS-1", "F2L-1"],
           "events": [play("WHITE-1", step="CROSS"), play("RED-2", step="F2L"),
                      play("ONE-HAND-4", target="Chloé", take=["GREEN-3"]),
                      play("GREEN-3", step="F2L")]},
          {"player": "Bruno", "draw": [None, None], "lay": ["CROSS-2", "CROSS-3"]},
          {"player": "Chloé", "draw": [None, None], "lay": ["F2L-3"],
           "events": [play("PB-7", step="F2L")]}],
         players=THREE,
         deal={"Ana": ["CROSS-1", "WHITE-1", "F2L-1", "RED-1", "BLUE-1"],
               "Bruno": ["CROSS-2", None, None, None, None],
               "Chloé": ["GREEN-3", "PB-7", None, None, None]},
         title="Three players: extra cards, and Ana's One Hand names Chloé"),
     outcome("incomplete", completed={"Ana": 2, "Bruno": 0, "Chloé": 0},
             steps_of={"Ana": {"F2L": ["RED-2", "GREEN-3"]}, "Bruno": {"CROSS": []},
                       "Chloé": {"F2L": []}}))

FMC4 = {"fmc": {"XCROSS": ["WR-1", "WR-2"], "1st F2L": ["PB-9", "PB-10"],
                "2nd F2L": ["DNF-5", "DNF-6"], "3rd F2L": ["SCRAMBLE-1", "SCRAMBLE-2"],
                "OLL": ["ONE-HAND-5", "ONE-HAND-6"], "T-PERM": ["LOOK-AHEAD-1", "LOOK-AHEAD-2"]}}
# Four players, two decks: F2L-3, PB-9, ONE-HAND-6 exist; each mark is on two cards, and Dmitri
# shows one card of each mark, from either deck.
case("four-players-fmc",
     log([{"player": "Ana", "draw": [None, None]}, {"player": "Bruno", "draw": [None, None]},
          {"player": "Chloé", "draw": [None, None]},
          {"player": "Dmitri", "draw": ["ONE-HAND-6", "LOOK-AHEAD-1"], "lay": ["F2L-3"],
           "events": [{"show": ["WR-2", "PB-9", "DNF-5", "SCRAMBLE-1", "ONE-HAND-6",
                                "LOOK-AHEAD-1"]}]}],
         players=FOUR, deck=FMC4,
         deal={"Ana": [None] * 5, "Bruno": [None] * 5, "Chloé": [None] * 5,
               "Dmitri": ["WR-2", "PB-9", "DNF-5", "SCRAMBLE-1", "F2L-3"]},
         claimed={"winners": ["Dmitri"], "won_by": "fmc", "turn": 4, "round": 1},
         title="Four players: two decks; Dmitri shows the F.M.C."),
     outcome("complete", winners=["Dmitri"], won_by="fmc", turn=4, round=1, claims_match=True,
             steps_of={"Dmitri": {"F2L": []}}))

case("hidden-cards",
     log([{"player": "Ana", "draw": [None, None], "lay": ["CROSS-1", "F2L-1", "OLL-2"],
           "events": [play("WHITE-1", step="CROSS")]},
          {"player": "Bruno", "draw": [None, None], "lay": ["CROSS-2"],
           "events": [play("ONE-HAND-2", take=[None])]},
          {"player": "Ana", "draw": [None, None, None], "events": [play("RED-1", step="F2L")]}],
         deal={"Ana": ["CROSS-1", "WHITE-1", "F2L-1", "RED-1", "BLUE-1"],
               "Bruno": [None, None, None, None, None]},
         title="An observer's log: Bruno's cards stay hidden; his One Hand takes an unseen card"),
     outcome("incomplete", completed={"Ana": 1, "Bruno": 0},
             steps_of={"Ana": {"CROSS": ["WHITE-1"], "F2L": ["RED-1"], "OLL": []}}))


def _hand_limit_turns() -> list[dict[str, Any]]:
    """Fifteen turns of hidden draws empty the 30-card pile. Each player lays the four CUBE cards
    on the first turn (a hand keeps no CUBE card after its lay, and the pile cannot hide all
    eight: a log where nobody ever lays one is impossible). The hands stay at 10 by discarding
    named cards to the right. Turn 16 reshuffles the 12 discards and draws two of them."""
    discards = iter(["PB-1", "PB-2", "PB-3", "PB-4", "PB-5", "DNF-1", "DNF-2", "DNF-3", "WR-1",
                     "POP-1", "POP-2", "POP-3"])
    sizes = {"Ana": 5, "Bruno": 5}
    turns = []
    for t in range(15):
        name = TWO[t % 2]
        sizes[name] += 2
        turn: dict[str, Any] = {"player": name, "draw": [None, None]}
        if t < 2:
            turn["lay"] = [f"{step}-{t + 1}" for step in ("CROSS", "F2L", "OLL", "PLL")]
            sizes[name] -= 4
        if sizes[name] > 10:
            turn["events"] = [{"discard": [next(discards) for _ in range(sizes[name] - 10)]}]
            sizes[name] = 10
        turns.append(turn)
    turns.append({"player": "Bruno", "draw": ["PB-3", None],
                  "events": [play("LOOK-AHEAD-1", draw=["POP-2", None]),
                             {"discard": ["POP-2", "PB-3", "SKIP-1"]}]})
    return turns


case("reshuffle-and-hand-limit",
     log(_hand_limit_turns(), deal={"Ana": [None] * 5, "Bruno": [None] * 5},
         title="The pile runs out; the discards are reshuffled"),
     outcome("incomplete", winners=None, completed={"Ana": 0, "Bruno": 0}))

_NOT_IN_PILE = _hand_limit_turns()
_NOT_IN_PILE[15] = {"player": "Bruno", "draw": ["WHITE-1", None]}
case("reshuffle-draw-not-in-pile",
     log(_NOT_IN_PILE, deal={"Ana": [None] * 5, "Bruno": [None] * 5},
         title="After the reshuffle the pile holds only the 12 discards; no WHITE is one"),
     illegal("duplicate-card", "/turns/15/draw/0", 8, 16))

# --- the issue-14 rulings -------------------------------------------------------------------------


def _kinds_only(value: Any) -> Any:
    """The same log with every card written by its kind alone (``"ORANGE-1"`` -> ``"ORANGE"``)."""
    if isinstance(value, str) and value.rsplit("-", 1)[-1].isdigit():
        return value.rsplit("-", 1)[0]
    if isinstance(value, list):
        return [_kinds_only(v) for v in value]
    if isinstance(value, dict):
        return {k: (v if k in ("player", "target", "step") else _kinds_only(v))
                for k, v in value.items()}
    return value


# The base game with every card written by its kind alone: each card takes the first free copy of
# its kind, so the steps show exactly the ids of the base game (Bruno's CROSS is CROSS-2, the green
# Ana draws after Bruno's is GREEN-2).
case("kind-alone-ids",
     log(_kinds_only(base()), deal=_kinds_only(BASE_DEAL),
         claimed={"winners": ["Ana"], "won_by": "steps", "turn": 3},
         title="Every card written by its kind alone"),
     outcome("complete", winners=["Ana"], won_by="steps", turn=3, round=2, claims_match=True,
             steps_of={"Ana": {"CROSS": ["WHITE-1"], "F2L": ["RED-1", "BLUE-1"],
                               "OLL": ["ORANGE-1", "GREEN-2"], "PLL": ["YELLOW-2"]},
                       "Bruno": {"CROSS": ["YELLOW-1"], "OLL": ["GREEN-1"], "PLL": []}}))

# Bruno draws "ORANGE-1" while ORANGE-1 is on Ana's OLL: the other orange (ORANGE-2) is free, so
# the id is satisfied by it; he puts it on his OLL (written "ORANGE-1" again: it is the orange he
# holds).
_COPY_T2 = {"player": "Bruno", "draw": ["ORANGE-1", "PLL-1"], "lay": ["CROSS-2", "OLL-1", "PLL-1"],
            "events": [play("YELLOW-1", step="CROSS"), play("ORANGE-1", step="OLL"),
                       play("PB-1", step="OLL")]}
case("numbered-id-another-copy",
     log([t1(), _COPY_T2, {**t3(), "draw": ["PLL-2", "GREEN-1", "YELLOW-2", "PB-2", "DNF-1"],
                           "events": [play("YELLOW-2", step="PLL"), play("GREEN-1", step="OLL")]}],
         title="Bruno writes ORANGE-1, which is on Ana's table: the free ORANGE-2 is meant"),
     outcome("complete", winners=["Ana"], won_by="steps", turn=3, round=2,
             steps_of={"Ana": {"OLL": ["ORANGE-1", "GREEN-1"]},
                       "Bruno": {"OLL": ["ORANGE-2"]}}))

# The six F.M.C. marks are on WR-1, PB-2, PB-3, DNF-2, ONE-HAND-1, SCRAMBLE-1. Ana is dealt five of
# them; Bruno is dealt four Personal Bests written "PB", but only three unmarked ones exist (PB-1,
# PB-4, PB-5): a kind alone never means a marked copy.
case("fmc-marked-told-apart",
     log([], deck=FMC_DECK,
         deal={"Ana": ["WR-1", "PB-2", "PB-3", "DNF-2", "ONE-HAND-1"],
               "Bruno": ["PB", "PB", "PB", "PB", None]},
         title="Marked copies are told apart: a fourth unmarked PB does not exist"),
     illegal("duplicate-card", "/deal/Bruno/3"))

# Marks on WR-1, PB-2, PB-3, DNF-2, ONE-HAND-1 and YELLOW-2. Bruno puts YELLOW-2 on his CROSS
# (turn 2) holding the five others; on turn 3 Ana's Pop sends YELLOW-2 back to his hand (her own
# CROSS is there: CROSS-2 goes right), and Bruno shows the F.M.C. in Ana's turn.
FMC_YELLOW = {"fmc": {**FMC_DECK["fmc"], "T-PERM": ["YELLOW-2"]}}
case("fmc-out-of-turn",
     log([{"player": "Ana", "draw": ["OLL-2", "ORANGE-1"], "lay": ["CROSS-1", "F2L-1", "OLL-2"],
           "events": [play("WHITE-1", step="CROSS"), play("RED-1", step="F2L"),
                      play("BLUE-1", step="F2L")]},
          {"player": "Bruno", "draw": ["DNF-2", "ONE-HAND-1"], "lay": ["CROSS-2"],
           "events": [play("YELLOW-2", step="CROSS")]},
          {"player": "Ana", "draw": ["POP-1", "GREEN-1", "PB-1", "DNF-1"],
           "events": [play("POP-1", step="CROSS"),
                      {"show": ["WR-1", "PB-2", "PB-3", "DNF-2", "ONE-HAND-1", "YELLOW-2"],
                       "player": "Bruno"}]}],
         deck=FMC_YELLOW,
         deal={"Ana": ["CROSS-1", "WHITE-1", "F2L-1", "RED-1", "BLUE-1"],
               "Bruno": ["CROSS-2", "YELLOW-2", "WR-1", "PB-2", "PB-3"]},
         claimed={"winners": ["Bruno"], "won_by": "fmc", "turn": 3, "round": 2},
         title="Bruno shows the F.M.C. in Ana's turn, as soon as Pop gives him the sixth card"),
     outcome("complete", winners=["Bruno"], won_by="fmc", turn=3, round=2, claims_match=True,
             completed={"Ana": 2, "Bruno": 0}))

# Ana's hand is known (RED-1, BLUE-1, ORANGE-1 after turn 1); Bruno's One Hand takes one of them
# unseen and he puts RED-1 on his F2L. RED has one copy: Ana, who holds the two others, cannot
# also play it.
_ONE_HAND_T2 = {"player": "Bruno", "draw": [None, None], "lay": ["CROSS-2", "F2L-2"],
                "events": [play("ONE-HAND-1", take=[None]), play("RED-1", step="F2L")]}
_ONE_HAND_T1 = {**t1(), "events": [play("WHITE-1", step="CROSS")]}
case("one-hand-revealed-twice",
     log([_ONE_HAND_T1, _ONE_HAND_T2,
          {"player": "Ana", "draw": [None, None, None], "events": [play("RED-1", step="F2L")]}],
         deal={"Ana": BASE_DEAL["Ana"], "Bruno": [None] * 5},
         title="One Hand takes an unseen card from a known hand; the red is shown twice"),
     illegal("not-in-hand", "/turns/2/events/0/play", 2, 3))

# The same One Hand without Bruno's reveal: RED-1 is certainly in Ana's or Bruno's hand, so the
# draw pile cannot give it.
case("one-hand-then-drawn",
     log([_ONE_HAND_T1, {**_ONE_HAND_T2, "events": [play("ONE-HAND-1", take=[None])]},
          {"player": "Ana", "draw": ["RED-1", None, None]}],
         deal={"Ana": BASE_DEAL["Ana"], "Bruno": [None] * 5},
         title="A card One Hand moved unseen is still in a hand: the pile cannot give it"),
     illegal("duplicate-card", "/turns/2/draw/0", 2, 3))

# After the reshuffle of turn 16 the pile is exactly the 12 discards (Personal Bests, DNFs, the
# World Record, Pops). Bruno draws two of them unseen; Ana then names a YELLOW from the pile, which
# holds none.
_UNSEEN = _hand_limit_turns()[:15]
_UNSEEN += [{"player": "Bruno", "draw": [None, None], "events": [{"discard": ["SKIP-1", "WHITE"]}]},
            {"player": "Ana", "draw": ["YELLOW-1", None]}]
case("reshuffle-unseen-draw-impossible",
     log(_UNSEEN, deal={"Ana": [None] * 5, "Bruno": [None] * 5},
         title="After a reshuffle and an unseen draw, the pile still holds only the discards"),
     illegal("duplicate-card", "/turns/16/draw/0", 9, 17))

# The base game between Chloé and Bruno; the claim writes her name decomposed (e + U+0301), and
# the winners twice: names compare after NFC, winners as a set.
_NFD = "Chloe\u0301"
_CHLOE = json.loads(json.dumps(log(base(), title="")).replace('"Ana"', '"Chloé"'))
case("nfd-claimed-names",
     log(_CHLOE["turns"], players=["Chloé", "Bruno"], deal=_CHLOE["deal"],
         claimed={"winners": [_NFD], "completed": {_NFD: 4, "Bruno": 1}},
         title="The claim writes Chloé decomposed (NFD)"),
     outcome("complete", winners=["Chloé"], claims_match=True))

case("claimed-winners-as-set",
     log(base(), claimed={"winners": ["Ana", "Ana"], "won_by": "steps"},
         title="The winners claimed twice over: compared as a set"),
     outcome("complete", winners=["Ana"], claims_match=True))


# --- violations -----------------------------------------------------------------------------------

case("bad-player-count", log([], players=["Ana"], deal={"Ana": [None] * 5},
                             title="One player"),
     illegal("bad-player-count", "/players"))

case("bad-player-name", log([], players=["Ana", "Ana"], title="The same name twice"),
     illegal("bad-player-count", "/players/1"))

case("bad-deck", log(base(), deck={"fmc": {**FMC_DECK["fmc"], "OLL": ["ONE-HAND-1", "OLL-1"]}},
                     title="Two cards for one F.M.C. mark in a one-deck game"),
     illegal("bad-deck", "/deck/fmc/OLL"))

case("unknown-card", log(base(), deal={**BASE_DEAL, "Ana": ["CROSS-1", "WHITE-1", "F2L-1",
                                                             "RED-2", "BLUE-1"]},
                         title="RED-2 only exists with three players"),
     illegal("unknown-card", "/deal/Ana/3"))

case("duplicate-card", log([{**t1(), "draw": ["OLL-2", "RED-1"]}],
                           title="Ana draws RED-1, the only red card, which she was dealt"),
     illegal("duplicate-card", "/turns/0/draw/1", 1, 1))

case("unknown-player", log(base(), deal={**BASE_DEAL, "Carla": [None] * 5},
                           title="The deal names Carla, who does not play"),
     illegal("unknown-player", "/deal/Carla"))

case("bad-deal", log(base(), deal={**BASE_DEAL, "Bruno": [None] * 4},
                     title="Bruno is dealt 4 cards"),
     illegal("bad-deal", "/deal/Bruno"))

case("after-game-end", log([*base(), {"player": "Bruno", "draw": [None, None]}],
                           title="A turn after Ana's win"),
     illegal("after-game-end", "/turns/3", 2, 4))

case("after-game-end-event",
     log([t1(), t2(), {**t3(), "events": [*t3()["events"], play("PB-2", step="PLL")]}],
         title="Ana plays on after completing her four steps"),
     illegal("after-game-end", "/turns/2/events/2", 2, 3))

case("wrong-player", log([t2()], title="Bruno plays the first turn"),
     illegal("wrong-player", "/turns/0/player", 1, 1))

case("bad-draw", log([t1(), t2(), {**t3(), "draw": ["PLL-2", "GREEN-2"]}],
                     title="Ana holds no card but draws only 2"),
     illegal("bad-draw", "/turns/2/draw", 2, 3))

case("bad-lay", log([{**t1(), "lay": ["CROSS-1", "OLL-2"]}],
                    title="Ana keeps her F2L in hand"),
     illegal("bad-lay", "/turns/0/lay", 1, 1))

case("not-in-hand", log([{**t1(), "events": [play("YELLOW-1", step="CROSS")]}],
                        title="Ana plays Bruno's yellow"),
     illegal("not-in-hand", "/turns/0/events/0/play", 1, 1))

case("missing-target",
     log([{"player": "Ana", "draw": ["ONE-HAND-4", None], "lay": ["CROSS-1", "F2L-1"],
           "events": [play("ONE-HAND-4", take=[None])]}], players=THREE,
         deal={"Ana": ["CROSS-1", "WHITE-1", "F2L-1", "RED-1", "BLUE-1"],
               "Bruno": [None] * 5, "Chloé": [None] * 5},
         title="With three players One Hand must name its target"),
     illegal("missing-target", "/turns/0/events/0", 1, 1))

case("bad-target-protected",
     log([t1(), t2(),
          {**t3(), "draw": ["PLL-2", "GREEN-2", "YELLOW-2", "PB-2", "POP-2"],
           "events": [play("POP-2", step="OLL")]}],
         title="Pop cannot take Bruno's OLL: a Personal Best protects it"),
     illegal("bad-target", "/turns/2/events/0/step", 2, 3))

case("bad-target-world-record",
     log([{**t1(), "draw": ["OLL-2", "WR-1"],
           "events": [play("WHITE-1", step="CROSS"), play("WR-1", step="CROSS")]},
          {**t2(), "draw": ["DNF-1", "PLL-1"],
           "events": [play("DNF-1", step="CROSS")]}],
         title="A DNF cannot remove a World Record"),
     illegal("bad-target", "/turns/1/events/0/step", 1, 2))

case("bad-target-corner-twist-cross",
     log([t1(), {**t2(), "draw": ["CORNER-TWIST-1", "PLL-1"],
                 "events": [play("CORNER-TWIST-1", step="CROSS", take=["WHITE-1"])]}],
         title="Corner Twist does not work on the CROSS"),
     illegal("bad-target", "/turns/1/events/0/step", 1, 2))

case("bad-target-self",
     log([t1(), {**t2(), "events": [play("POP-1", target="Bruno", step="OLL")]}],
         title="Bruno targets himself"),
     illegal("bad-target", "/turns/1/events/0/target", 1, 2))

case("bad-colour-f2l",
     log([{**t1(), "events": [play("RED-1", step="F2L"), play("ORANGE-1", step="F2L")]}],
         title="Red and orange do not pair on the F2L"),
     illegal("bad-colour", "/turns/0/events/1/step", 1, 1))

case("bad-colour-pll",
     log([t1(), t2(), {**t3(), "draw": ["PLL-2", "GREEN-2", "WHITE-2", "PB-2", "DNF-1"],
                       "events": [play("WHITE-2", step="PLL")]}],
         title="Ana's PLL must be yellow, opposite her white CROSS"),
     illegal("bad-colour", "/turns/2/events/0/step", 2, 3))

case("bad-colour-pll-before-cross",
     log([{**t1(), "draw": ["PLL-2", "YELLOW-2"], "lay": ["CROSS-1", "F2L-1", "PLL-2"],
           "events": [play("YELLOW-2", step="PLL")]}],
         title="The PLL cannot take a colour while the CROSS has none"),
     illegal("bad-colour", "/turns/0/events/0/step", 1, 1))

case("bad-timer",
     log([t1(), {**t2(), "events": [play("PB-1", step="F2L")]}],
         title="Bruno has no F2L to protect"),
     illegal("bad-timer", "/turns/1/events/0/step", 1, 2))

case("bad-take",
     log([t1(), {**t2(), "draw": ["ONE-HAND-1", "PLL-1"],
                 "events": [play("ONE-HAND-1", take=["RED-1"])]}],
         title="One Hand takes a card from Ana's hand, and RED-1 is on her table"),
     illegal("bad-take", "/turns/1/events/0/take/0", 1, 2))

case("bad-take-blind-solve",
     log([{**t1(), "events": [play("WHITE-1", step="CROSS")]},
          {**t2(), "draw": ["BLIND-SOLVE-1", "PLL-1"],
           "events": [play("BLIND-SOLVE-1", take=[])]}],
         title="Blind Solve finds nothing, though Ana holds RED-1"),
     illegal("bad-take", "/turns/1/events/0", 1, 2))

case("bad-play", log([{**t1(), "draw": ["OLL-2", "LOOK-AHEAD-1"],
                       "events": [play("LOOK-AHEAD-1", draw=["PLL-2", "ORANGE-1"]),
                                  play("PLL-2", step="PLL")]}],
                     title="A CUBE card drawn by Look Ahead waits for the next turn"),
     illegal("bad-play", "/turns/0/events/1/play", 1, 1))

case("bad-play-field", log([{**t1(), "events": [play("WHITE-1")]}],
                           title="A COLOUR card needs its step"),
     illegal("bad-play", "/turns/0/events/0", 1, 1))

case("bad-fmc-undeclared", log([{**t1(), "events": [{"show": FMC_SHOW}]}],
                               title="No F.M.C. marks declared"),
     illegal("bad-fmc", "/turns/0/events/0/show", 1, 1))

case("bad-fmc-order",
     log([{"player": "Ana", "draw": ["SCRAMBLE-1", "RED-1"],
           "events": [{"show": ["PB-2", "WR-1", "PB-3", "DNF-2", "ONE-HAND-1", "SCRAMBLE-1"]}]}],
         deck=FMC_DECK, deal={"Ana": ["WR-1", "PB-2", "PB-3", "DNF-2", "ONE-HAND-1"],
                              "Bruno": [None] * 5},
         title="The F.M.C. cards are shown out of order"),
     illegal("bad-fmc", "/turns/0/events/0/show/0", 1, 1))

# Issue 26: a shown card Ana does not hold is not-in-hand, whatever its mark: YELLOW-1 carries no
# mark (bad-fmc before engine 0.2.2), and Ana's hand is known (she drew RED-1 and GREEN-1).
case("fmc-show-not-held",
     log([{"player": "Ana", "draw": ["RED-1", "GREEN-1"],
           "events": [{"show": [*FMC_SHOW[:5], "YELLOW-1"]}]}],
         deck=FMC_DECK, deal={"Ana": ["WR-1", "PB-2", "PB-3", "DNF-2", "ONE-HAND-1"],
                              "Bruno": [None] * 5},
         title="A shown card the player does not hold is not in hand, whatever its mark"),
     illegal("not-in-hand", "/turns/0/events/0/show/5", 1, 1))

# Issue 26: an F.M.C. show may follow the end-of-turn surplus discard. Ana holds five marked
# cards, draws 2 unseen cards a turn (7, 9), then the Scramble and one more (11): she discards
# the surplus (RED-1, one of her unseen cards) and shows the six at once (bad-discard before
# engine 0.2.2: "the discard is the turn's last event").
case("fmc-after-surplus-discard",
     log([{"player": "Ana", "draw": [None, None]}, {"player": "Bruno", "draw": [None, None]},
          {"player": "Ana", "draw": [None, None]}, {"player": "Bruno", "draw": [None, None]},
          {"player": "Ana", "draw": ["SCRAMBLE-1", None],
           "events": [{"discard": ["RED-1"]}, {"show": FMC_SHOW}]}],
         deck=FMC_DECK, deal={"Ana": ["WR-1", "PB-2", "PB-3", "DNF-2", "ONE-HAND-1"],
                              "Bruno": [None] * 5},
         claimed={"winners": ["Ana"], "won_by": "fmc", "turn": 5, "round": 3},
         title="Ana discards her surplus, then shows the F.M.C."),
     outcome("complete", winners=["Ana"], won_by="fmc", turn=5, round=3,
             completed={"Ana": 0, "Bruno": 0}, claims_match=True))

# A discard must still end the turn's play: a card played after it is bad-discard.
case("bad-discard-not-last",
     log([{"player": "Ana", "draw": [None, None]}, {"player": "Bruno", "draw": [None, None]},
          {"player": "Ana", "draw": [None, None]}, {"player": "Bruno", "draw": [None, None]},
          {"player": "Ana", "draw": ["SCRAMBLE-1", None],
           "events": [{"discard": ["RED-1"]}, play("ONE-HAND-1", take=[None])]}],
         deck=FMC_DECK, deal={"Ana": ["WR-1", "PB-2", "PB-3", "DNF-2", "ONE-HAND-1"],
                              "Bruno": [None] * 5},
         title="Ana discards her surplus, then plays a card"),
     illegal("bad-discard", "/turns/4/events/0/discard", 3, 5))

case("bad-discard", log([{**t1(), "events": [{"discard": ["WHITE-1"]}]}],
                        title="Ana discards with only 4 cards"),
     illegal("bad-discard", "/turns/0/events/0/discard", 1, 1))

case("hand-limit",
     log([{"player": "Ana", "draw": [None, None]}, {"player": "Bruno", "draw": [None, None]},
          {"player": "Ana", "draw": [None, None]}, {"player": "Bruno", "draw": [None, None]},
          {"player": "Ana", "draw": [None, None]}],
         deal={"Ana": [None] * 5, "Bruno": [None] * 5},
         title="Ana ends turn 5 with 11 cards"),
     illegal("hand-limit", "/turns/4", 3, 5))


# --- writing --------------------------------------------------------------------------------------


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2) + "\n"


def main() -> None:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for name, (the_log, _) in CASES.items():
        (GOLDEN / f"{name}.log.json").write_text(dumps(the_log), "utf-8")
    print(f"wrote {len(CASES)} cube golden logs to {GOLDEN}")


if __name__ == "__main__":
    main()
