"""The simulators play real deals (issue 26, second conformance review): every game
``popreplay simulate`` writes is legal and complete by the engine, claims included, for every seed
and every player count — and the simulator itself never fails (it drives the engine, so an engine
that refuses a possible game makes it crash, as Bloops seed 3097 with 3 players did).

Fast tier: a few hundred seeds per game (200 for each of Bloops' four player counts; the other
games spread 100 over their modes and player counts). Slow tier (``-m slow``): seeds 0..N-1 for
each game, mode and player count (SLOW). 10,000 for every case would take about 40 minutes, so N is
chosen per game from the CPU time of one simulated game plus its check (measured on 60 seeds of
every case: Bloops 2.3 ms, POP! 2.2 ms, cube 10.7 ms, slap 9.4 ms): Bloops 10,000 a player count
(~94 s), POP! 2,000 (9 cases, ~40 s), cube 1,000 (3 cases, ~32 s), slap 600 (10 cases, ~56 s):
about 3.7 minutes of one core in all.
"""

from __future__ import annotations

import json

import pytest

from popreplay.checking import check_log
from popreplay.engine import GAMES

CASES = {name: [(mode, players) for mode in game.modes
                for players in range(game.player_counts[mode][0], game.player_counts[mode][1] + 1)]
         for name, game in sorted(GAMES.items())}
FAST = {"bloops": 200, "cube": 100, "pop": 100, "slap": 100}  # bloops: per player count
SLOW = {"bloops": 10_000, "cube": 1_000, "pop": 2_000, "slap": 600}  # per mode and player count


def failures(name: str, mode: str, players: int, seeds) -> list[tuple[int, str]]:
    """The seeds whose simulated game is not legal and complete (or whose simulation fails)."""
    game, bad = GAMES[name], []
    for seed in seeds:
        try:
            log = game.simulate(mode=mode, players=players, seed=seed)
        except Exception as error:  # noqa: BLE001 - every failure is a finding, named by its seed
            bad.append((seed, f"simulate: {error}"))
            continue
        result = check_log(json.loads(json.dumps(log)))
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
