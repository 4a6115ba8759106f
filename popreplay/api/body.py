"""Request bodies read with a hard limit, whether the client sent a ``Content-Length`` or not.

Werkzeug caps a body of unknown length (``Transfer-Encoding: chunked``) at the limit and returns
what it read so far: a log cut at exactly 1 MiB was stored as if it had been sent that way. Here
the body is read up to the limit and one byte more; one byte more is a 413 and nothing is used.
"""

from __future__ import annotations

from flask import current_app, request

from .errors import ApiError

CHUNK = 65536


def too_large(limit: int) -> ApiError:
    return ApiError(413, f"The request body is larger than this server accepts ({limit} bytes).")


def read_body(limit: int | None = None) -> bytes:
    """The whole request body, at most ``limit`` bytes (default ``POPREPLAY_MAX_BODY``); a
    longer one is :func:`too_large` (413), with or without a ``Content-Length``."""
    if limit is None:
        limit = current_app.config["MAX_CONTENT_LENGTH"]
    length = request.content_length
    if length is not None:
        if length > limit:
            raise too_large(limit)
        return request.get_data(cache=False)
    environ = request.environ
    if not environ.get("wsgi.input_terminated"):
        return b""  # no length and a server that does not end the stream: nothing safe to read
    stream = environ["wsgi.input"]  # ended by the server (chunked): read it ourselves
    parts: list[bytes] = []
    size = 0
    while True:
        part = stream.read(min(CHUNK, limit + 1 - size))
        if not part:
            return b"".join(parts)
        parts.append(part)
        size += len(part)
        if size > limit:
            raise too_large(limit)
