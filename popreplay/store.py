"""The service's one way to store, find and replay games (used by the API, the CLI and the viewer).

Results come only from :func:`popreplay.checking.check_text`; nothing here knows a game's rules.
The log is stored byte for byte as uploaded. A game is identified by the hash of its canonical
content (:func:`canonical_hash`: parsed, NFC, sorted compact JSON), unique in the database, so the
same game sent again (other whitespace, key order, escapes or Unicode normalisation) is the game
already stored. One transaction per ingest.
"""

from __future__ import annotations

import gzip
import hashlib
import hmac
import json
import re
import secrets
import threading
import unicodedata
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Callable, Iterator, Sequence

from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, undefer

from .budget import Background as _Background
from .budget import cyclic_gc_paused
from .checking import check_json, check_text
from .db.models import VISIBILITIES, DeletedGame, GamePlayer, GameRecord, StoredReplay
from .db.queries import MAX_ID, folded_name, player_name
from .db.session import get_session, sqlite_writer
from .db.types import db_text, utcnow
from .engine import ENGINE_VERSION, GAMES, Violation, invalid_result
from .logformat import ShapeError, parse_json
from .logformat.limits import MAX_DEPTH, depth_exceeds

__all__ = [
    "VISIBILITIES",
    "Ingested",
    "InvalidLog",
    "ReplayPending",
    "canonical_hash",
    "content_hash",
    "delete_game",
    "drop_stale_replays",
    "find_by_hash",
    "find_by_id",
    "find_by_ref",
    "find_by_slug",
    "get_session",
    "ingest",
    "owner_token_matches",
    "parse_datetime",
    "recent_public",
    "replay_etag",
    "replay_gzip",
    "replay_stored",
    "replay_text",
    "restore",
    "revalidate",
]


class InvalidLog(Exception):
    """The log is not JSON or not of the right shape; ``result`` is its ``invalid`` result."""

    def __init__(self, result: dict[str, Any]) -> None:
        super().__init__("; ".join(f"{e['path'] or '/'}: {e['message']}" for e in result["errors"]))
        self.result = result


@dataclass(frozen=True, slots=True)
class Ingested:
    """What :func:`ingest` did: ``created`` is False when the same log was already stored (then
    ``owner_token`` is None: the token is shown once, to whoever stored the game first)."""

    record: GameRecord
    created: bool
    owner_token: str | None
    result: dict[str, Any]


# --- hashing, slugs, tokens ----------------------------------------------------------------------


def content_hash(raw: bytes) -> str:
    """SHA-256 of the log's bytes as uploaded (``sha256`` in the API; the log's entity tag)."""
    return hashlib.sha256(raw).hexdigest()


def canonical(value: Any) -> Any:
    """``value`` with every string and object key in Unicode NFC."""
    if isinstance(value, str):
        return unicodedata.normalize("NFC", value)
    if isinstance(value, dict):
        return {canonical(key): canonical(item) for key, item in value.items()}
    if isinstance(value, list):
        return [canonical(item) for item in value]
    return value


def canonical_hash(data: Any) -> str:
    """What identifies a game: SHA-256 of its parsed log (as :func:`popreplay.logformat.parse_json`
    reads it: ``3.0`` is ``3``) with every string NFC, written as JSON with sorted keys, no spaces
    and no escapes beyond JSON's own, in UTF-8. The one definition: every path that stores or
    changes a log computes it here."""
    text = json.dumps(canonical(data), ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def new_slug() -> str:
    """A short unguessable share slug: 12 URL-safe characters, 72 random bits."""
    return secrets.token_urlsafe(9)


def new_owner_token() -> str:
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def owner_token_matches(record: GameRecord, token: str | None) -> bool:
    """Constant-time check of an owner token against the stored hash."""
    if not token or record.owner_token_hash is None:
        return False
    return hmac.compare_digest(token_hash(token), record.owner_token_hash)


nfc = player_name  # a player's name as stored and searched: NFC, storable


# --- lookups -------------------------------------------------------------------------------------


def find_by_slug(session: Session, slug: str) -> GameRecord | None:
    """The game with this share slug, unlisted ones too (the link is the key)."""
    return session.scalars(select(GameRecord).where(GameRecord.slug == db_text(slug))).first()


def find_by_hash(session: Session, digest: str) -> GameRecord | None:
    """The game stored with exactly these bytes (SHA-256 ``digest``)."""
    return session.scalars(select(GameRecord).where(GameRecord.content_hash == digest)).first()


def find_by_canonical_hash(session: Session, digest: str) -> GameRecord | None:
    """The game with this content (:func:`canonical_hash`), however it was spelt."""
    return session.scalars(select(GameRecord).where(GameRecord.canonical_hash == digest)).first()


def find_by_id(session: Session, game_id: int) -> GameRecord | None:
    if not 0 < game_id <= MAX_ID:
        return None
    return session.get(GameRecord, game_id)


def find_by_ref(session: Session, ref: str) -> GameRecord | None:
    """A game named in a URL: by its slug (any visibility) or by its number (public only, so
    that counting through numbers never reveals an unlisted game). The visibility is part of the
    query, so an unlisted number costs the same as a missing one (no row is loaded for it)."""
    record = find_by_slug(session, ref)
    if record is not None:
        return record
    if ref.isascii() and ref.isdigit() and len(ref) <= len(str(MAX_ID)) and 0 < int(ref) <= MAX_ID:
        return session.scalars(select(GameRecord).where(
            GameRecord.id == int(ref), GameRecord.visibility == "public")).first()
    return None


def recent_public(session: Session, limit: int = 20) -> Sequence[GameRecord]:
    """The newest public games, newest first."""
    query = (select(GameRecord).where(GameRecord.visibility == "public")
             .order_by(GameRecord.created_at.desc(), GameRecord.id.desc()).limit(limit))
    return session.scalars(query).all()


# --- ingest --------------------------------------------------------------------------------------


Checker = Callable[[Any], dict[str, Any]]


def ingest(session: Session, raw: bytes, *, visibility: str = "public",
           checker: Checker = check_json) -> Ingested:
    """Check a log and store it with its result, or return the game already stored for it.

    Raises :class:`InvalidLog` (nothing stored) when the log is not JSON or not of the right shape.
    Legal and illegal logs are both stored. The same game in other bytes (:func:`canonical_hash`)
    is the game already stored. A concurrent upload of the same game is caught by the unique
    canonical hash: the loser gets the winner's game (``created`` False). ``checker``: how the
    parsed log's result is computed (the API's runs it beside the request, within its budget).
    """
    if visibility not in VISIBILITIES:
        raise ValueError(f"visibility must be one of {', '.join(VISIBILITIES)}")
    digest = content_hash(raw)
    existing = find_by_hash(session, digest)
    if existing is not None:
        return Ingested(existing, False, None, existing.result)
    data, identity = _parse(raw)
    existing = find_by_canonical_hash(session, identity)
    if existing is not None:
        return Ingested(existing, False, None, existing.result)
    result = checker(data)
    if result["status"] == "invalid":
        raise InvalidLog(result)
    token = new_owner_token()
    record = _new_record(raw, digest, result, visibility=visibility,
                         owner_token_hash=token_hash(token), data=data, identity=identity)
    stored = _commit_new(session, record)
    if stored is not record:
        return Ingested(stored, False, None, stored.result)
    return Ingested(record, True, token, result)


def restore(session: Session, entry: dict[str, Any]) -> Ingested:
    """Store a game from an export line (``popreplay export``), keeping its slug, visibility,
    creation time and, in a backup, its owner token hash. The result is recomputed."""
    try:
        raw = entry["log"].encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("the exported log is not UTF-8 text") from None
    digest = content_hash(raw)
    if entry.get("sha256") not in (None, digest):
        raise ValueError("the exported log does not match its sha256")
    existing = find_by_hash(session, digest)
    if existing is not None:
        return Ingested(existing, False, None, existing.result)
    data, identity = _parse(raw)
    existing = find_by_canonical_hash(session, identity)
    if existing is not None:
        return Ingested(existing, False, None, existing.result)
    slug, token = entry.get("slug"), entry.get("owner_token_hash")
    if slug is not None and not (isinstance(slug, str) and _SLUG.fullmatch(slug)):
        raise ValueError("the exported slug is not a slug")
    if slug is not None and find_by_slug(session, slug) is not None:
        raise ValueError(f"the slug {slug} is already used by another game")
    if token is not None and not (isinstance(token, str) and _SHA256.fullmatch(token)):
        raise ValueError("the exported owner_token_hash is not a SHA-256")
    result = check_json(data)
    if result["status"] == "invalid":
        raise InvalidLog(result)
    record = _new_record(
        raw, digest, result, data=data, identity=identity,
        visibility=entry.get("visibility", "public"),
        owner_token_hash=token,
        slug=slug,
        created_at=_parse_datetime(entry.get("created_at")),
    )
    stored = _commit_new(session, record)
    return Ingested(stored, stored is record, None, stored.result)


_SLUG = re.compile(r"[A-Za-z0-9_-]{6,32}")
_SHA256 = re.compile(r"[0-9a-f]{64}")


def _parse(raw: bytes) -> tuple[Any, str]:
    """The parsed log and its :func:`canonical_hash`; :class:`InvalidLog` when it is not JSON."""
    try:
        data = parse_json(raw)
    except ShapeError as error:
        raise InvalidLog(invalid_result(error.errors, game=error.game, mode=error.mode)) from None
    if depth_exceeds(data, MAX_DEPTH):  # no log of any game nests that deep (nor can it be hashed)
        raise InvalidLog(invalid_result([Violation(
            "schema", f"nested deeper than {MAX_DEPTH} levels", "")]))
    return data, canonical_hash(data)


def _commit_new(session: Session, record: GameRecord) -> GameRecord:
    try:
        with sqlite_writer(session):
            session.add(record)
            session.commit()
    except IntegrityError:
        session.rollback()
        existing = (find_by_canonical_hash(session, record.canonical_hash)
                    if record.canonical_hash else None) or find_by_hash(session,
                                                                        record.content_hash)
        if existing is None:
            raise
        return existing
    return record


def _new_record(raw: bytes, digest: str, result: dict[str, Any], *, visibility: str,
                owner_token_hash: str | None, data: Any, identity: str, slug: str | None = None,
                created_at: datetime | None = None) -> GameRecord:
    if visibility not in VISIBILITIES:
        raise ValueError(f"visibility must be one of {', '.join(VISIBILITIES)}")
    log = data
    meta = log.get("meta") if isinstance(log.get("meta"), dict) else {}
    title = meta.get("title")
    record = GameRecord(
        slug=slug or new_slug(),
        content_hash=digest,
        canonical_hash=identity,
        log=raw,
        players=list(log["players"]),
        title=db_text(title) if isinstance(title, str) else None,
        played_at=_parse_datetime(meta.get("played_at")),
        played_at_text=played_at_text(meta),
        visibility=visibility,
        owner_token_hash=owner_token_hash,
        created_at=created_at or utcnow(),
    )
    apply_result(record, result)
    return record


def apply_result(record: GameRecord, result: dict[str, Any]) -> None:
    """Copy a result object onto a record, seats included (ingest and revalidate)."""
    record.game = result["game"] or record.game  # an invalid result may not know them
    record.mode = result["mode"] or record.mode
    record.status = result["status"]
    record.legal = result["legal"]
    record.errors = result["errors"]
    record.outcome = result["outcome"]
    record.claims = result["claims"]
    record.claims_match = None if result["claims"] is None else result["claims"]["match"]
    record.engine_version = result["engine"]
    standings = _standings(result, record.players)
    seats = {seat.position: seat for seat in record.seats}
    for seat in [seat for seat in record.seats if seat.position >= len(record.players)]:
        record.seats.remove(seat)  # a draft continued with fewer players (update_log)
    for position, name in enumerate(record.players):
        row = standings.get(name, {})
        seat = seats.get(position)
        if seat is None:
            seat = GamePlayer(position=position)
            record.seats.append(seat)
        seat.name = nfc(name)
        seat.name_folded = folded_name(name)
        seat.score = _int_or_none(row.get("score"))
        seat.won = row.get("won")


def _standings(result: dict[str, Any], players: list[str]) -> dict[str, Any]:
    game = GAMES.get(result["game"])
    if game is None or not result["legal"] or result["outcome"] is None:
        return {}
    return game.standings(result["outcome"], players)


def _int_or_none(value: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return int(value)


def played_at_text(meta: dict[str, Any]) -> str | None:
    """``meta.played_at`` as written, when it is a date-time this service reads (kept for pages
    that show the local time of play without loading the log)."""
    value = meta.get("played_at")
    if not isinstance(value, str) or len(value.strip()) > 40 or _parse_datetime(value) is None:
        return None
    return value.strip()


def _parse_datetime(value: Any) -> datetime | None:
    """An ISO 8601 date or date-time; without an offset it is taken as UTC. Else None."""
    if isinstance(value, datetime):
        return value
    if not isinstance(value, str):
        return None
    try:
        parsed = datetime.fromisoformat(value.strip())
        if parsed.tzinfo is None:
            parsed = parsed.replace(tzinfo=timezone.utc)
        return parsed.astimezone(timezone.utc)
    except (ValueError, OverflowError):
        return None


parse_datetime = _parse_datetime


# --- drafts and what-if branches (the recorder) --------------------------------------------------


class LogTaken(Exception):
    """Another stored game already has exactly this log."""


def update_log(session: Session, record: GameRecord, raw: bytes, *,
               checker: Checker = check_json) -> dict[str, Any]:
    """Replace a game's log (a saved draft continued by its owner): checked like an upload, the
    result recomputed, the stored replays dropped; the slug, owner token, visibility and branch
    link stay; everything read from the log (players and seats, title, date of play) follows the
    new log. Raises :class:`InvalidLog` (nothing changed) or :class:`LogTaken`."""
    data, identity = _parse(raw)
    result = checker(data)
    if result["status"] == "invalid":
        raise InvalidLog(result)
    digest = content_hash(raw)
    if digest == record.content_hash:
        return result
    other = find_by_hash(session, digest) or find_by_canonical_hash(session, identity)
    if other is not None and other.id != record.id:
        raise LogTaken(other.slug)
    log = data
    meta = log.get("meta") if isinstance(log.get("meta"), dict) else {}
    title = meta.get("title")
    with sqlite_writer(session):
        record.log, record.content_hash, record.canonical_hash = raw, digest, identity
        record.players = list(log["players"])
        record.title = db_text(title) if isinstance(title, str) else None
        record.played_at = _parse_datetime(meta.get("played_at"))
        record.played_at_text = played_at_text(meta)
        apply_result(record, result)
        record.updated_at = utcnow()  # incremental pulls: updated_since
        try:
            # the game's row first (on PostgreSQL it is locked from now on: a replay of the old
            # log being stored meanwhile waits, then sees the new log; see _save_replay), then
            # its replays go
            session.flush()
            session.execute(delete(StoredReplay).where(StoredReplay.game_id == record.id))
            session.commit()
        except IntegrityError:
            session.rollback()
            raise LogTaken(digest) from None
    return result


def link_branch(session: Session, record: GameRecord, source: GameRecord, step: int) -> None:
    """Mark ``record`` as a what-if branch of ``source`` at ``step``."""
    with sqlite_writer(session):
        record.branch_of_id, record.branch_step = source.id, step
        session.commit()


def branch_source(session: Session, record: GameRecord) -> GameRecord | None:
    return None if record.branch_of_id is None else session.get(GameRecord, record.branch_of_id)


def known_players(session: Session, limit: int = 300) -> list[str]:
    """Player names of the public games (the recorder offers them), most frequent first: a
    name seen only in unlisted games is never offered (issue 25, finding 5)."""
    query = (select(GamePlayer.name).join(GameRecord, GameRecord.id == GamePlayer.game_id)
             .where(GameRecord.visibility == "public").group_by(GamePlayer.name)
             .order_by(func.count().desc(), GamePlayer.name).limit(limit))
    return list(session.scalars(query).all())


def branches_of(session: Session, record: GameRecord) -> Sequence[GameRecord]:
    """The what-if branches stored from a game, by step then age."""
    query = (select(GameRecord).where(GameRecord.branch_of_id == record.id)
             .order_by(GameRecord.branch_step, GameRecord.created_at, GameRecord.id))
    return session.scalars(query).all()


# --- delete --------------------------------------------------------------------------------------


def delete_game(session: Session, record: GameRecord) -> None:
    """Delete a game, leaving its tombstone (an export ``with_deleted`` tells mirrors)."""
    with sqlite_writer(session):
        session.execute(delete(GamePlayer).where(GamePlayer.game_id == record.id))
        session.merge(DeletedGame.of(record))
        session.delete(record)
        session.commit()


# --- replays -------------------------------------------------------------------------------------

def replay_text(session: Session, record: GameRecord, *, wait: float | None = None) -> bytes:
    """The stored replay (:func:`replay_gzip`) decompressed: the result object with ``steps`` as
    compact JSON, UTF-8, for a client that does not take gzip and for the replay page."""
    return gzip.decompress(replay_gzip(session, record, wait=wait))


def replay_etag(record: GameRecord) -> str:
    """The replay's entity tag: the log's hash and the engine version."""
    return f"{record.content_hash[:40]}.{ENGINE_VERSION}"


# Replays are kept encoded, never as parsed objects: a replay with steps is tens of thousands of
# Python objects, and a cache of them made every full garbage collection of a worker walk millions
# of objects (pauses of 100 to 400 ms, measured with `popreplay bench`). Bytes are one object each.
# They are gzip-compressed (a 5-player battle: 156 KiB of JSON, 11 KiB stored): the database and
# its write-ahead log grow 15 times slower, so SQLite's checkpoints (each a pause of tens of
# milliseconds for the request that triggers it) come 15 times less often.
_BYTES_CACHE_SIZE = 128
_replay_gzip: OrderedDict[tuple[str, str], StoredBytes] = OrderedDict()
_replays_lock = threading.Lock()


# cyclic_gc_paused (budget.py): no cyclic garbage collection while a replay is built and encoded


@dataclass(frozen=True, slots=True)
class StoredBytes:
    """A replay as kept: gzip-compressed JSON and its number of steps (what a page needs of it
    without parsing it: a long illegal game's page once parsed 22 MB per view for that)."""

    body: bytes
    step_count: int


_computing: dict[tuple[str, str], threading.Event] = {}
_unsaved: dict[tuple[str, str], StoredBytes] = {}  # computed in the background, not stored yet


class ReplayPending(Exception):
    """A first replay took longer than a request waits for it (``POPREPLAY_REPLAY_WAIT``): it goes
    on in the background and is kept when done; the request is answered 503 with Retry-After."""


RETRY_PENDING_SECONDS = 2


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
    key = (digest, ENGINE_VERSION)  # the log's bytes decide the replay
    while True:
        with _replays_lock:
            cached = _replay_gzip.get(key)
            if cached is not None:
                _replay_gzip.move_to_end(key)
                unsaved = _unsaved.pop(key, None)
                break
            running = _computing.get(key)
            if running is None:
                running = _computing[key] = threading.Event()
                cached = None
                break
        # computed by another request of this process: then from the cache
        if not running.wait(60 if wait is None else wait) and wait is not None:
            raise ReplayPending()
    if cached is not None:
        if unsaved is not None:
            _save_replay(session, record, unsaved, of=digest)
        return cached
    handed_off = False
    try:
        row = session.execute(select(StoredReplay.body, StoredReplay.step_count).join(
            GameRecord, GameRecord.id == StoredReplay.game_id).where(
            StoredReplay.game_id == record.id, GameRecord.content_hash == digest,
            StoredReplay.engine_version == ENGINE_VERSION)).first()
        if row is None:
            _before_computing()
        if row is not None:
            stored = StoredBytes(row[0], row[1])
        elif wait is None:
            with cyclic_gc_paused():
                stored = encode_replay(raw)
            _save_replay(session, record, stored, of=digest)
        else:
            job = _beside(record, raw, digest)
            with cyclic_gc_paused():
                done = job.wait(wait)
            if not done:
                job.when_done(lambda value: _computed_meanwhile(key, running, value))
                handed_off = True
                raise ReplayPending()
            stored = job.value()
            _save_replay(session, record, stored, of=digest)
        with _replays_lock:
            _replay_gzip[key] = stored
            while len(_replay_gzip) > _BYTES_CACHE_SIZE:
                _replay_gzip.popitem(last=False)
        return stored
    finally:
        if not handed_off:
            with _replays_lock:
                _computing.pop(key, None)
            running.set()


def encode_replay(raw: bytes) -> StoredBytes:
    """A log's replay with steps as stored: compact JSON, UTF-8, gzip; and its step count."""
    from .api.jsonout import compact

    result = check_text(raw, with_steps=True)
    step_count = len(result.get("steps") or ())
    text = compact(result).encode("utf-8")
    del result
    return StoredBytes(gzip.compress(text, compresslevel=6, mtime=0), step_count)


def _save_replay(session: Session, record: GameRecord, stored: StoredBytes, *,
                 of: str) -> None:
    """Store a replay computed from the log whose :func:`content_hash` is ``of``, only if that
    is still the game's log: the game's row is read (and locked, on PostgreSQL) in the same
    transaction, so a ``PUT`` of a new log (which changes the row first, then drops the stored
    replays) and this store come one after the other, and a replay of an older log is never kept
    for a newer one (issue 25, finding 3)."""
    try:
        with sqlite_writer(session):
            now = session.execute(select(GameRecord.content_hash).where(
                GameRecord.id == record.id).with_for_update()).scalar()
            if now == of:
                session.add(StoredReplay(game_id=record.id, engine_version=ENGINE_VERSION,
                                         body=stored.body, step_count=stored.step_count))
            session.commit()
    except IntegrityError:  # stored meanwhile by another process, or the game is gone
        session.rollback()


def _computed_meanwhile(key: tuple[str, str], running: threading.Event,
                        stored: StoredBytes | None) -> None:
    """A replay a request stopped waiting for is done (``None``: it failed): kept in the cache
    and stored by the next fetch; the fetches waiting for it go on."""
    with _replays_lock:
        if stored is not None:
            _replay_gzip[key] = stored
            _unsaved[key] = stored
            while len(_replay_gzip) > _BYTES_CACHE_SIZE:
                _unsaved.pop(_replay_gzip.popitem(last=False)[0], None)
        _computing.pop(key, None)
    running.set()


def _beside(record: GameRecord, raw: bytes, digest: str) -> Any:
    """A first replay's computation beside the request: on a worker when a broker is configured
    (``popreplay.queue``), else in this process (``budget.Background``); both for the log whose
    content hash is ``digest``."""
    from .queue import remote_replay

    return remote_replay(record, of=digest) or _Background(encode_replay, raw)


def _before_computing() -> None:
    """A request is about to compute a replay: the per-client limit on that (api/ratelimit.py,
    which registers the guard; it raises past the limit)."""
    from flask import current_app, has_request_context

    guard = current_app.extensions.get("popreplay_replay_guard") if has_request_context() else None
    if guard is not None:
        guard()


# --- export --------------------------------------------------------------------------------------


def export_entry(record: GameRecord, *, backup: bool = False) -> dict[str, Any]:
    """One line of an export: the log as text (its exact bytes, UTF-8) and what identifies the
    game; :func:`restore` reads it back. ``backup`` adds the owner token's hash."""
    entry: dict[str, Any] = {
        "id": record.id,
        "slug": record.slug,
        "visibility": record.visibility,
        "created_at": record.created_at.isoformat(),
        "played_at": None if record.played_at is None else record.played_at.isoformat(),
        "game": record.game,
        "mode": record.mode,
        "players": record.players,
        "title": record.title,
        "status": record.status,
        "legal": record.legal,
        "engine": record.engine_version,
        "sha256": record.content_hash,
        "log": record.log.decode("utf-8"),
    }
    if backup:
        entry["owner_token_hash"] = record.owner_token_hash
    return entry


def is_export_entry(data: Any) -> bool:
    return (isinstance(data, dict) and "format" not in data and isinstance(data.get("log"), str)
            and isinstance(data.get("sha256"), str))


# --- revalidate ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Revalidated:
    record: GameRecord
    before: dict[str, Any]
    after: dict[str, Any]

    @property
    def changed(self) -> bool:
        return _comparable(self.before) != _comparable(self.after)


def _comparable(result: dict[str, Any]) -> str:
    return json.dumps({k: v for k, v in result.items() if k != "engine"}, sort_keys=True,
                      ensure_ascii=False)


def drop_stale_replays(session: Session, *, dry_run: bool = False) -> int:
    """Delete the stored replays of other engine versions (this code never serves them: a replay
    is looked up by the running version); how many there were. ``dry_run`` only counts them."""
    stale = StoredReplay.engine_version != ENGINE_VERSION
    if dry_run:
        return session.scalar(select(func.count()).select_from(StoredReplay).where(stale)) or 0
    with sqlite_writer(session):
        dropped = session.execute(delete(StoredReplay).where(stale)).rowcount
        session.commit()
    return dropped


def _check_record(record: GameRecord) -> dict[str, Any]:
    return check_text(record.log)


def revalidate(session: Session, *, dry_run: bool = False, batch: int = 100,
               shard: tuple[int, int] | None = None, ids: tuple[int, int] | None = None,
               before_commit: Callable[[Session, list[Revalidated]], None] | None = None,
               check: Callable[[GameRecord], dict[str, Any]] | None = None,
               ) -> Iterator[Revalidated]:
    """Recompute every stored game's result with the running engine; yield one
    :class:`Revalidated` per game (``changed`` tells whether the result differs). Unless
    ``dry_run``, store the new results (and engine version), one transaction per batch, and drop
    the stored replays of the games whose result changed (the rules changed under one engine
    version: their steps may have changed too; they are recomputed on the next fetch).
    ``shard=(k, n)``: only the games whose id is ``k`` modulo ``n`` (one of n processes).
    ``ids=(first, last)``: only the games with ids in that range (a chunk of ``popreplay.queue``);
    ``before_commit(session, batch)`` runs in each batch's transaction before it is committed
    (it may raise to roll the batch back); ``check(record)`` replaces :func:`check_text` of its log (a
    chunk's guard against a game that crashes the engine)."""
    check = check or _check_record
    last = 0 if ids is None else ids[0] - 1
    mine = [] if shard is None else [GameRecord.id % shard[1] == shard[0]]
    if ids is not None:
        mine.append(GameRecord.id <= ids[1])
    while True:
        rows = session.scalars(select(GameRecord).where(GameRecord.id > last, *mine)
                               .options(undefer(GameRecord.log))
                               .order_by(GameRecord.id).limit(batch)).all()
        results = [(record, record.result, check(record)) for record in rows]
        if not dry_run:
            # Nothing is written before the writer's turn (``apply_result`` may load seats, and
            # loading flushes what is pending): on SQLite the turn always comes before its lock.
            with sqlite_writer(session):
                changed = []
                for record, before, after in results:
                    if Revalidated(record, before, after).changed:
                        changed.append(record.id)
                        record.updated_at = utcnow()  # incremental pulls: updated_since
                    apply_result(record, after)
                if changed:  # their stored replays were computed by other rules: recompute
                    session.execute(delete(StoredReplay).where(StoredReplay.game_id.in_(changed)))
                    with _replays_lock:
                        for record, _, _ in results:
                            if record.id in changed:
                                _replay_gzip.pop((record.content_hash, ENGINE_VERSION), None)
                if before_commit is not None:
                    before_commit(session, [Revalidated(*item) for item in results])
                session.commit()
        for record, before, after in results:
            yield Revalidated(record, before, after)
        if dry_run:
            session.rollback()
        if len(rows) < batch or (ids is not None and rows[-1].id >= ids[1]):
            return
        last = rows[-1].id
