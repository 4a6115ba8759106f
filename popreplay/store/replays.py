"""A stored game's replay: computed once per log and engine version, stored in the ``replays``
table and kept in a small per-process cache.

Replays are kept encoded, never as parsed objects: a replay with steps is tens of thousands of
Python objects, and a cache of them made every full garbage collection of a worker walk millions
of objects (pauses of 100 to 400 ms, measured with `popreplay bench`). Bytes are one object each.
They are gzip-compressed (a 5-player battle: 156 KiB of JSON, 11 KiB stored): the database and
its write-ahead log grow 15 times slower, so SQLite's checkpoints (each a pause of tens of
milliseconds for the request that triggers it) come 15 times less often. No cyclic garbage
collection while a replay is built and encoded (``budget.cyclic_gc_paused``).
"""

from __future__ import annotations

import gzip
import threading
import zlib
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..budget import Background as _Background
from ..budget import cyclic_gc_paused
from ..caching import BoundedCache
from ..checking import check_text
from ..db.models import GameRecord, StoredReplay
from ..db.session import sqlite_writer
from ..engine import ENGINE_VERSION
from ..jsonout import compact
from ..replayformat import LATEST, in_format, is_latest

__all__ = ["RETRY_PENDING_SECONDS", "ReplayPending", "StoredBytes", "drop_stale_replays",
           "encode_replay", "forget_replay", "replay_etag", "replay_gzip", "replay_stored",
           "replay_text", "save_replay"]

RETRY_PENDING_SECONDS = 2
BYTES_CACHE_SIZE = 128  # replays kept per process


@dataclass(frozen=True, slots=True)
class StoredBytes:
    """A replay as kept: gzip-compressed JSON and its number of steps (what a page needs of it
    without parsing it: a long illegal game's page once parsed 22 MB per view for that)."""

    body: bytes
    step_count: int


class ReplayPending(Exception):
    """A first replay took longer than a request waits for it (``POPREPLAY_REPLAY_WAIT``): it goes
    on in the background and is kept when done; the request is answered 503 with Retry-After."""


Key = tuple[str, str]  # the log's content hash and the engine version: they decide the replay

_unsaved: dict[Key, StoredBytes] = {}  # computed in the background, not stored yet
_replay_gzip: BoundedCache[Key, StoredBytes] = BoundedCache(
    max_entries=BYTES_CACHE_SIZE, on_evict=lambda key, _: _unsaved.pop(key, None))
_computing: dict[Key, threading.Event] = {}  # first replays being computed in this process
_replays_lock = threading.Lock()  # _computing and _unsaved, with what the cache holds


def replay_text(session: Session, record: GameRecord, *, wait: float | None = None) -> bytes:
    """The stored replay (:func:`replay_gzip`) decompressed: the result object with ``steps`` as
    compact JSON, UTF-8, for a client that does not take gzip and for the replay page."""
    return gzip.decompress(replay_gzip(session, record, wait=wait))


def replay_etag(record: GameRecord, replay_format: int = LATEST) -> str:
    """The replay's entity tag: the log's hash, the engine version and the replay format."""
    return f"{record.content_hash[:40]}.{ENGINE_VERSION}.f{replay_format}"


def replay_gzip(session: Session, record: GameRecord, *, wait: float | None = None) -> bytes:
    """The replay as served by the API (compact JSON, UTF-8), gzip-compressed: :func:`replay_stored`."""
    return replay_stored(session, record, wait=wait).body


def replay_stored(session: Session, record: GameRecord, *,
                  wait: float | None = None) -> StoredBytes:
    """The replay as served by the API (compact JSON, UTF-8), gzip-compressed, encoded once per
    engine version, with its step count. The same replay always gives the same bytes (no time in
    the gzip header).

    Looked for in a small per-process cache, then in the ``replays`` table; computed (and stored
    there, in its own short transaction) only the first time. Fetches that overlap in one process
    compute it once: the others wait for the first (16 viewers of a new long game once computed it
    16 times at once). A concurrent first fetch in another process stores it once: the loser of
    the race keeps the winner's row.

    ``wait`` (seconds; the request path passes ``POPREPLAY_REPLAY_WAIT``): the computation runs
    beside the request (a thread; under gevent one of the hub's native threads, so the worker's
    other requests go on meanwhile), and past ``wait`` seconds :class:`ReplayPending` is raised
    while it goes on; when it is done it is kept in this process's cache and stored by the next
    fetch. ``None``: computed in the caller, however long it takes (the command line, tests).
    """
    digest, raw = record.content_hash, record.log  # one version of the log, read once
    key = (digest, ENGINE_VERSION)
    while True:
        with _replays_lock:
            cached = _replay_gzip.get(key)
            if cached is not None:
                unsaved = _unsaved.pop(key, None)
                break
            running = _computing.get(key)
            if running is None:
                running = _computing[key] = threading.Event()
                break
        # computed by another request of this process: then from the cache
        if not running.wait(60 if wait is None else wait) and wait is not None:
            raise ReplayPending()
    if cached is not None:
        if unsaved is not None:
            save_replay(session, record, stored=unsaved, of=digest)
        return cached
    assert running is not None  # the loop set it: this request computes the replay
    handed_off = False
    try:
        row = session.execute(select(StoredReplay.body, StoredReplay.step_count).join(
            GameRecord, GameRecord.id == StoredReplay.game_id).where(
            StoredReplay.game_id == record.id, GameRecord.content_hash == digest,
            StoredReplay.engine_version == ENGINE_VERSION)).first()
        # a row stored before the latest replay format is replaced (recomputed, then stored)
        old = row is not None and not _in_latest_format(row[0])
        if row is not None and not old:
            stored = StoredBytes(row[0], row[1])
        elif wait is None:
            _before_computing()
            with cyclic_gc_paused():
                stored = encode_replay(raw)
            save_replay(session, record, stored=stored, of=digest, replace=old)
        else:
            _before_computing()
            job = _beside(record, raw=raw, digest=digest)
            with cyclic_gc_paused():
                done = job.wait(wait)
            if not done:
                job.when_done(lambda value: _computed_meanwhile(key, running, value))
                handed_off = True
                raise ReplayPending()
            stored = job.value()
            save_replay(session, record, stored=stored, of=digest, replace=old)
        _replay_gzip.put(key, stored)
        return stored
    finally:
        if not handed_off:
            with _replays_lock:
                _computing.pop(key, None)
            running.set()


def encode_replay(raw: bytes) -> StoredBytes:
    """A log's replay with steps as stored: compact JSON, UTF-8, gzip, in the latest replay
    format (``popreplay.replayformat``: each step after the first carries what changed); and its
    step count."""
    result = in_format(dict(check_text(raw, with_steps=True)), LATEST)
    step_count = len(result.get("steps") or ())
    text = compact(result).encode("utf-8")
    del result
    return StoredBytes(gzip.compress(text, compresslevel=6, mtime=0), step_count)


def save_replay(session: Session, record: GameRecord, *, stored: StoredBytes, of: str,
                replace: bool = False) -> None:
    """Store a replay computed from the log whose content hash is ``of``, only if that is still
    the game's log: the game's row is read (and locked, on PostgreSQL) in the same transaction,
    so a ``PUT`` of a new log (which changes the row first, then drops the stored replays) and
    this store come one after the other, and a replay of an older log is never kept for a newer
    one (issue 25, finding 3). ``replace``: the row stored for this engine is in an older replay
    format; it is deleted first. Used by the request path and by a queue worker."""
    try:
        with sqlite_writer(session):
            now = session.execute(select(GameRecord.content_hash).where(
                GameRecord.id == record.id).with_for_update()).scalar()
            if now == of:
                if replace:
                    session.execute(delete(StoredReplay).where(
                        StoredReplay.game_id == record.id,
                        StoredReplay.engine_version == ENGINE_VERSION))
                session.add(StoredReplay(game_id=record.id, engine_version=ENGINE_VERSION,
                                         body=stored.body, step_count=stored.step_count))
            session.commit()
    except IntegrityError:  # stored meanwhile by another process, or the game is gone
        session.rollback()


def forget_replay(record: GameRecord) -> None:
    """Drop this process's copy of a game's replay (its result changed: revalidate)."""
    key = (record.content_hash, ENGINE_VERSION)
    with _replays_lock:
        _replay_gzip.pop(key)
        _unsaved.pop(key, None)


def drop_stale_replays(session: Session, *, dry_run: bool = False) -> int:
    """Delete the stored replays of other engine versions (this code never serves them: a replay
    is looked up by the running version); how many there were. ``dry_run`` only counts them."""
    stale = StoredReplay.engine_version != ENGINE_VERSION
    if dry_run:
        return session.scalar(select(func.count()).select_from(StoredReplay).where(stale)) or 0
    with sqlite_writer(session):
        dropped = session.execute(delete(StoredReplay).where(stale)).rowcount  # type: ignore[attr-defined]
        session.commit()
    return dropped


def _in_latest_format(body: bytes) -> bool:
    """Whether a stored replay (gzip) is in the latest replay format: its first bytes say it."""
    head = zlib.decompressobj(31).decompress(body, 64)
    return is_latest(head)


def _computed_meanwhile(key: Key, running: threading.Event, stored: StoredBytes | None) -> None:
    """A replay a request stopped waiting for is done (``None``: it failed): kept in the cache
    and stored by the next fetch; the fetches waiting for it go on."""
    with _replays_lock:
        if stored is not None:
            _unsaved[key] = stored
            _replay_gzip.put(key, stored)
        _computing.pop(key, None)
    running.set()


def _beside(record: GameRecord, *, raw: bytes, digest: str) -> Any:
    """A first replay's computation beside the request: on a worker when a broker is configured
    (``popreplay.queue``), else in this process (``budget.Background``); both for the log whose
    content hash is ``digest``. The app registers the queue's ``remote_replay`` at start-up
    (popreplay/app.py): the store does not import the queue, which imports the store."""
    from flask import current_app, has_app_context

    remote = current_app.extensions.get("popreplay_remote_replay") if has_app_context() else None
    return (remote(record, of=digest) if remote is not None else None) or _Background(
        encode_replay, raw)


def _before_computing() -> None:
    """A request is about to compute a replay: the per-client limit on that (api/ratelimit.py,
    which registers the guard; it raises past the limit)."""
    from flask import current_app, has_request_context

    guard = current_app.extensions.get("popreplay_replay_guard") if has_request_context() else None
    if guard is not None:
        guard()

