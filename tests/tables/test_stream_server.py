"""The table stream on the real server (``popreplay serve``, a gevent worker), loopback only:
a stream whose client never reads is closed at its lifetime and its place freed (issue 36).

The stream's socket keeps at most ``SEND_BUFFER`` bytes unread, so the host's handing a seat over
and over (a table event each time) soon blocks the write; without the shut-down at lifetime +
``LINGER`` the blocked stream kept its place for good (checked: this test then fails)."""

from __future__ import annotations

import json
import signal
import socket
import time
from pathlib import Path
from typing import Any

import pytest

from popreplay.api.table_stream import LINGER
from tests.e2e.test_serve import request, serve_to_stop
from tests.reliability.test_slow_clients import popreplay_serve
from tests.tables.helpers import API, Table, game_log

pytestmark = pytest.mark.slow
LIFETIME = 8


class Answer:
    def __init__(self, status: int, raw: bytes) -> None:
        self.status_code, self.raw = status, raw

    def get_json(self) -> Any:
        return json.loads(self.raw) if self.raw else None


class Http:
    """What tests.tables.helpers.Table needs of a client, over HTTP."""

    def __init__(self, base: str) -> None:
        self.base = base

    def _call(self, method: str, path: str, body: Any, headers: dict[str, str] | None) -> Answer:
        status, _, raw = request(method, self.base + path,
                                 None if body is None else json.dumps(body).encode(),
                                 {"Content-Type": "application/json", **(headers or {})})
        return Answer(status, raw)

    def post(self, path: str, json: Any = None, headers: dict[str, str] | None = None) -> Answer:
        return self._call("POST", path, json, headers)

    def get(self, path: str, headers: dict[str, str] | None = None) -> Answer:
        return self._call("GET", path, None, headers)


def never_reader(base: str, table: str, token: str) -> socket.socket:
    """A client that asks for the stream and never reads a byte (a receive buffer of 4 KiB)."""
    host, port = base.removeprefix("http://").split(":")
    assert host == "127.0.0.1"
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.settimeout(5)
    sock.connect((host, int(port)))
    sock.sendall(f"GET {API}/{table}/stream HTTP/1.1\r\nHost: {host}:{port}\r\n"
                 f"Authorization: Bearer {token}\r\n\r\n".encode())
    return sock


def stream_status(base: str, table: str, token: str) -> int:
    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=5) as sock:
        sock.sendall(f"GET {API}/{table}/stream HTTP/1.1\r\nHost: {host}:{port}\r\n"
                     f"Authorization: Bearer {token}\r\nConnection: close\r\n\r\n".encode())
        head = sock.recv(64).decode("latin-1")
    return int(head.split()[1])


def test_a_stream_whose_client_never_reads_is_closed_at_its_lifetime(tmp_path: Path,
                                                                      monkeypatch):
    monkeypatch.setenv("POPREPLAY_TABLE_STREAM_SECONDS", str(LIFETIME))
    monkeypatch.setenv("POPREPLAY_TABLE_MAX_STREAMS_PER_TABLE", "1")
    monkeypatch.setenv("POPREPLAY_LIMITS", "off")
    with popreplay_serve(f"sqlite:///{tmp_path / 'streams.sqlite'}", tmp_path,
                         "--workers", "1") as base:
        table = Table(Http(base), game_log())
        for name in table.log["players"]:
            table.join(name)
        stuck = never_reader(base, table.id, table.host)
        opened = time.monotonic()
        try:
            time.sleep(0.5)
            assert stream_status(base, table.id, table.key) == 503  # the one place is taken
            table.deal(0)
            sent = 0  # the host hands a seat over and over: a table event of ~2 KiB each time
            while time.monotonic() - opened < LIFETIME - 1:
                answer = table.client.post(f"{API}/{table.id}/seats", json={"player": "Bruno"},
                                           headers={"Authorization": f"Bearer {table.host}"})
                assert answer.status_code == 201
                sent += 1
            assert sent >= 20
            freed = None
            while time.monotonic() - opened < LIFETIME + 20:
                if stream_status(base, table.id, table.key) == 200:
                    freed = time.monotonic() - opened
                    break
                time.sleep(0.5)
            print(f"never-reading stream: {sent} seats handed over, place free after {freed} s")
            assert freed is not None, "the stream that never reads kept its place"
            assert LIFETIME - 1 <= freed <= LIFETIME + LINGER + 3  # shut at lifetime + LINGER
        finally:
            stuck.close()


def test_a_graceful_stop_ends_the_streams_at_once(tmp_path: Path):
    """SIGTERM lets requests in progress finish, and a table stream is one that never finishes by
    itself: it used to hold its worker, and the stop, for the whole graceful timeout (10 s, then
    SIGKILL). Now every stream of the worker ends at once; the phone reconnects."""
    with serve_to_stop(tmp_path, workers=1) as (process, base, log_path):
        table = Table(Http(base), game_log())
        host, port = base.removeprefix("http://").rsplit(":", 1)
        streams = []
        for _ in range(3):
            sock = socket.create_connection((host, int(port)), timeout=20)
            sock.sendall(f"GET {API}/{table.id}/stream HTTP/1.1\r\nHost: {host}:{port}\r\n"
                         f"Authorization: Bearer {table.host}\r\n\r\n".encode())
            streams.append(sock)
        read = [b"" for _ in streams]
        for i, sock in enumerate(streams):
            while b"event: snapshot" not in read[i]:
                read[i] += sock.recv(65536)
        stopped = time.monotonic()
        process.send_signal(signal.SIGTERM)
        for i, sock in enumerate(streams):  # each response ends: the last chunk, then EOF
            while chunk := sock.recv(65536):
                read[i] += chunk
            sock.close()
        returncode = process.wait(timeout=30)
        took = time.monotonic() - stopped
    served = log_path.read_text()
    assert all(r.endswith(b"0\r\n\r\n") for r in read), [r[-80:] for r in read]
    assert "graceful timeout" not in served and "SIGKILL" not in served, served
    assert returncode == 0, served
    print(f"SIGTERM with 3 open table streams: stopped in {took:.2f} s")
