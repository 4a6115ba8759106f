"""gunicorn's own error answers (a request line or headers too long: 414, 431; a request it
cannot parse: 400) in the service's one error shape, as JSON, not gunicorn's HTML page (issue 25).

gunicorn writes them itself, before the application sees the request, through
``gunicorn.util.write_error``; :func:`install` replaces that function in the server's process
(``popreplay serve``) with :func:`write_error`, which writes the same status line.
"""

from __future__ import annotations

import json
from http import HTTPStatus
from typing import Any

MESSAGES = {
    414: "The request's address is longer than this server accepts.",
    431: "The request's headers are larger than this server accepts.",
}


def error_body(status: int, reason: str, detail: str) -> bytes:
    try:
        phrase = HTTPStatus(status).phrase
    except ValueError:
        phrase = reason
    message = MESSAGES.get(status) or (f"{phrase}: {detail}" if detail else phrase)
    errors = [{"code": "bad-request", "message": detail, "path": ""}] if detail else []
    return json.dumps({"code": status, "status": phrase, "message": message, "errors": errors},
                      ensure_ascii=True).encode("ascii")


def write_error(sock: Any, status_int: int, reason: str, mesg: str) -> None:
    from gunicorn import util

    body = error_body(status_int, reason, mesg)
    head = (f"HTTP/1.1 {status_int} {reason}\r\nConnection: close\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n")
    util.write_nonblock(sock, head.encode("latin-1") + body)


def install() -> None:
    from gunicorn import util

    util.write_error = write_error
