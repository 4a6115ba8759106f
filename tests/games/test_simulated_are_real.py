"""The simulators play real deals (issue 26, second conformance review): every game
``popreplay simulate`` writes is legal and complete by the engine, claims included, for every seed
and every player count — and the simulator itself never fails (it drives the engine, so an engine
that refuses a possible game makes it crash, as Bloops seed 3097 with 3 players did).

Each game is checked as ``popreplay validate`` checks the NDJSON line ``popreplay simulate`` writes
for it: the same ``json.dumps`` text through ``check_text`` (parse, the compiled published schema —
marshmallow's exact path only for a log the schema rejects; the two agree on every verdict,
``tests/logformat/test_schema_agreement.py`` — then the replay). Until issue 34 it was ``check_log``
on a JSON round-trip: marshmallow on every log, 40–60 % of the check's CPU, for the same verdict.

Fast tier: a few hundred seeds per game (200 for each of Bloops' four player counts; the other
games spread 100 over their modes and player counts). Slow tier (``-m slow``): seeds 0..N-1 for
each game, mode and player count (SLOW): Bloops 10,000 a player count, POP! 400 (9 cases), cube
1,000 (3 cases), slap 600 (10 cases).

How big (issue 34, sixth round): ``scripts/sweepcover`` runs this sweep's own work under branch
coverage of the engine and counts the arcs reached as the seeds go. The rule: each game's size is
twice the first mark at which every one of its cases had reached all its arcs, at least 100, at
most the former size. POP! had 2,000 a case and reached its last new arc between seeds 101 and
200 (battle, two players): 400. Bloops' last new arcs came between 3,001 and 5,000 (two and five
players), cube's between 301 and 500, slap's between 201 and 300: they keep their sizes.
docs/architecture.md has the table. When an engine or a simulator changes much, run the script
again and set SLOW by the same rule.
"""

from __future__ import annotations

import json

import pytest

from popreplay.checking import check_text
from popreplay.engine import GAMES

CASES = {name: [(mode, players) for mode in game.modes
                for players in range(game.player_counts[mode][0], game.player_counts[mode][1] + 1)]
         for name, game in sorted(GAMES.items())}
FAST = {"bloops": 200, "cube": 100, "pop": 100, "slap": 100}  # bloops: per player count
SLOW = {"bloops": 10_000, "cube": 1_000, "pop": 400, "slap": 600}  # per mode and player count
# (scripts/sweepcover: twice the mark by which the engine's arcs stopped growing, at most as before)


def failures(name: str, mode: str, players: int, seeds) -> list[tuple[int, str]]:
    """The seeds whose simulated game is not legal and complete (or whose simulation fails)."""
    game, bad = GAMES[name], []
    for seed in seeds:
        try:
            log = game.simulate(mode=mode, players=players, seed=seed)
        except Exception as error:  # noqa: BLE001 - every failure is a finding, named by its seed
            bad.append((seed, f"simulate: {error}"))
            continue
        # What ``popreplay simulate`` writes (its NDJSON line) checked as ``popreplay validate``
        # checks it: the text, then the compiled published schema, then the replay.
        result = check_text(json.dumps(log, ensure_ascii=False, separators=(",", ":")))
        claims = result["claims"]
        if result["errors"] or result["status"] != "complete" or not (claims and claims["match"]):
            bad.append((seed, f"{result['status']}: {result['errors'][:1]} {claims}"))
    return bad


def test_bloops_seed_3097_with_3_players_is_a_real_game():
    assert failures("bloops", "classic", 3, [3097]) == []


@pytest.mark.parametrize("players", [players for _, players in CASES["bloops"]])
def test_bloops_simulated_games_are_real(players):
    assert failures("bloops", "classic", players, range(FAST["bloops"])) == []


@pytest.mark.parametrize("name", ["cube", "pop", "slap"])
def test_simulated_games_are_real(name):
    cases = CASES[name]
    bad = []
    for seed in range(FAST[name]):  # seed k plays the k-th case in turn
        mode, players = cases[seed % len(cases)]
        bad += [(mode, players, *found) for found in failures(name, mode, players, [seed])]
    assert bad == []


@pytest.mark.slow
@pytest.mark.parametrize(("name", "mode", "players"),
                         [(name, mode, players) for name, cases in CASES.items()
                          for mode, players in cases])
def test_simulated_games_are_real_slow(name, mode, players):
    assert failures(name, mode, players, range(SLOW[name])) == []
