"""``popreplay bench``: how fast logs are replayed, validated, stored and served (issue 6).

It prints figures and asserts nothing. Every figure in ``docs/performance.md`` is one this command
prints. Times are the best of ``--repeat`` runs; engine and validation figures are CPU time of this
one process (``time.process_time``), so that other processes on a busy machine count less; the
HTTP figures are wall-clock times seen by a client on the loopback interface.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Callable, Iterator

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


# --- the service -------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def running_server(folder: Path, *, workers: int,
                   env: dict[str, str] | None = None) -> Iterator[tuple[int, subprocess.Popen]]:
    """``popreplay serve`` on a fresh SQLite file in ``folder``; yields the port and process."""
    port = free_port()
    environment = {**os.environ, "POPREPLAY_DATABASE_URL": f"sqlite:///{folder / 'bench.sqlite'}",
                   **(env or {})}
    process = subprocess.Popen(
        [sys.executable, "-m", "popreplay", "serve", "--port", str(port),
         "--workers", str(workers)],
        env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                raise click.ClickException("popreplay serve stopped before answering")
            try:
                status, _ = request(port, "GET", "/api/v1/healthz")
                if status == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise click.ClickException("popreplay serve did not answer within 60 s")
            time.sleep(0.2)
        yield port, process
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def request(port: int, method: str, path: str, body: bytes | None = None,
            connection: http.client.HTTPConnection | None = None,
            headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    own = connection is None
    conn = connection or http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        if own:
            conn.close()


def load(port: int, jobs: list[tuple[str, str, bytes | None]], clients: int,
         time_limit: float, headers: dict[str, str] | None = None,
         keep: Callable[[bytes], Any] | None = None,
         ) -> tuple[list[float], list[tuple[int, Any]], float]:
    """Send ``jobs`` from ``clients`` threads (keep-alive connections), each with ``headers``;
    latencies in seconds, the answers in job order as ``(status, body)`` (or ``keep(body)``), and
    the wall time.
    (``keep=len`` for loads of replays: a thousand of them are 150 MiB.)"""
    latencies: list[float] = [0.0] * len(jobs)
    answers: list[tuple[int, Any]] = [(0, None)] * len(jobs)
    lock = threading.Lock()
    position = iter(range(len(jobs)))
    stop_at = time.monotonic() + time_limit
    done = [0]

    def client() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        try:
            while time.monotonic() < stop_at:
                with lock:
                    index = next(position, None)
                if index is None:
                    return
                method, path, body = jobs[index]
                sent = {**(headers or {}),
                        **({"Content-Type": "application/json"} if body is not None else {})}
                start = time.perf_counter()
                status, answer = request(port, method, path, body, conn, sent)
                latencies[index] = time.perf_counter() - start
                answers[index] = (status, answer if keep is None else keep(answer))
                with lock:
                    done[0] += 1
        finally:
            conn.close()

    threads = [threading.Thread(target=client) for _ in range(clients)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - start
    count = done[0]
    return latencies[:count], answers[:count], wall


def _figures(latencies: list[float], wall: float) -> dict[str, float]:
    return {"requests": len(latencies), "per_s": len(latencies) / wall if wall else 0.0,
            "p50_ms": percentile(latencies, 0.50) * 1e3,
            "p99_ms": percentile(latencies, 0.99) * 1e3,
            "max_ms": max(latencies, default=float("nan")) * 1e3}


def bench_http(count: int, *, workers: int, clients: int, fetches: int, hot: int,
               time_limit: float) -> dict[str, dict[str, float]]:
    """``POST /api/v1/games`` of ``count`` new battles, then their replays: each game's first
    fetch (the replay is computed), ``fetches`` more fetches spread over all of them, and
    ``fetches`` spread over the first ``hot`` games only (few enough for a replay cache)."""
    texts = [json.dumps(log).encode() for log in battle_logs(count, seed=30_000)]
    with tempfile.TemporaryDirectory(prefix="popreplay-bench-") as folder, \
            running_server(Path(folder), workers=workers) as (port, _):
        load(port, [("POST", "/api/v1/games", json.dumps(POP.simulate(
            mode="battle", players=5, seed=-1)).encode())], 1, time_limit)  # warm up
        posts, answers, wall = load(port, [("POST", "/api/v1/games", t) for t in texts],
                                    clients, time_limit)
        slugs = [json.loads(body)["slug"] for status, body in answers if status == 201]
        stored = len(slugs)
        paths = [f"/api/v1/games/{slug}/replay" for slug in slugs]
        first, _, first_wall = load(port, [("GET", p, None) for p in paths], clients, time_limit,
                                    keep=len)
        again = [("GET", paths[k % len(paths)], None) for k in range(fetches)] if paths else []
        fetched, _, fetched_wall = load(port, again, clients, time_limit, keep=len)
        few = paths[:max(1, hot)]
        hot_jobs = [("GET", few[k % len(few)], None) for k in range(fetches)] if paths else []
        load(port, hot_jobs[:len(few) * workers * 2], clients, time_limit,  # warm every worker
             keep=len)
        hotted, _, hot_wall = load(port, hot_jobs, clients, time_limit, keep=len)
        gzipped, answers, gzip_wall = load(port, hot_jobs, clients, time_limit,
                                           headers={"Accept-Encoding": "gzip"},  # as browsers do
                                           keep=len)
        sizes = [size for status, size in answers if status == 200]
        slugs_few = [path.split("/")[-2] for path in few]  # /api/v1/games/<slug>/replay
        pages = [("GET", f"/r/{slugs_few[k % len(few)]}", None) for k in range(fetches)]
        pages = pages if paths else []
        paged, _, page_wall = load(port, pages, clients, time_limit, keep=len)
    return {"post": {**_figures(posts, wall), "stored": stored},
            "replay_first": {**_figures(first, first_wall),
                             "over_50ms": sum(latency > 0.05 for latency in first)},
            "replay": _figures(fetched, fetched_wall),
            "replay_hot": {**_figures(hotted, hot_wall), "games": len(few)},
            "replay_gzip": {**_figures(gzipped, gzip_wall), "games": len(few),
                            "kib": statistics.fmean(sizes) / 1024 if sizes else 0.0},
            "page": {**_figures(paged, page_wall), "games": len(few)}}


# --- the recorder ------------------------------------------------------------------------------


def late_draft(players: int, seed: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """A battle with hands, cut before its very last turn, and that last turn (the entry)."""
    log = POP.simulate(mode="battle", players=players, seed=seed)
    log.pop("claimed", None)
    last = log["rounds"][-1]
    draft = {**log, "rounds": log["rounds"][:-1] + [{**last, "turns": last["turns"][:-1]}]}
    return draft, last["turns"][-1]


def recorder_taps(players: int, seed: int = 1) -> dict[str, int]:
    """Taps to record a battle with hands, counted from the engine's plans: one per card of a
    deal and per revealed card; the entry is kept at its last tap (no confirmation)."""
    log = POP.simulate(mode="battle", players=players, seed=seed)
    draft = {**{k: v for k, v in log.items() if k not in ("rounds", "claimed")}, "rounds": []}
    deal = POP.choices(draft, pending={"entry": "round", "hands": True})["next"]["round"]["total"]
    turn = sum(len(cards) for cards in log["rounds"][0]["turns"][0]["plays"].values())
    turn += len(log["rounds"][0]["turns"][0].get("chief") or ())
    turns = sum(len(r["turns"]) for r in log["rounds"])
    return {"deal": deal, "turn": turn, "confirmations": 0,
            "game": deal * len(log["rounds"]) + turn * turns}


def bench_recorder(samples: int, *, time_limit: float) -> dict[str, dict[str, float]]:
    """Late in a game, one client as a phone is: the check of an entry (``POST /record/check``,
    steps "tail"), the same draft through ``POST /validate?steps=true`` (what the page would
    fetch without the dedicated endpoint), and the check after one tap (``steps: "none"``)."""
    out: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory(prefix="popreplay-bench-") as folder, \
            running_server(Path(folder), workers=1) as (port, _):
        for players in (3, 5):
            jobs_check, jobs_validate, jobs_tap = [], [], []
            for k in range(samples):
                draft, turn = late_draft(players, seed=40_000 + k)
                last = draft["rounds"][-1]
                entry = {**draft, "rounds": draft["rounds"][:-1]
                         + [{**last, "turns": last["turns"] + [turn]}]}
                jobs_check.append(("POST", "/api/v1/record/check",
                                   json.dumps({"log": entry}).encode()))
                jobs_validate.append(("POST", "/api/v1/validate?steps=true",
                                      json.dumps(entry).encode()))
                first = turn["plays"][draft["players"][0]]
                jobs_tap.append(("POST", "/api/v1/record/check", json.dumps(
                    {"log": draft, "pending": {"entry": "turn", "cards": first},
                     "steps": "none"}).encode()))
            for name, jobs in (("check", jobs_check), ("validate", jobs_validate),
                               ("tap", jobs_tap)):
                load(port, jobs[:5], 1, time_limit, keep=len)  # warm up
                latencies, answers, wall = load(port, jobs, 1, time_limit, keep=len)
                sizes = [size for status, size in answers if status == 200]
                out[f"{name}_{players}"] = {
                    **_figures(latencies, wall), "p95_ms": percentile(latencies, 0.95) * 1e3,
                    "kib": statistics.fmean(sizes) / 1024 if sizes else 0.0}
    return out


CHROMIUM = "/usr/bin/chromium"

# In the page: tap a card key, then wait until the frame shows the checked draft with one more
# entry (the table redrawn); the time between the two, by the page's own clock.
_TAP_AND_WAIT = """([card, entries]) => new Promise((resolve) => {
  const root = document.getElementById('recorder');
  const start = performance.now();
  const seen = new MutationObserver(() => {
    if (root.dataset.entries === String(entries) && root.dataset.checked === '1') {
      seen.disconnect();
      requestAnimationFrame(() => resolve(performance.now() - start));
    }
  });
  seen.observe(root, {attributes: true, subtree: false});
  document.querySelector(`.pr-entry [data-card='${card}']`).click();
})"""


def bench_recorder_browser(samples: int, *, players: int = 3) -> dict[str, float] | None:
    """Entry to checked table on screen, in Debian's Chromium at 390×844 against ``popreplay
    serve``: a draft one turn before the end of a battle with hands; its last turn is tapped,
    the time from the last tap to the redrawn table is taken, the entry undone, ``samples`` times.
    ``None`` when Playwright or Chromium is missing."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    if not os.path.exists(CHROMIUM):
        return None
    draft, turn = late_draft(players, seed=41_000)
    names = draft["players"]
    cards = [c for name in names for c in turn["plays"][name]] + list(turn.get("chief") or ())
    setup = {"game": "pop", "mode": "battle", "players": names, "options": {},
             "recordHands": True, "meta": {}}
    state = {"setup": setup, "draft": draft, "undo": [], "redo": [], "saved": None,
             "branchOf": None, "checked": False}
    times: list[float] = []
    with tempfile.TemporaryDirectory(prefix="popreplay-bench-") as folder, \
            running_server(Path(folder), workers=1) as (port, _), sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                              args=["--no-sandbox", "--disable-gpu"])
        page = chromium.new_page(viewport={"width": 390, "height": 844})
        url = f"http://127.0.0.1:{port}/record"
        page.goto(url)
        page.evaluate("s => localStorage.setItem('popreplay-recorder', s)", json.dumps(state))
        page.goto(url)
        page.wait_for_selector("#recorder[data-entries='0'][data-checked='1']")
        for _ in range(samples + 2):
            for k, card in enumerate(cards[:-1]):
                page.wait_for_selector(f".pr-entry[data-ready='1'][data-filled='{k}']")
                page.click(f".pr-entry [data-card='{card}']")
            page.wait_for_selector(f".pr-entry[data-ready='1'][data-filled='{len(cards) - 1}']")
            times.append(page.evaluate(_TAP_AND_WAIT, [cards[-1], 1]) / 1e3)
            page.click("[data-act=undo]")
            page.wait_for_selector("#recorder[data-entries='0'][data-checked='1']")
        chromium.close()
    times = times[2:]  # the first two warm the page and the server
    return {"samples": len(times), "p50_ms": percentile(times, 0.50) * 1e3,
            "p95_ms": percentile(times, 0.95) * 1e3, "max_ms": max(times) * 1e3}


# --- streaming ---------------------------------------------------------------------------------


def write_stream(path: Path, lines: int, distinct: int = 1000) -> None:
    """An NDJSON file of ``lines`` logs: ``distinct`` simulated 3-player coop games, repeated."""
    logs = [json.dumps(POP.simulate(mode="coop", players=3, seed=k), ensure_ascii=False)
            for k in range(min(lines, distinct))]
    with path.open("w", encoding="utf-8") as out:
        for k in range(lines):
            out.write(logs[k % len(logs)] + "\n")


# Runs a command and prints its peak RSS (KiB). The bench process starts it rather than the command
# itself: Linux counts the resident memory a child had before ``exec`` (a copy of its parent) in its
# ``ru_maxrss``, so a child of the big bench process would report the bench's own peak. This small
# process is the parent instead.
_PEAK_RSS = ("import os, subprocess, sys\n"
             "child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)\n"
             "_, status, usage = os.wait4(child.pid, 0)\n"
             "print(usage.ru_maxrss, os.waitstatus_to_exitcode(status))\n")


def cli_peak_rss(path: Path) -> tuple[float, float]:
    """``popreplay validate --ndjson FILE --json``: peak RSS (MiB) and logs per second."""
    start = time.perf_counter()
    report = subprocess.run(
        [sys.executable, "-c", _PEAK_RSS, sys.executable, "-m", "popreplay", "validate",
         "--ndjson", "--json", str(path)], capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    peak_kib, code = map(int, report.stdout.split())
    if code not in (0, 1):  # 1: some log is not legal (none is, in these streams)
        raise click.ClickException(f"popreplay validate --ndjson exited with {code}")
    with path.open("rb") as stream:
        lines = sum(1 for _ in stream)
    return peak_kib / 1024, lines / wall


def _worker_rss(master: int) -> float:
    """The largest peak RSS (MiB) among the server's worker processes."""
    peak = 0
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            text = status.read_text()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in text.splitlines() if ":" in line)
        if fields.get("PPid", "").strip() == str(master) and "VmHWM" in fields:
            peak = max(peak, int(fields["VmHWM"].split()[0]))
    return peak / 1024


def api_stream(path: Path, lines: int) -> dict[str, float]:
    """``POST /api/v1/validate`` with the NDJSON file streamed in and the answer read as it
    comes: worker peak RSS (MiB) before and after, answered lines per second."""
    size = path.stat().st_size
    env = {"POPREPLAY_MAX_NDJSON_BODY": str(size + 1),  # the service's limits, raised to fit
           "POPREPLAY_MAX_NDJSON_LINES": str(lines)}
    with tempfile.TemporaryDirectory(prefix="popreplay-bench-") as folder, \
            running_server(Path(folder), workers=1, env=env) as (port, process):
        before = _worker_rss(process.pid)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
        start = time.perf_counter()
        conn.putrequest("POST", "/api/v1/validate")
        conn.putheader("Content-Type", "application/x-ndjson")
        conn.putheader("Content-Length", str(size))
        conn.endheaders()

        def send() -> None:  # upload while the answer streams back, as a real client does
            with path.open("rb") as body, contextlib.suppress(OSError):
                while block := body.read(65536):
                    conn.sock.sendall(block)

        sender = threading.Thread(target=send)
        sender.start()
        response = conn.getresponse()
        answered = sum(1 for line in response if line.strip())
        sender.join()
        wall = time.perf_counter() - start
        conn.close()
        after = _worker_rss(process.pid)
    return {"lines": lines, "answered": answered, "lines_per_s": answered / wall,
            "worker_rss_before_mib": before, "worker_rss_peak_mib": after}


def bench_stream(lines: int) -> dict[str, Any]:
    rows = []
    with tempfile.TemporaryDirectory(prefix="popreplay-bench-") as folder:
        for count in sorted({max(1, lines // 10), lines}):
            path = Path(folder) / f"stream-{count}.ndjson"
            write_stream(path, count)
            rss, rate = cli_peak_rss(path)
            row = {"lines": count, "mib": path.stat().st_size / 2**20, "cli_peak_rss_mib": rss,
                   "cli_lines_per_s": rate}
            row.update({f"api_{k}": v for k, v in api_stream(path, count).items()})
            rows.append(row)
    return {"rows": rows}


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
@click.option("--http", "http_count", default=300, show_default=True,
              help="Games to POST through popreplay serve (0: skip the service).")
@click.option("--workers", default=2, show_default=True)
@click.option("--clients", default=4, show_default=True, help="Concurrent client connections.")
@click.option("--fetches", default=1000, show_default=True, help="Replay fetches after the first.")
@click.option("--hot", default=50, show_default=True,
              help="Games the hot replay fetches are spread over.")
@click.option("--time-limit", default=120.0, show_default=True,
              help="Seconds at most for each HTTP load (a bound, not a target).")
@click.option("--recorder", "recorder_samples", default=200, show_default=True,
              help="Late-game entries checked as the recorder does (0: skip).")
@click.option("--stream", "stream_lines", default=0, show_default=True,
              help="NDJSON lines for the streaming memory check (0: skip; e.g. 100000).")
def bench(games: int, repeat: int, growth: bool, growth_games: int, other_games: int,
          http_count: int, workers: int, clients: int, fetches: int, hot: int,
          time_limit: float, stream_lines: int, recorder_samples: int) -> None:
    """Measure replay, validation, the API and streaming; print figures (no pass/fail)."""
    info = machine()
    click.echo(f"machine: {info['cpus']} CPUs, {info['cpu']}, Python {info['python']}, "
               f"load {info['load']}")
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
    for row in bench_other_games(other_games, repeat):
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
    if http_count:
        web = bench_http(http_count, workers=workers, clients=clients, fetches=fetches,
                         hot=hot, time_limit=time_limit)
        post, first, again = web["post"], web["replay_first"], web["replay"]
        click.echo(f"POST /games ({workers} workers, SQLite, {clients} clients): "
                   f"{post['per_s']:.0f} requests/s, p50 {post['p50_ms']:.1f} ms, "
                   f"p99 {post['p99_ms']:.1f} ms ({post['requests']} requests, "
                   f"{post['stored']} stored)")
        click.echo(f"GET /games/<id>/replay, first fetch: {first['per_s']:.0f} requests/s, "
                   f"p50 {first['p50_ms']:.1f} ms, p99 {first['p99_ms']:.1f} ms, "
                   f"max {first['max_ms']:.1f} ms, {first['over_50ms']} over 50 ms "
                   f"({first['requests']} requests)")
        click.echo(f"GET /games/<id>/replay, again over all {post['stored']} games: "
                   f"{again['per_s']:.0f} requests/s, p50 {again['p50_ms']:.1f} ms, "
                   f"p99 {again['p99_ms']:.1f} ms ({again['requests']} requests)")
        warm = web["replay_hot"]
        click.echo(f"GET /games/<id>/replay, again over {warm['games']} games: "
                   f"{warm['per_s']:.0f} requests/s, p50 {warm['p50_ms']:.1f} ms, "
                   f"p99 {warm['p99_ms']:.1f} ms ({warm['requests']} requests)")
        packed = web["replay_gzip"]
        click.echo(f"GET /games/<id>/replay, again over {packed['games']} games, "
                   f"Accept-Encoding: gzip: {packed['per_s']:.0f} requests/s, "
                   f"p50 {packed['p50_ms']:.1f} ms, p99 {packed['p99_ms']:.1f} ms "
                   f"({packed['requests']} requests, {packed['kib']:.1f} KiB each)")
        page = web["page"]
        click.echo(f"GET /r/<slug> (the share page), over {page['games']} games: "
                   f"{page['per_s']:.0f} requests/s, p50 {page['p50_ms']:.1f} ms, "
                   f"p99 {page['p99_ms']:.1f} ms ({page['requests']} requests)")
    if recorder_samples:
        for players in (3, 5):
            taps = recorder_taps(players)
            click.echo(f"recorder taps, {players}-player battle with hands: {taps['turn']} a turn "
                       f"(one per revealed card, {taps['confirmations']} confirmations), "
                       f"{taps['deal']} a deal, {taps['game']} a whole game")
        rec = bench_recorder(recorder_samples, time_limit=time_limit)
        for players in (3, 5):
            for name, what in (("check", "POST /record/check, an entry before the last turn"),
                               ("validate", "POST /validate?steps=true, the same draft"),
                               ("tap", "POST /record/check, a tap (steps none, pending)")):
                row = rec[f"{name}_{players}"]
                click.echo(f"{what} ({players}-player battle, 1 client): p50 "
                           f"{row['p50_ms']:.1f} ms, p95 {row['p95_ms']:.1f} ms, max "
                           f"{row['max_ms']:.1f} ms, {row['kib']:.1f} KiB ({row['requests']} "
                           "requests)")
        screen = bench_recorder_browser(max(5, recorder_samples // 10))
        if screen is None:
            click.echo("recorder in Chromium: skipped (no Playwright or no /usr/bin/chromium)")
        else:
            click.echo(f"recorder in Chromium (390x844), last tap of the last turn of a 3-player "
                       f"battle to the checked table on screen: p50 {screen['p50_ms']:.1f} ms, "
                       f"p95 {screen['p95_ms']:.1f} ms, max {screen['max_ms']:.1f} ms "
                       f"({screen['samples']} entries)")
    if stream_lines:
        for row in bench_stream(stream_lines)["rows"]:
            click.echo(f"stream of {row['lines']} lines ({row['mib']:.0f} MiB): "
                       f"popreplay validate --ndjson peak RSS {row['cli_peak_rss_mib']:.0f} MiB "
                       f"({row['cli_lines_per_s']:.0f} lines/s); POST /validate worker peak RSS "
                       f"{row['api_worker_rss_peak_mib']:.0f} MiB (at start "
                       f"{row['api_worker_rss_before_mib']:.0f} MiB; {row['api_answered']} "
                       f"lines answered, {row['api_lines_per_s']:.0f} lines/s)")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    click.echo(f"bench process peak RSS: {peak:.0f} MiB")
