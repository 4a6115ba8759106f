"""The slap golden logs, each with the values worked out by hand from the rules (docs/rules/slap.md).

``tests/engine/test_golden.py`` compares every whole result file with the engine; this file pins the
hand-checked facts inside them, so that a regenerated result file cannot quietly change them.
Deals: 2 players 51 + 51, 3 players 34 each, 4 players 26, 26, 25, 25 (unless the log deals).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from popreplay.checking import check_text

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "slap"


def _outcome(cards, *, central, folies, flips, slaps, winners=None, ended_by=None,
             eliminated=()):
    return {"winners": winners, "ended_by": ended_by, "cards": cards,
            "eliminated": list(eliminated), "central_pile": central, "folies_pile": folies,
            "flips": flips, "slaps": slaps}


A, B, C, D = "Alice", "Bruno", "Chloé", "Dmitri"

# case -> (status, outcome or None, first error as (code, path, round, turn) or None)
EXPECTED = {
    # A flips 1, B flips 1, A wins both: 51-1+2 = 52, then flips green-9 in pile 2: 51.
    "same-value-late-slap": ("incomplete", _outcome(
        {A: 51, B: 50}, central=1, folies=0, flips=3, slaps=2), None),
    # red 9, 12, 10 in a row; Bruno takes 3 (34-1+3 = 36), then flips: 35.
    "three-of-a-colour": ("incomplete", _outcome(
        {A: 33, B: 35, C: 33}, central=1, folies=0, flips=4, slaps=1), None),
    # shadow 3 on shadow 12: Chloé takes Alice's and Bruno's top cards (32, 32, 36); the
    # central pile stays; the 3's challenge is interrupted, Chloé flips next: 35, central 3.
    "shadow-on-shadow": ("incomplete", _outcome(
        {A: 32, B: 32, C: 35}, central=3, folies=0, flips=3, slaps=1), None),
    # Bruno's slap before any flip pays 2 (49); rainbow 3 on shadow 8: Alice wins the Folies
    # pile (51-1+2 = 52), interrupts the 3's challenge and flips again: 51; Bruno 48.
    "rainbow-on-shadow-folies": ("incomplete", _outcome(
        {A: 51, B: 48}, central=3, folies=0, flips=3, slaps=2), None),
    # Alice slaps the central pile on a rainbow on shadow: wrong pile, pays 2 (50 -> 48);
    # Bruno slaps Folies first: wins those 2 cards (50 -> 52).
    "wrong-pile": ("incomplete", _outcome(
        {A: 48, B: 52}, central=2, folies=0, flips=2, slaps=2), None),
    # Bruno and Alice slap the rainbow, Chloé does not: she pays 2 when the next card is flipped.
    "lone-rainbow-one-missed": ("incomplete", _outcome(
        {A: 33, B: 33, C: 32}, central=2, folies=2, flips=2, slaps=2), None),
    # Both slap: Alice, last, pays 2 (51-1-2 = 48).
    "lone-rainbow-all-slapped": ("incomplete", _outcome(
        {A: 48, B: 50}, central=2, folies=2, flips=2, slaps=2), None),
    # Bruno slaps a lone shadow: pays 2 (49), then flips (48).
    "shadow-trap": ("incomplete", _outcome(
        {A: 50, B: 48}, central=2, folies=2, flips=2, slaps=1), None),
    # shadow 9 on red 9: the trap is absolute, no same value; Alice's slap pays 2 (51-1-2 = 48).
    "trap-absolute-same-value": ("incomplete", _outcome(
        {A: 48, B: 50}, central=2, folies=2, flips=2, slaps=1), None),
    # the 7s are missed; a lone shadow covers them: Bruno's claim is a slap on the trap, pays 2
    # (51-1-2 = 48); Alice flipped 2 (49).
    "trap-absolute-claim": ("incomplete", _outcome(
        {A: 49, B: 48}, central=3, folies=2, flips=3, slaps=1), None),
    # Alice's red 2 challenges Bruno; his first card is a lone rainbow: Chloé's slap, the first,
    # interrupts the challenge (nobody takes the pile) and Chloé, after Bruno, flips next; all
    # slapped, Bruno last: he pays 2 at Chloé's flip (34-1-2 = 31); then Alice flips (32).
    "lone-rainbow-interrupts-challenge": ("incomplete", _outcome(
        {A: 32, B: 31, C: 33}, central=4, folies=2, flips=4, slaps=3), None),
    # Bruno then Chloé pay their 34 cards (17 wrong slaps each); Alice's lone rainbow: Bruno,
    # without cards, slaps first: he keeps his last chance, Chloé is eliminated; Alice slaps too
    # (the last of the two players in the game): she pays 2 at her next flip (34-1-1-2 = 30).
    "lone-rainbow-last-chance-kept": ("incomplete", _outcome(
        {A: 30, B: 0, C: 0}, central=2, folies=70, flips=2, slaps=36, eliminated=[C]), None),
    # Bruno pays his 51 cards (26 wrong slaps); Alice's lone rainbow, Alice slaps first: it is
    # Bruno's next valid occasion and not his slap: eliminated, Alice wins with 50.
    "lone-rainbow-last-chance-lost": ("complete", _outcome(
        {A: 50, B: 0}, central=1, folies=51, flips=1, slaps=27, winners=[A],
        ended_by="elimination", eliminated=[B]), None),
    # Alice's red 4 challenges Bruno; his blue 4 is a same value; the hands land together and
    # Bruno's, the lowest, is listed first: he wins 2 (51-1+2 = 52).
    "simultaneous-slap-lowest-hand": ("incomplete", _outcome(
        {A: 50, B: 52}, central=0, folies=0, flips=2, slaps=2), None),
    "wrong-slap-no-condition": ("incomplete", _outcome(
        {A: 48, B: 50}, central=2, folies=2, flips=2, slaps=1), None),
    # blue 7 on red 7 missed; green 10 covers it; Bruno claims: 3 cards (50+3 = 53), flips: 52.
    "missed-slap-claimed": ("incomplete", _outcome(
        {A: 49, B: 52}, central=1, folies=0, flips=4, slaps=1), None),
    # two cards cover the missed 7s: Alice's slap is wrong (49 -> 47).
    "missed-slap-too-late": ("incomplete", _outcome(
        {A: 47, B: 49}, central=4, folies=2, flips=4, slaps=1), None),
    # 3 -> Bruno 15, 5 -> Chloé 8, 14, shadow 2 -> Dmitri 6, 11: Chloé takes the 8 cards
    # (25-3+8 = 30) and flips next (29).
    "challenge-chained": ("incomplete", _outcome(
        {A: 25, B: 24, C: 29, D: 23}, central=1, folies=0, flips=9, slaps=0), None),
    # green 7, blue 7 during Alice's challenge of 4: Chloé takes 3 (37), flips next (36).
    "challenge-interrupted": ("incomplete", _outcome(
        {A: 33, B: 32, C: 36}, central=1, folies=0, flips=4, slaps=1), None),
    # Alice's 2 answered by 9 and 12: she takes 3 (51-1+3 = 53), flips (52); Bruno 49.
    "challenge-won-timed": ("complete", _outcome(
        {A: 52, B: 49}, central=1, folies=0, flips=4, slaps=0, winners=[A],
        ended_by="time"), None),
    # 26 wrong slaps pay Bruno's 51 cards (25 x 2 + 1); Alice flips twice (Bruno is skipped)
    # and wins the 7s: Bruno's last chance is gone.
    "elimination-complete": ("complete", _outcome(
        {A: 51, B: 0}, central=0, folies=51, flips=2, slaps=27, winners=[A],
        ended_by="elimination", eliminated=[B]), None),
    # Bruno slaps the 7s first: back in with 2 cards, flips the red 7 (the pile's first card).
    "comeback": ("incomplete", _outcome(
        {A: 48, B: 1}, central=2, folies=51, flips=4, slaps=27), None),
    "timed-claims-differ": ("complete", _outcome(
        {A: 50, B: 52}, central=0, folies=0, flips=2, slaps=1, winners=[B],
        ended_by="time"), None),
    "timed-tie-shared": ("complete", _outcome(
        {A: 50, B: 50}, central=2, folies=0, flips=2, slaps=0, winners=[A, B],
        ended_by="time"), None),
    # Alice's first two cards are known (red 7, yellow 3); green 1 makes her flip 1; her 3
    # then sets a challenge for Bruno.
    "known-deal-counts": ("incomplete", _outcome(
        {A: 49, B: 50}, central=3, folies=0, flips=3, slaps=0), None),
    # Alice pays 50 (25 wrong slaps), flips her last card, red 3: Bruno's 9, 10, 11 answer it;
    # she takes the 4 cards as a set (back in with 4) and flips yellow 11, then red 3: any order
    # (51-50-1+4-2 = 2); Bruno 51-3-1 = 47; central yellow 11, red 12, red 3.
    "won-set-any-order": ("incomplete", _outcome(
        {A: 2, B: 47}, central=3, folies=50, flips=7, slaps=25), None),
    # the same set: yellow 11 twice (the second is no longer in it).
    "violation-won-set-not-a-member": ("illegal", None,
                                       ("duplicate-card", "/events/31/card", 2, 3)),
    # the same set: green 8 was never seen, so it is not one of the four won cards.
    "violation-won-set-never-seen": ("illegal", None, ("wrong-card", "/events/29/card", 2, 1)),
    # issue 26: the last card left of a won set is certain. Alice pays 50, flips her last card
    # (red 7), Bruno's blue 7: Alice wins the pair as a set, flips blue 7; Bruno flips green 9;
    # Alice's last card can only be red 7: green 9 (seen elsewhere) is `wrong-card`.
    "violation-won-set-last-card": ("illegal", None, ("wrong-card", "/events/30/card", 2, 3)),
    # issue 26: slaps after a claimed missed slap are late, never fined. Red 7, blue 7 missed,
    # green 10 covers: Bruno claims the 3 (34-1+3 = 36); Alice, Chloé, then Bruno again slap:
    # late, nothing paid; Bruno flips next (35).
    "late-slaps-after-claim": ("incomplete", _outcome(
        {A: 33, B: 35, C: 33}, central=1, folies=0, flips=4, slaps=4), None),
    # shadow 8, 9, 12 (three of a colour and shadow on shadow) missed; Alice's rainbow 10 covers
    # them (a rainbow on shadow): Bruno claims the central pile (4) and a card from Alice and
    # Chloé (33+4+2 = 39; Alice 34-2-1 = 31, Chloé 32); Chloé and Bruno slap late; Bruno flips
    # next (38).
    "late-slaps-after-claim-rainbow-on-shadow": ("incomplete", _outcome(
        {A: 31, B: 38, C: 32}, central=1, folies=0, flips=5, slaps=3), None),
    # Bruno's slap before any flip pays 2 to Folies (49); rainbow 10 on shadow 8 missed, green
    # 11 covers: Bruno claims Folies (49-1+2 = 50); Alice and Bruno slap Folies late; Bruno
    # flips next (49); Alice 51-2 = 49; central shadow 8, rainbow 10, green 11, yellow 12.
    "late-slaps-after-claim-folies": ("incomplete", _outcome(
        {A: 49, B: 49}, central=4, folies=0, flips=4, slaps=4), None),
    "violation-out-of-turn": ("illegal", None, ("out-of-turn", "/events/0/flip", 1, 1)),
    "violation-out-of-turn-challenge": ("illegal", None,
                                        ("out-of-turn", "/events/2/flip", 1, 3)),
    "violation-unknown-card": ("illegal", None, ("unknown-card", "/events/0/card", 1, 1)),
    "violation-duplicate-card": ("illegal", None, ("duplicate-card", "/events/1/card", 1, 2)),
    "violation-duplicate-card-deal": ("illegal", None,
                                      ("duplicate-card", "/deal/Alice/1", None, None)),
    "violation-wrong-card": ("illegal", None, ("wrong-card", "/events/0/card", 1, 1)),
    "violation-bad-deal-total": ("illegal", None, ("bad-deal", "/deal", None, None)),
    "violation-bad-deal-uneven": ("illegal", None, ("bad-deal", "/deal", None, None)),
    # 4 players: 26, 26, 25, 25 in player order, not 25, 26, 25, 26.
    "violation-bad-deal-order": ("illegal", None, ("bad-deal", "/deal", None, None)),
    "violation-bad-player-count": ("illegal", None, ("bad-player-count", "/players", None, None)),
    "violation-unknown-player": ("illegal", None, ("unknown-player", "/events/1/slap", 1, 1)),
    # 17 wrong slaps pay Chloé's 34 cards; Alice wins the 7s: Chloé is eliminated; her slap
    # (event 20) is refused. The slap belongs to the blue 7's window: pile 1, flip 2.
    "violation-player-out": ("illegal", None, ("player-out", "/events/20/slap", 1, 2)),
    "violation-after-game-end": ("illegal", None, ("after-game-end", "/events/2", 1, 1)),
    "violation-bad-event": ("illegal", None, ("bad-event", "/events/1", 1, 1)),
    # issue 14: 3 players, 34 each; red 7, blue 9, green 11 (no condition), time up: 33 each, a
    # three-way tie. The claims (below) are written with "Chloe" + U+0301.
    "claims-nfd-names-winners-as-a-set": ("complete", _outcome(
        {A: 33, B: 33, C: 33}, central=3, folies=0, flips=3, slaps=0, winners=[A, B, C],
        ended_by="time"), None),
    "claims-nfd-names-differ": ("complete", _outcome(
        {A: 33, B: 33, C: 33}, central=3, folies=0, flips=3, slaps=0, winners=[A, B, C],
        ended_by="time"), None),
}

CLAIMS = {
    "challenge-won-timed": {"match": True, "differences": []},
    "elimination-complete": {"match": True, "differences": []},
    "lone-rainbow-last-chance-lost": {"match": True, "differences": []},
    "timed-claims-differ": {"match": False, "differences": [
        {"field": "/winners", "claimed": [A], "computed": [B]}]},
    # winners claimed [Chloé, Bruno, Alice, Bruno] (NFD) are the set {Alice, Bruno, Chloé}
    "claims-nfd-names-winners-as-a-set": {"match": True, "differences": []},
    # claimed [Chloé, Chloé] is the set {Chloé}; Chloé 34 vs 33, at the outcome's (NFC) spelling
    "claims-nfd-names-differ": {"match": False, "differences": [
        {"field": "/winners", "claimed": ["Chloe\u0301", "Chloe\u0301"], "computed": [A, B, C]},
        {"field": f"/cards/{C}", "claimed": 34, "computed": 33}]},
}


def test_every_golden_log_has_a_hand_check():
    cases = {p.name[: -len(".log.json")] for p in GOLDEN.glob("*.log.json")}
    assert cases == set(EXPECTED)


@pytest.mark.parametrize("case", sorted(EXPECTED))
def test_golden_case(case):
    status, outcome, error = EXPECTED[case]
    result = check_text((GOLDEN / f"{case}.log.json").read_bytes())
    saved = json.loads((GOLDEN / f"{case}.result.json").read_text("utf-8"))
    assert saved == result
    assert result["status"] == status
    assert result["outcome"] == outcome
    if error is None:
        assert result["errors"] == []
    else:
        first = result["errors"][0]
        assert (first["code"], first["path"], first["round"], first["turn"]) == error
    assert result["claims"] == CLAIMS.get(case)
    if outcome is not None:
        counted = sum(outcome["cards"].values()) + outcome["central_pile"] + outcome["folies_pile"]
        assert counted == 102
