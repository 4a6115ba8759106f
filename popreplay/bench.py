"""``popreplay bench``: how fast the engine replays and validates logs (issue 6).

It prints figures and asserts nothing; ``docs/performance.md`` quotes them. Times are the best of
``--repeat`` runs, in CPU time of this one process (``time.process_time``), so that other processes
on a busy machine count less. The service's figures (HTTP through ``popreplay serve``, the
recorder in Chromium, streaming memory) are a tool of the repository, not of the installed
package: ``scripts/bench`` (which prints these figures first, with the same options).
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

import click

from .checking import check_text
from .engine import GAMES, replay_log
from .logformat import check_parsed_shape, parse_json

POP = GAMES["pop"]


# --- the logs ----------------------------------------------------------------------------------


def battle_logs(count: int, *, players: int = 5, seed: int = 0) -> list[dict[str, Any]]:
    """Simulated POP! battles (3 rounds of 8 turns), seeds ``seed`` .. ``seed + count - 1``."""
    return [POP.simulate(mode="battle", players=players, seed=seed + k) for k in range(count)]


def placements(log: dict[str, Any]) -> int:
    """Cards placed by a POP! log: every card played, the Chief's included."""
    return sum(len(turn.get("chief") or ()) + sum(len(c) for c in turn["plays"].values())
               for rnd in log["rounds"] for turn in rnd["turns"])


def explosions(log: dict[str, Any]) -> int:
    """Placements that make cards explode (from the annotated replay)."""
    steps = POP.replay(log, with_steps=True).steps or []
    return sum(1 for step in steps if step["kind"] == "place" and step["data"]["explodes"])


def cut(log: dict[str, Any], turns: int) -> dict[str, Any]:
    """The log's first ``turns`` turns (rounds of 8), without claims: an incomplete game."""
    kept_rounds = []
    left = turns
    for rnd in log["rounds"]:
        if left <= 0:
            break
        kept_rounds.append({**rnd, "turns": rnd["turns"][:left]})
        left -= len(rnd["turns"])
    short = {key: value for key, value in log.items() if key != "claimed"}
    short["rounds"] = kept_rounds
    return short


# --- timing ------------------------------------------------------------------------------------


def best_cpu(run: Callable[[], Any], repeat: int) -> float:
    """The least CPU time (seconds) of ``repeat`` runs."""
    best = float("inf")
    for _ in range(max(1, repeat)):
        start = time.process_time()
        run()
        best = min(best, time.process_time() - start)
    return max(best, 1e-9)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


# --- engine and validation ---------------------------------------------------------------------


def bench_engine(logs: list[dict[str, Any]], repeat: int) -> dict[str, float]:
    """Replay without steps (the path of validation, import and revalidation)."""
    seconds = best_cpu(lambda: [POP.replay(log) for log in logs], repeat)
    placed = sum(map(placements, logs))
    return {"games": len(logs), "games_per_s": len(logs) / seconds,
            "us_per_game": seconds / len(logs) * 1e6, "us_per_placement": seconds / placed * 1e6,
            "placements_per_game": placed / len(logs),
            "explosions_per_game": sum(map(explosions, logs)) / len(logs)}


def bench_validation(texts: list[bytes], repeat: int) -> dict[str, float]:
    """From JSON text to the result object: parse, shape check, replay, result."""
    parsed = [parse_json(text) for text in texts]
    count = len(texts)
    total = best_cpu(lambda: [check_text(text) for text in texts], repeat)
    parse = best_cpu(lambda: [parse_json(text) for text in texts], repeat)
    shape = best_cpu(lambda: [check_parsed_shape(log) for log in parsed], repeat)
    replay = best_cpu(lambda: [replay_log(log) for log in parsed], repeat)
    return {"logs": count, "logs_per_s": count / total, "us_per_log": total / count * 1e6,
            "us_parse": parse / count * 1e6, "us_shape": shape / count * 1e6,
            "us_replay": replay / count * 1e6,
            "kb_per_log": sum(map(len, texts)) / count / 1024}


def bench_other_games(count: int, repeat: int) -> list[dict[str, Any]]:
    """Each game other than POP!: ``count`` simulated 4-player games of its first mode (seeds
    0..count-1), replayed without steps and validated from JSON text."""
    rows = []
    for name, game in GAMES.items():
        if name == "pop":
            continue
        mode = game.modes[0]
        players = min(4, game.player_counts[mode][1])
        logs = [game.simulate(mode=mode, players=players, seed=seed) for seed in range(count)]
        texts = [json.dumps(log, ensure_ascii=False).encode() for log in logs]
        engine = best_cpu(lambda: [game.replay(log) for log in logs], repeat)
        valid = best_cpu(lambda: [check_text(text) for text in texts], repeat)
        rows.append({"game": name, "mode": mode, "players": players, "games": count,
                     "games_per_s": count / engine, "us_per_game": engine / count * 1e6,
                     "logs_per_s": count / valid,
                     "kb_per_log": sum(map(len, texts)) / count / 1024})
    return rows


def bench_steps(count: int, repeat: int) -> list[dict[str, Any]]:
    """Each game: ``count`` simulated games of its first mode with the most players, replayed
    with steps (the stored replay: notes and messages built from their ids, docs/performance.md
    "Issue 17"), then rendered in French outside the engine (``popreplay.i18n.localize``)."""
    from .i18n import localize

    rows = []
    for name, game in GAMES.items():
        mode = game.modes[0]
        players = game.player_counts[mode][1]
        texts = [json.dumps(game.simulate(mode=mode, players=players, seed=seed),
                            ensure_ascii=False).encode() for seed in range(count)]
        english = [check_text(text, with_steps=True) for text in texts]
        steps = best_cpu(lambda: [check_text(text, with_steps=True) for text in texts], repeat)
        french = best_cpu(lambda: [localize(result, "fr") for result in english], repeat)
        rows.append({"game": name, "mode": mode, "players": players, "games": count,
                     "ms_steps": steps / count * 1e3, "ms_french": french / count * 1e3,
                     "steps_per_log": sum(len(r["steps"]) for r in english) / count})
    return rows


def per_game_us(log: dict[str, Any], repeat: int) -> float:
    return best_cpu(lambda: POP.replay(log), repeat) * 1e6


def bench_growth(count: int, repeat: int) -> dict[str, list[dict[str, float]]]:
    """How the replay cost grows with players, turns and explosions."""
    by_players = []
    for players in (2, 3, 4, 5):
        logs = battle_logs(count, players=players, seed=10_000)
        row = bench_engine(logs, repeat)
        by_players.append({"players": players, **row})
    base = battle_logs(count, seed=20_000)
    by_turns = []
    for turns in (1, 4, 8, 16, 24):
        logs = [cut(log, turns) for log in base]
        row = bench_engine(logs, repeat)
        by_turns.append({"turns": turns, **row})
    timed = sorted((explosions(log), per_game_us(log, repeat)) for log in base)
    by_explosions = []
    bands = 4
    for band in range(bands):
        chunk = timed[band * len(timed) // bands:(band + 1) * len(timed) // bands]
        if not chunk:
            continue
        by_explosions.append({
            "explosions_from": chunk[0][0], "explosions_to": chunk[-1][0],
            "games": len(chunk), "explosions_per_game": statistics.fmean(e for e, _ in chunk),
            "us_per_game": statistics.fmean(us for _, us in chunk)})
    return {"players": by_players, "turns": by_turns, "explosions": by_explosions}


# --- the command -------------------------------------------------------------------------------


def machine() -> dict[str, str]:
    model = ""
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return {"cpus": str(os.cpu_count()), "cpu": model, "python": sys.version.split()[0],
            "load": " ".join(f"{x:.2f}" for x in os.getloadavg())}


def print_machine() -> None:
    info = machine()
    click.echo(f"machine: {info['cpus']} CPUs, {info['cpu']}, Python {info['python']}, "
               f"load {info['load']}")


def print_peak() -> None:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    click.echo(f"bench process peak RSS: {peak:.0f} MiB")


def print_engine(*, games: int, repeat: int, growth: bool, growth_games: int,
                 other_games: int) -> None:
    """The engine's and validation's figures (``popreplay bench``; ``scripts/bench`` too)."""
    logs = battle_logs(games)
    engine = bench_engine(logs, repeat)
    click.echo(f"engine: {engine['games_per_s']:.0f} games/s, {engine['us_per_game']:.0f} µs/game,"
               f" {engine['us_per_placement']:.2f} µs/placement ({engine['games']} 5-player "
               f"battles, {engine['placements_per_game']:.0f} placements and "
               f"{engine['explosions_per_game']:.1f} explosions per game; CPU time)")
    texts = [json.dumps(log, ensure_ascii=False).encode() for log in logs]
    valid = bench_validation(texts, repeat)
    click.echo(f"validation: {valid['logs_per_s']:.0f} logs/s, {valid['us_per_log']:.0f} µs/log "
               f"(parse {valid['us_parse']:.0f} + shape {valid['us_shape']:.0f} + replay and "
               f"result {valid['us_replay']:.0f} µs; {valid['kb_per_log']:.1f} KiB/log; CPU time)")
    for row in bench_other_games(other_games, repeat) if other_games else []:
        click.echo(f"{row['game']}: engine {row['games_per_s']:.0f} games/s, "
                   f"{row['us_per_game']:.0f} µs/game; validation {row['logs_per_s']:.0f} logs/s "
                   f"({row['games']} simulated {row['players']}-player {row['mode']} games, "
                   f"{row['kb_per_log']:.1f} KiB/log; CPU time)")
    for row in bench_steps(max(1, min(other_games, 8)), repeat) if other_games else []:
        click.echo(f"{row['game']}: replay with steps {row['ms_steps']:.2f} ms/log "
                   f"({row['steps_per_log']:.0f} steps), rendered in French "
                   f"{row['ms_french']:.2f} ms/log ({row['games']} simulated "
                   f"{row['players']}-player {row['mode']} games; CPU time)")
    if growth:
        table = bench_growth(growth_games, repeat)
        click.echo("growth by players (battle, 24 turns, 5 cards a turn):")
        for row in table["players"]:
            click.echo(f"  {row['players']} players: {row['us_per_game']:.0f} µs/game, "
                       f"{row['us_per_placement']:.2f} µs/placement, "
                       f"{row['explosions_per_game']:.1f} explosions/game")
        click.echo("growth by turns (5-player battle cut after N turns):")
        for row in table["turns"]:
            click.echo(f"  {row['turns']:>2} turns: {row['us_per_game']:.0f} µs/game, "
                       f"{row['us_per_placement']:.2f} µs/placement, "
                       f"{row['explosions_per_game']:.1f} explosions/game")
        click.echo("growth by explosions (5-player battles, quarters by explosions):")
        for row in table["explosions"]:
            click.echo(f"  {row['explosions_from']}–{row['explosions_to']} explosions "
                       f"(mean {row['explosions_per_game']:.1f}): {row['us_per_game']:.0f} µs/game")


@click.command()
@click.option("--games", default=300, show_default=True,
              help="Simulated 5-player battles for the engine and validation figures.")
@click.option("--repeat", default=5, show_default=True,
              help="Runs of each timing; the best counts.")
@click.option("--growth/--no-growth", default=True, show_default=True,
              help="Cost by players, turns and explosions.")
@click.option("--growth-games", default=100, show_default=True)
@click.option("--other-games", default=200, show_default=True,
              help="Simulated games of each other game (cube, slap, Bloops; 0: skip).")
def bench(games: int, repeat: int, growth: bool, growth_games: int, other_games: int) -> None:
    """Measure replay and validation; print figures (no pass/fail). The service's figures:
    scripts/bench."""
    print_machine()
    print_engine(games=games, repeat=repeat, growth=growth, growth_games=growth_games,
                 other_games=other_games)
    print_peak()
