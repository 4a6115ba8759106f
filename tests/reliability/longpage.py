"""Finding 3's measurement: the share page of an illegal slap game as long as slap allows (5,000
events; 20,000 before the limit of "Work per replay") viewed by 8 clients at once while another
client lists games; prints the page's median and the list's worst time.

    python -m tests.reliability.longpage http://127.0.0.1:8000 --seconds 10
"""

from __future__ import annotations

import argparse
import json
import statistics
import threading
import time
import urllib.request

from popreplay.games.slap import logformat as slap_shape
from tests.reliability.test_long_replays import long_slap


def timed(url: str) -> float:
    start = time.monotonic()
    with urllib.request.urlopen(url, timeout=60) as response:
        response.read()
    return time.monotonic() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("base")
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--viewers", type=int, default=8)
    args = parser.parse_args()
    raw = long_slap(slap_shape.MAX_EVENTS - 3, illegal=True)
    request = urllib.request.Request(f"{args.base}/api/v1/games", data=raw, method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=120) as response:
        slug = json.loads(response.read())["slug"]
    page = f"{args.base}/r/{slug}"
    first = timed(page)  # computes and stores the replay
    replay = timed(f"{args.base}/api/v1/games/{slug}/replay")
    pages: list[float] = []
    lists: list[float] = []
    stop = time.monotonic() + args.seconds

    def viewer() -> None:
        while time.monotonic() < stop:
            pages.append(timed(page))

    threads = [threading.Thread(target=viewer) for _ in range(args.viewers)]
    for thread in threads:
        thread.start()
    while time.monotonic() < stop:
        lists.append(timed(f"{args.base}/api/v1/games"))
        time.sleep(0.1)
    for thread in threads:
        thread.join()
    print(f"log {len(raw)} bytes; first view {first * 1000:.0f} ms; replay fetch "
          f"{replay * 1000:.0f} ms; {args.viewers} viewers: {len(pages)} pages, median "
          f"{statistics.median(pages) * 1000:.0f} ms, worst {max(pages) * 1000:.0f} ms; "
          f"lists meanwhile: {len(lists)}, worst {max(lists) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
