"""The worst request of each endpoint that runs the engine (issue 25; docs/reliability.md,
"Budgets"), and a bounded load of them: ``clients`` clients send one endpoint's worst request
``rounds`` times each while ``/healthz`` is probed every 200 ms. Loopback only.

    popreplay serve --workers 1 --port 8000
    python -m tests.reliability.worst http://127.0.0.1:8000        # prints the figures

Each figure is the slowest answer (ms) of that endpoint under the load and the slowest probe.
"""

from __future__ import annotations

import copy
import json
import sys
import threading
import time
import urllib.error
import urllib.request
from typing import Any, Callable
from urllib.parse import urlsplit

from popreplay.engine.registry import get_game
from tests.games.cube.test_hidden import observer_view
from tests.reliability.biggest import heaviest_slap

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def heavy_cube(seeds: int = 12) -> dict[str, Any]:
    """The largest legal 4-player cube log among simulated games, seen by one player."""
    cube = get_game("cube")
    best = None
    for seed in range(seeds):
        log = observer_view(cube.simulate(mode="standard", players=4, seed=seed), "Alice")
        if cube.replay(log).status == "invalid":
            continue
        if best is None or len(json.dumps(log)) > len(json.dumps(best)):
            best = log
    assert best is not None
    best.pop("claimed", None)
    return best


def request(base: str, method: str, path: str, body: bytes | None = None,
            headers: dict[str, str] | None = None,
            timeout: float = 60) -> tuple[int, float, bytes, dict[str, str]]:
    start = time.monotonic()
    req = urllib.request.Request(base + path, data=body, method=method, headers={
        "Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as response:
            data = response.read()
            return response.status, time.monotonic() - start, data, dict(response.headers)
    except urllib.error.HTTPError as error:
        return error.code, time.monotonic() - start, error.read(), dict(error.headers)


def worst_requests(base: str) -> dict[str, Callable[[], tuple[int, float, bytes, dict]]]:
    """Stores the heavy games once; the worst request of each endpoint, as callables."""
    cube = heavy_cube()
    raw_cube = json.dumps(cube).encode()
    stored = json.loads(request(base, "POST", "/api/v1/games?visibility=unlisted",
                                raw_cube)[2])
    slap = heaviest_slap()
    slap_game = json.loads(request(base, "POST", "/api/v1/games", slap)[2])
    illegal = copy.deepcopy(cube)
    illegal["turns"][-1]["player"] = cube["players"][(len(cube["turns"])) % 4]
    bad = json.loads(request(base, "POST", "/api/v1/games", json.dumps(illegal).encode())[2])
    steps = json.loads(request(base, "GET", f"/api/v1/games/{stored['slug']}/replay")[2])
    last = len(steps.get("steps") or ()) - 2
    counter = iter(range(10**6))

    def fresh() -> dict[str, Any]:  # another title each time: nothing kept answers it
        log = copy.deepcopy(cube)
        log["meta"] = {"title": f"load {next(counter)} {time.time()}"}
        return log

    return {
        # another step each time, from the last one down (a cut is kept per log and step)
        "GET /record/cut (cube)": lambda: request(
            base, "GET", f"/api/v1/record/cut?from={stored['slug']}&step={last - next(counter)}"),
        "POST /record/check (cube)": lambda: request(
            base, "POST", "/api/v1/record/check", json.dumps({"log": fresh()}).encode()),
        "POST /validate (cube)": lambda: request(
            base, "POST", "/api/v1/validate", json.dumps(fresh()).encode()),
        "POST /games (cube)": lambda: request(
            base, "POST", "/api/v1/games", json.dumps(fresh()).encode()),
        "GET /games/{ref} (illegal cube)": lambda: request(
            base, "GET", f"/api/v1/games/{bad['slug']}"),
        "GET /games/{ref}/replay?lang=fr (slap)": lambda: request(
            base, "GET", f"/api/v1/games/{slap_game['slug']}/replay?lang=fr",
            headers={"Accept-Encoding": "gzip"}),
    }


def under_load(send: Callable[[], tuple[int, float, bytes, dict]], *, clients: int = 4,
               rounds: int = 3, base: str) -> dict[str, Any]:
    """``clients`` threads send ``rounds`` requests each (a 503 is answered, not retried, as a
    client would after Retry-After: once more after it); ``/healthz`` probed every 200 ms."""
    probes: list[float] = []
    answers: list[tuple[int, float]] = []
    done = threading.Event()

    def probe() -> None:
        while not done.is_set():
            probes.append(request(base, "GET", "/healthz", timeout=30)[1])
            time.sleep(0.2)

    def client() -> None:
        for _ in range(rounds):
            status, took, _, headers = send()
            answers.append((status, took))
            if status == 503:
                time.sleep(float(headers.get("Retry-After", "1")))

    prober = threading.Thread(target=probe)
    prober.start()
    threads = [threading.Thread(target=client) for _ in range(clients)]
    start = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    done.set()
    prober.join()
    statuses: dict[int, int] = {}
    for status, _ in answers:
        statuses[status] = statuses.get(status, 0) + 1
    return {"statuses": statuses, "worst_ms": round(max(t for _, t in answers) * 1000),
            "probes": len(probes), "worst_probe_ms": round(max(probes) * 1000),
            "probes_over_1s": sum(p > 1 for p in probes),
            "seconds": round(time.monotonic() - start, 1)}


def alone(send: Callable[[], tuple[int, float, bytes, dict]]) -> tuple[int, int, int]:
    """One request alone, twice (another one each time where answers are kept): status, ms,
    ms."""
    first = send()
    second = send()
    return first[0], round(first[1] * 1000), round(second[1] * 1000)


def main(base: str) -> None:
    if urlsplit(base).hostname not in LOOPBACK:
        raise SystemExit(f"{base} is not a loopback address")
    for name, send in worst_requests(base).items():
        print(f"{name}: alone {alone(send)}; 4 clients x 3: {under_load(send, base=base)}",
              flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
