"""A real webhook receiver for the tests: an ``http.server`` on 127.0.0.1 in a thread that
records every request and answers the statuses it is told, in order (then 200), optionally
holding each answer until the test lets it go."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Iterator

import pytest


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    url: str = ""
    statuses: list[int] = field(default_factory=list)  # answered in order, then 200
    hold: threading.Event | None = None  # each answer waits for it when set
    requests: list[Received] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def next_status(self) -> int:
        with self.lock:
            return self.statuses.pop(0) if self.statuses else 200

    def wait_for(self, count: int, *, timeout: float = 15) -> list[Received]:
        wait_until(lambda: len(self.requests) >= count, timeout=timeout,
                   what=f"{count} requests at the receiver")
        return list(self.requests)


def wait_until(predicate: Callable[[], Any], *, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.05)


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    state = Receiver()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            state.requests.append(Received(self.path, dict(self.headers.items()), body))
            if state.hold is not None:
                state.hold.wait(30)
            status = state.next_status()
            self.send_response(status)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"ok")

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    # shutdown() waits for serve_forever to look again: every 0.5 s by default, per test
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02},
                              daemon=True)
    thread.start()
    state.url = f"http://127.0.0.1:{server.server_address[1]}/hook"
    try:
        yield state
    finally:
        if state.hold is not None:
            state.hold.set()
        server.shutdown()
        server.server_close()
