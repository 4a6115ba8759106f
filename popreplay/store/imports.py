"""One item of ``popreplay import`` (a log or an export line), whoever imports it: the command
line or a chunk of ``popreplay.queue``."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from ..logformat import ShapeError, parse_json
from .export import Synced, apply_entry, is_stream_entry
from .ingestion import Ingested, ingest
from .records import InvalidLog

__all__ = ["Outcome", "import_item", "import_one"]

Outcome = tuple[str, str | None, str | None]  # kind, problem, slug of a new game


def import_one(session: Session, raw: bytes, *, visibility: str) -> Ingested | Synced:
    """A log stored (:func:`~popreplay.store.ingestion.ingest`), or an export line applied (stored,
    updated or deleted: :func:`~popreplay.store.export.apply_entry`)."""
    try:
        data: Any = parse_json(raw)
    except ShapeError:
        data = None
    if is_stream_entry(data):
        return apply_entry(session, data)
    return ingest(session, raw, visibility=visibility)


def import_item(session: Session, *, source: str, raw: bytes | None, visibility: str) -> Outcome:
    """One log or export line: ("stored" | "illegal" | "duplicate" | "invalid" | "updated" |
    "deleted", problem, slug of the game stored). ``raw`` None: the source could not be read."""
    if raw is None:
        return "invalid", f"{source}: cannot read", None
    try:
        done = import_one(session, raw, visibility=visibility)
    except InvalidLog as invalid:
        first = invalid.result["errors"][0]
        return "invalid", f"{source}: invalid: {first['path'] or '/'}: {first['message']}", None
    except ValueError as error:
        return "invalid", f"{source}: invalid: {error}", None
    if isinstance(done, Synced):  # updated, deleted or nothing to do
        return done.kind, None, None
    if not done.created:
        return "duplicate", None, None
    return ("stored" if done.record.legal else "illegal"), None, done.record.slug
