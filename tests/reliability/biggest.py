"""The work of one replay at the limits (docs/reliability.md, "Work per replay").

For each game, the heaviest legal logs we know how to build under the limits: their check (what an
upload costs), their replay with steps encoded (what a first replay fetch costs: CPU, bytes, gzip
bytes) and the peak memory of that replay. Run it on a quiet machine:

    python -m tests.reliability.biggest            # every game
    python -m tests.reliability.biggest slap       # one

slap's heaviest log is built directly at its event limit (6 players, the longest names that fit
the body limit, the whole deal known, wrong slaps to the end). Bloops, cube and POP! cannot be
padded with moves that stay legal (a deck runs out, a game ends), so their longest simulated games
are measured and scaled per step to the most steps their limits allow (printed as such).
"""

from __future__ import annotations

import gc
import gzip
import json
import sys
import time
import tracemalloc
from typing import Any

from popreplay.jsonout import compact
from popreplay.checking import check_text
from popreplay.engine.registry import GAMES
from popreplay.games.bloops import logformat as bloops_shape
from popreplay.games.cube import logformat as cube_shape
from popreplay.logformat import limits
from popreplay.games.slap import logformat as slap_shape

MAX_BODY = 1024 * 1024


def heaviest_slap(events: int = slap_shape.MAX_EVENTS) -> bytes:
    """A legal (incomplete) slap log of exactly ``events`` events, as heavy per step as we know:
    6 players (the most), the deal known card by card (every card id in every step's table), names
    as long as the body limit allows, and wrong slaps (each a step of the whole table)."""
    base = GAMES["slap"].simulate(mode="elimination", players=6, seed=1)
    prefix = base["events"][:40]
    length = limits.MAX_NAME_LENGTH
    while True:
        names = {old: f"{old}-" + "x" * (length - len(old) - 1) for old in base["players"]}
        log = {
            "format": "popreplay/1", "game": "slap", "mode": "elimination",
            "players": [names[p] for p in base["players"]],
            "deal": {names[p]: cards for p, cards in base["deal"].items()},
            "events": [{k: names.get(v, v) for k, v in e.items()} for e in prefix]
            + [{"slap": names["Bruno"]}] * (events - len(prefix)),
        }
        raw = json.dumps(log, separators=(",", ":")).encode()
        if len(raw) <= MAX_BODY or length <= 8:
            return raw
        length -= 2


def measure(raw: bytes) -> dict[str, Any]:
    """CPU times of the check and of the replay with steps encoded (best of 2, no tracing), then the
    replay's peak of Python memory (a third run, traced: tracing slows it several times)."""
    check = replay = float("inf")
    for _ in range(2):
        gc.collect()
        start = time.process_time()
        plain = check_text(raw)
        check = min(check, time.process_time() - start)
        gc.collect()
        start = time.process_time()
        result = check_text(raw, with_steps=True)
        text = compact(result).encode("utf-8")
        replay = min(replay, time.process_time() - start)
        steps = len(result.get("steps") or ())
        del result
    gc.collect()
    tracemalloc.start()
    compact(check_text(raw, with_steps=True))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return {"status": plain["status"], "log": len(raw), "check_ms": check * 1000,
            "replay_ms": replay * 1000, "steps": steps, "bytes": len(text),
            "gzip": len(gzip.compress(text, 6, mtime=0)), "peak": peak}


def longest_simulated(game: str, mode: str, players: int, seeds: int = 25) -> bytes:
    logs = [GAMES[game].simulate(mode=mode, players=players, seed=s) for s in range(seeds)]
    raws = [json.dumps(log).encode() for log in logs]
    return max(raws, key=lambda raw: len(check_text(raw, with_steps=True)["steps"]))


# The most steps each game's limits allow (an upper bound: every move is at most a few steps).
MOST_STEPS = {
    # one step a move, a deal step and the game's end
    "bloops": bloops_shape.MAX_EVENTS + 2,
    # a draw step a turn, a step an event, and lays, discards and reshuffles (measured: at most
    # about half as many again as the events in simulated games)
    "cube": cube_shape.MAX_TURNS + limits.MAX_CUBE_EVENTS * 3 // 2,
    # a turn places at most a few cards and each explosion is a step: 3 steps a turn, generously
    "pop": limits.MAX_ROUNDS * limits.MAX_TURNS * 3,
}


def line(name: str, m: dict[str, Any]) -> str:
    return (f"{name}: log {m['log']:,} B, {m['status']}, check {m['check_ms']:.0f} ms; replay "
            f"{m['steps']:,} steps, {m['replay_ms']:.0f} ms CPU, {m['bytes'] / 1e6:.1f} MB "
            f"({m['bytes'] / max(m['steps'], 1):,.0f} B/step), gzip {m['gzip'] / 1e3:,.0f} KB, "
            f"peak {m['peak'] / 1e6:.0f} MB")


def main(games: list[str]) -> None:
    if not games or "slap" in games:
        print(line(f"slap at its limit ({slap_shape.MAX_EVENTS:,} events)",
                   measure(heaviest_slap())), flush=True)
    for game, mode, players in (("bloops", "classic", 5), ("cube", "standard", 4),
                                ("pop", "battle", 5)):
        if games and game not in games:
            continue
        m = measure(longest_simulated(game, mode, players))
        print(line(f"{game} longest simulated", m), flush=True)
        scale = MOST_STEPS[game] / m["steps"]
        print(f"  scaled to {MOST_STEPS[game]:,} steps (its limits' most): about "
              f"{m['replay_ms'] * scale:,.0f} ms CPU, {m['bytes'] * scale / 1e6:.1f} MB, "
              f"peak {m['peak'] * scale / 1e6:.0f} MB", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
