"""gunicorn's own answers (before the app sees a request) are in the error shape, in JSON. Found in
the hardening rounds of issues 15, 16 and 25 (docs/reliability.md)."""

from __future__ import annotations

import json
import socket

import pytest

from popreplay.serve_errors import write_error
from tests.api.test_games import assert_error_shape
from tests.reliability.hardening import nothing_kept  # noqa: F401  (autouse: no engine work kept)

# --- gunicorn's own answers ------------------------------------------------------------

def test_gunicorns_own_errors_are_in_the_error_shape():
    for status, reason in ((414, "URI Too Long"), (431, "Request Header Fields Too Large"),
                           (400, "Bad Request")):
        mine, theirs = socket.socketpair()
        with mine, theirs:
            write_error(mine, status, reason, "Invalid Request Line 'x'")
            answer = theirs.recv(65536).decode()
        head, body = answer.split("\r\n\r\n", 1)
        assert head.startswith(f"HTTP/1.1 {status} ") and "application/json" in head
        assert_error_shape(json.loads(body), status)


# --- gunicorn's own answers ------------------------------------------------------------

@pytest.mark.slow
def test_gunicorn_answers_a_too_long_address_in_json(tmp_path):
    from tests.reliability.test_slow_clients import popreplay_serve

    with popreplay_serve(f"sqlite:///{tmp_path / 'g.sqlite'}", tmp_path) as base:
        host, port = base.removeprefix("http://").split(":")
        # each under 8 KiB, read by gunicorn whole (unread bytes would reset the connection)
        too_many = b"".join(b"X-%d: 1\r\n" % k for k in range(120))
        for request, status in ((b"GET /" + b"a" * 4200 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414),
                                (b"GET / HTTP/1.1\r\nHost: x\r\n" + too_many + b"\r\n", 431)):
            with socket.create_connection((host, int(port)), timeout=10) as connection:
                connection.sendall(request)
                answer = b""
                while chunk := connection.recv(65536):
                    answer += chunk
            head, body = answer.decode().split("\r\n\r\n", 1)
            assert head.startswith(f"HTTP/1.1 {status} ") and "application/json" in head
            assert_error_shape(json.loads(body), status)
