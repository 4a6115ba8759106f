"""The guard's measurement (docs/reliability.md, "Work per replay"): upload the heaviest slap log
the limits allow, fetch its replay until it is served (a 503 says to come back), and probe
``/healthz`` every 20 ms meanwhile; prints each answer and the probes' figures.

    POPREPLAY_REPLAY_WAIT=0 popreplay serve --workers 1 --port 8000   # computed in the request
    popreplay serve --workers 1 --port 8000                           # beside it (the default)
    python -m tests.reliability.firstreplay http://127.0.0.1:8000
"""

from __future__ import annotations

import json
import sys
import threading
import time
import urllib.error
import urllib.request

from tests.reliability.biggest import heaviest_slap


def get(url: str) -> tuple[int, float, str | None]:
    start = time.monotonic()
    try:
        with urllib.request.urlopen(url, timeout=60) as response:
            response.read()
            return response.status, time.monotonic() - start, None
    except urllib.error.HTTPError as error:
        return error.code, time.monotonic() - start, error.headers.get("Retry-After")


def main(base: str) -> None:
    request = urllib.request.Request(f"{base}/api/v1/games", data=heaviest_slap(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        slug = json.loads(response.read())["slug"]
    probes: list[float] = []
    done = threading.Event()

    def probe() -> None:
        while not done.is_set():
            probes.append(get(f"{base}/healthz")[1])
            time.sleep(0.02)

    prober = threading.Thread(target=probe)
    prober.start()
    start, answers = time.monotonic(), []
    for _ in range(300):  # bounded: at most a minute of retries
        status, took, retry = get(f"{base}/api/v1/games/{slug}/replay")
        answers.append((status, round(took * 1000), retry))
        if status == 200:
            break
        time.sleep(0.2)
    done.set()
    prober.join()
    probes.sort()
    print(f"replay answers (status, ms, Retry-After): {answers}; served after "
          f"{(time.monotonic() - start) * 1000:.0f} ms")
    print(f"/healthz meanwhile: {len(probes)} probes, median {probes[len(probes) // 2] * 1000:.0f}"
          f" ms, worst {probes[-1] * 1000:.0f} ms")


if __name__ == "__main__":
    main(sys.argv[1])
