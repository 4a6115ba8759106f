"""A slow-client attack, bounded and on loopback only, and a probe that times ``/healthz`` while it
runs (issue 15, finding 2). Used by ``test_slow_clients.py`` and, to measure, from the command line:

    python -m tests.reliability.slowclients http://127.0.0.1:8000 --clients 64 --seconds 10

Kinds of slow client: ``headers`` trickles its request headers (one header line every half
second, never the blank line that ends them); ``body`` sends its headers and then its declared
body one byte every half second; ``reader`` asks for the export and never reads the answer (a
receive buffer of 4 KiB). Every socket is closed when the attack ends.
"""

from __future__ import annotations

import argparse
import socket
import statistics
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from urllib.parse import urlsplit

KINDS = ("headers", "body", "reader")


class SlowClients:
    def __init__(self, base: str, count: int, kind: str = "headers") -> None:
        if kind not in KINDS:
            raise ValueError(kind)
        parts = urlsplit(base)
        if parts.hostname not in ("127.0.0.1", "localhost", "::1"):
            raise ValueError("slow-client attacks run against loopback only")
        self.address = (parts.hostname, parts.port or 80)
        self.host = parts.netloc
        self.count = count
        self.kind = kind
        self.sockets: list[socket.socket] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _open(self) -> socket.socket | None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            if self.kind == "reader":
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.settimeout(2)
            sock.connect(self.address)
            if self.kind == "headers":
                sock.sendall(f"GET /healthz HTTP/1.1\r\nHost: {self.host}\r\n".encode())
            elif self.kind == "body":
                sock.sendall(f"POST /api/v1/validate HTTP/1.1\r\nHost: {self.host}\r\n"
                             "Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"
                             .encode())
            else:
                sock.sendall(f"GET /api/v1/games/export HTTP/1.1\r\nHost: {self.host}\r\n\r\n"
                             .encode())
            return sock
        except OSError:
            sock.close()
            return None

    def _run(self) -> None:
        for _ in range(self.count):
            sock = self._open()
            if sock is not None:
                self.sockets.append(sock)
        tick = 0
        while not self.stop.wait(0.5):
            tick += 1
            if self.kind == "reader":
                continue
            for sock in list(self.sockets):
                try:
                    sock.sendall(f"X-Slow-{tick}: 1\r\n".encode() if self.kind == "headers"
                                 else b" ")
                except OSError:  # the server closed it (a timeout): open another one
                    self.sockets.remove(sock)
                    sock.close()
                    again = self._open()
                    if again is not None:
                        self.sockets.append(again)

    def __enter__(self) -> "SlowClients":
        self.thread.start()
        time.sleep(1.0)  # let every connection open and start trickling
        return self

    def __exit__(self, *_: object) -> None:
        self.stop.set()
        self.thread.join(timeout=10)
        for sock in self.sockets:
            sock.close()


@dataclass
class Probe:
    """``/healthz`` times (seconds) while an attack runs; a failed request counts as ``timeout``."""

    times: list[float] = field(default_factory=list)
    failures: int = 0

    @property
    def worst(self) -> float:
        return max(self.times, default=float("inf"))

    @property
    def median(self) -> float:
        return statistics.median(self.times) if self.times else float("inf")

    def line(self) -> str:
        return (f"{len(self.times)} probes, median {self.median * 1000:.0f} ms, worst "
                f"{self.worst * 1000:.0f} ms, {self.failures} failed")


def probe(base: str, seconds: float, *, timeout: float = 5.0, path: str = "/healthz") -> Probe:
    result = Probe()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        start = time.monotonic()
        try:
            with urllib.request.urlopen(base + path, timeout=timeout) as response:
                response.read()
            result.times.append(time.monotonic() - start)
        except (OSError, urllib.error.URLError):
            result.failures += 1
            result.times.append(time.monotonic() - start)
        time.sleep(0.2)
    return result


def attack(base: str, clients: int, seconds: float, kind: str = "headers") -> Probe:
    with SlowClients(base, clients, kind):
        return probe(base, seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base")
    parser.add_argument("--clients", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--kind", choices=KINDS, default="headers")
    args = parser.parse_args()
    print(f"{args.kind} x{args.clients}: {attack(args.base, args.clients, args.seconds, args.kind).line()}")


if __name__ == "__main__":
    main()
