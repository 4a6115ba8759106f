"""Two ``popreplay serve`` hosts (gevent workers) on one PostgreSQL database and one Redis: two
seats on different hosts see each other's entries live; a host killed mid-game and started again
loses nothing, and a phone that reconnects with Last-Event-ID catches up. Also the cost of idle
streams on one gevent worker (printed with -s; docs/table.md)."""

from __future__ import annotations

import http.client
import json
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest

from tests.e2e.test_serve import request
from tests.reliability.test_slow_clients import popreplay_serve
from tests.reliability.test_two_servers import shared_pg  # noqa: F401  (fixture)
from tests.tables.helpers import API, game_log, start_of
from tests.tables.test_stream import events, redis_up

pytestmark = [pytest.mark.slow, pytest.mark.postgres,
              pytest.mark.skipif(not redis_up(), reason="Redis is not reachable")]
REDIS = "redis://127.0.0.1:6379/0"


def call(base: str, method: str, path: str, token: str | None = None, body=None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    status, _, raw = request(method, base + path, None if body is None else
                             json.dumps(body).encode(), headers)
    return status, json.loads(raw) if raw else None


class Follower:
    """A phone following the stream (a thread reading the events as they come)."""

    def __init__(self, base: str, table: str, token: str, last: int | None = None) -> None:
        host, port = base.removeprefix("http://").split(":")
        self.connection = http.client.HTTPConnection(host, int(port), timeout=30)
        headers = {"Authorization": f"Bearer {token}"}
        if last is not None:
            headers["Last-Event-ID"] = str(last)
        self.connection.request("GET", f"{API}/{table}/stream", headers=headers)
        self.response = self.connection.getresponse()
        assert self.response.status == 200
        self.text = ""
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            while True:
                fp = self.response.fp
                chunk = fp.readline() if fp is not None else b""
                if not chunk:
                    return
                self.text += chunk.decode()
        except (OSError, ValueError, AttributeError):
            return

    def wait_for(self, needle: str, seconds: float = 15) -> list[dict]:
        deadline = time.monotonic() + seconds
        while needle not in self.text:
            assert time.monotonic() < deadline, (needle, self.text[-500:])
            time.sleep(0.02)
        return [e for e in events(self.text) if "event" in e]

    def close(self) -> None:
        try:
            self.connection.sock.shutdown(socket.SHUT_RDWR)  # the reader sees the end
        except OSError:
            pass
        self.thread.join(5)
        self.response.close()
        self.connection.close()


def test_two_hosts_one_redis(shared_pg, tmp_path: Path, monkeypatch):  # noqa: F811
    monkeypatch.setenv("POPREPLAY_REDIS_URL", REDIS)
    log = game_log()
    rnd = log["rounds"][0]
    names = log["players"]
    with popreplay_serve(shared_pg, tmp_path, "--workers", "1") as one:
        status, made = call(one, "POST", API, body={"log": start_of(log), "record_hands": True})
        assert status == 201
        table, host, key = made["table"], made["host_token"], made["join_key"]
        seats = {}
        for name in names:
            status, seat = call(one, "POST", f"{API}/{table}/seats", key, {"player": name})
            seats[name] = seat["seat_token"]
        with popreplay_serve(shared_pg, tmp_path, "--workers", "1") as two:
            bruno = Follower(two, table, seats["Bruno"])  # Bruno's phone is served by host two
            bruno.wait_for("event: snapshot")
            started = time.monotonic()
            status, _ = call(one, "POST", f"{API}/{table}/entries", host, {
                "id": "h1", "seen": 0, "entry": {"type": "part", "entry": "round",
                                                 "slots": {"0": rnd["layout"][0]}}})
            assert status == 201
            got = [e for e in bruno.wait_for("id: 1\n") if e.get("id") == "1"]
            print(f"\nentry on host one -> Bruno's stream on host two: "
                  f"{(time.monotonic() - started) * 1000:.0f} ms")
            assert got[-1]["event"] == "entry" and got[-1]["data"]["by"] is None
            # Ana's part entered on host two, seen by a spectator on host one
            watcher = Follower(one, table, key)
            watcher.wait_for("event: snapshot")
            status, _ = call(two, "POST", f"{API}/{table}/entries", seats["Alice"], {
                "id": "a1", "seen": 1, "entry": {"type": "part", "entry": "round",
                                                 "slots": {"1": rnd["hands"]["Alice"]}}})
            assert status == 201
            seen = watcher.wait_for("id: 2\n")
            [alice] = [e for e in seen if e.get("id") == "2"]
            assert "cards" not in alice["data"] and alice["data"]["by"] == "Alice"
            watcher.close()
        # host two is gone (killed); Bruno's phone reconnects to host one with Last-Event-ID
        bruno.close()
        for k, name in enumerate(names[1:], start=2):
            status, _ = call(one, "POST", f"{API}/{table}/entries", seats[name], {
                "id": f"p{k}", "seen": 2, "entry": {"type": "part", "entry": "round",
                                                    "slots": {str(k): rnd["hands"][name]}}})
            assert status == 201
    # both hosts were stopped; a new one serves the table from the database: nothing lost
    with popreplay_serve(shared_pg, tmp_path, "--workers", "1") as three:
        again = Follower(three, table, seats["Bruno"], last=2)
        got = again.wait_for("event: table")
        assert [e.get("id") for e in got if e["event"] == "entry"] == ["3", "4", "5"]
        view = got[-1]["data"]
        assert view["seq"] == 5 and view["log"]["rounds"][0]["layout"] == rnd["layout"]
        assert view["hand"] == sorted(rnd["hands"]["Bruno"])
        again.close()


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def worker_pids(master: int) -> list[int]:
    children = Path(f"/proc/{master}/task/{master}/children")
    return [int(p) for p in children.read_text().split()] if children.exists() else []


def test_idle_streams_hold_no_worker(shared_pg, tmp_path: Path, monkeypatch):  # noqa: F811
    """200 idle streams on ONE gevent worker: ordinary requests still answer at once."""
    monkeypatch.setenv("POPREPLAY_REDIS_URL", REDIS)
    # one client, one table: above its own limits (issue 36), to measure 200 streams
    monkeypatch.setenv("POPREPLAY_TABLE_MAX_STREAMS_PER_CLIENT", "250")
    monkeypatch.setenv("POPREPLAY_TABLE_MAX_STREAMS_PER_TABLE", "250")
    log = game_log()
    with popreplay_serve(shared_pg, tmp_path, "--workers", "1") as base:
        status, made = call(base, "POST", API, body={"log": start_of(log), "record_hands": True})
        table, key = made["table"], made["join_key"]
        found = subprocess.run(["pgrep", "-f", f"popreplay serve --port {base.rsplit(':', 1)[1]}"],
                               capture_output=True, text=True, check=False)
        masters = [int(p) for p in found.stdout.split()]
        workers = [w for m in masters for w in worker_pids(m)]
        before = sum(rss_kib(w) for w in workers)
        followers = [Follower(base, table, key) for _ in range(200)]
        for f in followers:
            f.wait_for("event: snapshot")
        after = sum(rss_kib(w) for w in workers)
        times = []
        for _ in range(20):
            started = time.monotonic()
            assert request("GET", f"{base}/api/v1/healthz")[0] == 200
            times.append(time.monotonic() - started)
        times.sort()
        print(f"\n200 idle streams on 1 gevent worker: worker RSS {before} -> {after} KiB "
              f"({(after - before) / 200:.1f} KiB a stream); /healthz p50 "
              f"{times[10] * 1000:.1f} ms, max {times[-1] * 1000:.1f} ms")
        assert times[-1] < 2.0
        for f in followers:
            f.close()


def test_the_stream_passes_through_nginx_as_it_is_written(shared_pg, tmp_path: Path):  # noqa: F811
    """deploy/nginx.conf in front: the stream's events arrive at once (not buffered)."""
    from tests.reliability.test_slow_clients import nginx_in_front

    log = game_log()
    with popreplay_serve(shared_pg, tmp_path, "--workers", "1") as base, \
            nginx_in_front(base, tmp_path) as front:
        status, made = call(front, "POST", API, body={"log": start_of(log), "record_hands": True})
        assert status == 201
        table, host, key = made["table"], made["host_token"], made["join_key"]
        watcher = Follower(front, table, key)
        watcher.wait_for("event: snapshot")
        started = time.monotonic()
        status, _ = call(front, "POST", f"{API}/{table}/entries", host, {
            "id": "h1", "seen": 0, "entry": {"type": "part", "entry": "round",
                                             "slots": {"0": log["rounds"][0]["layout"][0]}}})
        assert status == 201
        watcher.wait_for("id: 1\n", seconds=5)
        print(f"\nthrough nginx: entry -> stream {(time.monotonic() - started) * 1000:.0f} ms")
        watcher.close()
