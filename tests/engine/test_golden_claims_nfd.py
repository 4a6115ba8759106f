"""Issue 14: claims written in decomposed accents ("Chlo" + "e" + U+0301) and claimed winners in
another order or repeated, for slap and Bloops (POP! has ``claims-nfd-names-match``). The whole
result files are compared by ``test_golden.py``; this pins the hand-checked facts inside them
(README of each golden folder: how they were worked out)."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest

from popreplay.checking import check_text

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
NFC, NFD = "Chlo\u00e9", "Chloe\u0301"


def replay(game: str, case: str) -> tuple[dict, dict]:
    raw = (GOLDEN / game / f"{case}.log.json").read_bytes()
    log = json.loads(raw)
    assert log["players"][-1] == NFC  # the players are written composed ...
    assert NFD in json.dumps(log["claimed"], ensure_ascii=False)  # ... the claims decomposed
    assert unicodedata.normalize("NFC", NFD) == NFC and NFD != NFC
    return log, check_text(raw)


@pytest.mark.parametrize(("game", "winners", "scores"), [
    # slap, timed, 3 players dealt 34 each: one flip each (7, 9, 11 of three colours: no
    # condition), time up: 33 each, a three-way tie.
    ("slap", ["Alice", "Bruno", NFC], ("cards", {"Alice": 33, "Bruno": 33, NFC: 33})),
    # Bloops: Ana 3+1+4+1+5+9 = 23, Ben 6+6+5+3+5+2 = 27, Chloé 4×5+3 = 23; Ana's drawn 20 is
    # discarded at once: the game ends, the lowest score wins, shared by Ana and Chloé.
    ("bloops", ["Ana", NFC], ("scores", {"Ana": 23, "Ben": 27, NFC: 23})),
])
def test_decomposed_claims_in_another_order_and_repeated_match(game, winners, scores):
    log, result = replay(game, "claims-nfd-names-winners-as-a-set")
    assert result["status"] == "complete"
    assert result["outcome"]["winners"] == winners
    assert result["outcome"][scores[0]] == scores[1]
    claimed = log["claimed"]["winners"]
    assert claimed != winners and len(claimed) > len(set(claimed))  # reordered, one repeated
    assert result["claims"] == {"match": True, "differences": []}


@pytest.mark.parametrize(("game", "winners", "field", "claimed", "computed"), [
    ("slap", ["Alice", "Bruno", NFC], "/cards/" + NFC, 34, 33),
    ("bloops", ["Ana", NFC], "/scores/" + NFC, 22, 23),
])
def test_decomposed_claims_that_differ_point_at_the_outcomes_spelling(game, winners, field,
                                                                      claimed, computed):
    _, result = replay(game, "claims-nfd-names-differ")
    assert result["claims"] == {"match": False, "differences": [
        # [Chloé, Chloé] is the set {Chloé}, not the computed set: a difference, as claimed
        {"field": "/winners", "claimed": [NFD, NFD], "computed": winners},
        {"field": field, "claimed": claimed, "computed": computed},
    ]}
