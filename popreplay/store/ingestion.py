"""Storing a new game: an upload (:func:`ingest`) or an export line (:func:`restore`). The log is
stored byte for byte; the same game sent again (same bytes, or the same content in other bytes:
:func:`~popreplay.store.tokens.canonical_hash`) is the game already stored, found by one
duplicate check: an upload is inserted and the database's unique hashes refuse a game already
stored (:func:`_commit_new`, which then answers with that game), whether it came before or at
the same moment; an export line is looked for first (:func:`_already_stored`: its slug must not
be refused as taken by itself). One transaction per game."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Callable

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..checking import check_json
from ..logformat.types import Result, as_result
from ..db.models import VISIBILITIES, GameRecord
from ..db.session import sqlite_writer
from ..db.types import utcnow
from .lookups import find_by_canonical_hash, find_by_hash, find_by_slug, stored_game
from .records import (Checker, InvalidLog, apply_result, log_fields, parse_datetime, parse_log,
                      verify_log)
from .tokens import content_hash, new_owner_token, new_slug, token_hash

__all__ = ["Ingested", "ingest", "restore"]

_SLUG = re.compile(r"[A-Za-z0-9_-]{6,32}")
_SHA256 = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True, slots=True)
class Ingested:
    """What :func:`ingest` did: ``created`` is False when the same log was already stored (then
    ``owner_token`` is None: the token is shown once, to whoever stored the game first)."""

    record: GameRecord
    created: bool
    owner_token: str | None
    result: Result

    @classmethod
    def duplicate(cls, record: GameRecord) -> Ingested:
        """The game already stored for a log sent again."""
        return cls(record, False, None, as_result(record.result))


def ingest(session: Session, raw: bytes, *, visibility: str = "public",
           checker: Checker = check_json, owner_token: str | None = None,
           with_record: Callable[[GameRecord], None] | None = None) -> Ingested:
    """Check a log and store it with its result, or return the game already stored for it.

    Raises :class:`~popreplay.store.records.InvalidLog` (nothing stored) when the log is not JSON
    or not of the right shape. Legal and illegal logs are both stored. The same game in other
    bytes is the game already stored: the database's unique hashes refuse it and the stored game
    is the answer (``created`` False), the same check for an earlier and a concurrent upload
    (no lookup before the insert: a new game, the common case, costs one statement). ``checker``: how
    the parsed log's result is computed (the API's runs it beside the request, within its budget).
    ``owner_token``: the token to give (a new one by default); ``with_record``: what else the same
    transaction does with the new game (a table closed as it stores its game).
    """
    if visibility not in VISIBILITIES:
        raise ValueError(f"visibility must be one of {', '.join(VISIBILITIES)}")
    digest = content_hash(raw)
    data, identity = parse_log(raw)
    try:
        result = verify_log(data, checker=checker)
    except InvalidLog:  # stored before under rules that took it: that game, as before
        existing = stored_game(session, digest=digest, identity=identity)
        if existing is None:
            raise
        return Ingested.duplicate(existing)
    token = owner_token or new_owner_token()
    record = _new_record(raw, digest=digest, result=result, visibility=visibility,
                         owner_token_hash=token_hash(token), data=data, identity=identity)
    stored = _commit_new(session, record, with_record)
    if stored is not record:
        return Ingested.duplicate(stored)
    return Ingested(record, True, token, result)


def restore(session: Session, entry: dict[str, Any]) -> Ingested:
    """Store a game from an export line (``popreplay export``), keeping its slug, visibility,
    creation time and, in a backup, its owner token hash. The result is recomputed."""
    try:
        raw = entry.get("raw_log", entry["log"]).encode("utf-8")  # older exports: log as text
    except UnicodeEncodeError:
        raise ValueError("the exported log is not UTF-8 text") from None
    digest = content_hash(raw)
    if entry.get("sha256") not in (None, digest):
        raise ValueError("the exported log does not match its sha256")
    existing, data, identity = _already_stored(session, raw, digest=digest)
    if existing is not None:
        return Ingested.duplicate(existing)
    slug, token = entry.get("slug"), entry.get("owner_token_hash")
    if slug is not None and not (isinstance(slug, str) and _SLUG.fullmatch(slug)):
        raise ValueError("the exported slug is not a slug")
    if slug is not None and find_by_slug(session, slug) is not None:
        raise ValueError(f"the slug {slug} is already used by another game")
    if token is not None and not (isinstance(token, str) and _SHA256.fullmatch(token)):
        raise ValueError("the exported owner_token_hash is not a SHA-256")
    result = verify_log(data)
    record = _new_record(
        raw, digest=digest, result=result, data=data, identity=identity,
        visibility=entry.get("visibility", "public"),
        owner_token_hash=token,
        slug=slug,
        created_at=parse_datetime(entry.get("created_at")),
    )
    stored = _commit_new(session, record)
    return Ingested(stored, stored is record, None, as_result(stored.result))


def _already_stored(session: Session, raw: bytes, *,
                    digest: str) -> tuple[GameRecord | None, Any, str]:
    """The duplicate check of every new game: the game stored with exactly these bytes
    (``digest``: looked for before the log is even parsed), else the parsed log, its canonical
    hash and the game stored with that content (None: the game is new). Raises
    :class:`~popreplay.store.records.InvalidLog` when the bytes are not a log."""
    existing = find_by_hash(session, digest)
    if existing is not None:
        return existing, None, ""
    data, identity = parse_log(raw)
    return find_by_canonical_hash(session, identity), data, identity


def _commit_new(session: Session, record: GameRecord,
                with_record: Callable[[GameRecord], None] | None = None) -> GameRecord:
    """Store a new game in its own transaction (with what ``with_record`` does); the game that
    won a concurrent race to store the same log instead, when the database's unique hashes refuse
    this one (then nothing of this transaction is kept)."""
    try:
        with sqlite_writer(session):
            session.add(record)
            if with_record is not None:
                with_record(record)
            session.commit()
    except IntegrityError:
        session.rollback()
        existing = stored_game(session, digest=record.content_hash,
                               identity=record.canonical_hash or None)
        if existing is None:
            raise
        return existing
    return record


def _new_record(raw: bytes, *, digest: str, result: Result, visibility: str,
                owner_token_hash: str | None, data: Any, identity: str, slug: str | None = None,
                created_at: datetime | None = None) -> GameRecord:
    if visibility not in VISIBILITIES:
        raise ValueError(f"visibility must be one of {', '.join(VISIBILITIES)}")
    record = GameRecord(
        slug=slug or new_slug(),
        content_hash=digest,
        canonical_hash=identity,
        log=raw,
        **log_fields(data),
        visibility=visibility,
        owner_token_hash=owner_token_hash,
        created_at=created_at or utcnow(),
    )
    apply_result(record, result=result)
    return record
