"""Replay pages kept rendered, like the replay JSON (issue 35): a page is rendered once per game,
engine version, language and address (its links and share URL come from the address), kept with
its gzip form, and answered with an ETag (``If-None-Match`` → 304). ``Cache-Control: no-cache``:
a browser asks again every time, so a deleted or changed game is seen at once (the game is looked
up before the cache, and what changes a page is in its key)."""

from __future__ import annotations

import gzip
import hashlib
from dataclasses import dataclass
from typing import Any, Callable

from flask import Response, request

from ..caching import BoundedCache

__all__ = ["cached_page", "page_etag"]

PAGES_BYTES = 48 * 1024 * 1024  # per process: ~270 battle pages (160 KiB and 15 KiB gzip each)
SMALLEST_COMPRESSED = 1024  # bytes: below this gzip saves too little to be worth its header


@dataclass(frozen=True, slots=True)
class _Page:
    html: bytes
    gz: bytes


_pages: BoundedCache[tuple[Any, ...], _Page] = BoundedCache(
    max_bytes=PAGES_BYTES, size=lambda page: len(page.html) + len(page.gz))


def page_etag(key: tuple[Any, ...]) -> str:
    """The entity tag of the page kept under ``key`` (what decides its bytes)."""
    return hashlib.sha256(repr(key).encode("utf-8", "surrogatepass")).hexdigest()[:32]


def cached_page(key: tuple[Any, ...], render: Callable[[], str]) -> Response:
    """The page ``render()`` gives for ``key``, rendered the first time only; gzip-compressed
    for a client that accepts it; 304 when the client has it (``If-None-Match``)."""
    etag = page_etag(key)
    if request.if_none_match.contains(etag):
        response = Response(status=304)
    else:
        page = _pages.get_or_compute(key, lambda: _packed(render()))
        packed = (request.accept_encodings.quality("gzip") > 0
                  and len(page.html) >= SMALLEST_COMPRESSED)
        response = Response(page.gz if packed else page.html, mimetype="text/html")
        if packed:
            response.headers["Content-Encoding"] = "gzip"
    response.set_etag(etag)
    response.headers["Cache-Control"] = "no-cache"
    response.vary.update(("Accept-Encoding", "Accept-Language", "Cookie"))
    return response


def _packed(html: str) -> _Page:
    body = html.encode("utf-8")
    return _Page(body, gzip.compress(body, compresslevel=5, mtime=0))
