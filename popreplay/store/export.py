"""Exports a client can keep a copy in step with, and the other end: applying them.

* NDJSON (``GET /api/v1/games/export``, ``popreplay export``): one game per line in the order
  this database stored them (by number); with ``with_deleted``, the tombstones of the games
  deleted in the same time window come first (``{"deleted": true, "slug": ...}``), so that a
  mirror that applies the lines in order deletes before it stores (a log deleted and uploaded
  again is one game, under a new slug).
* CSV (``GET /api/v1/games/export.csv``, ``popreplay export --csv``): one row per player per
  game, RFC 4180 (CRLF, quotes doubled), UTF-8, a header row.
* :func:`apply_entry` (``popreplay import``): stores a game it does not have, replaces the log
  of a game corrected at the source (same slug, other bytes), re-checks one whose result changed
  there, deletes on a tombstone. Applied twice, a line changes nothing.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Iterator

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..checking import check_text
from ..db import queries
from ..db.models import DeletedGame, GameRecord
from ..db.session import sqlite_writer
from ..engine import GAMES
from .edits import LogTaken, delete_game, update_log
from .ingestion import Ingested, restore
from .lookups import find_by_slug
from .records import apply_result
from .revalidation import Revalidated

__all__ = ["CSV_COLUMNS", "Synced", "apply_entry", "csv_lines", "export_entry", "game_entry",
           "is_export_entry", "is_stream_entry", "ndjson_entries"]

CSV_COLUMNS = ("game", "mode", "date", "title", "player", "score", "rank", "won", "status",
               "legal", "claims_differ", "share_link", "slug")
# A cell a spreadsheet would run as a formula (OWASP "CSV injection") starts with a quote.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


# --- NDJSON ---------------------------------------------------------------------------------------


def export_entry(record: GameRecord, *, backup: bool = False) -> dict[str, Any]:
    """One line of an export: what identifies the game, its result (``result_entry``; the
    seats must be loaded), the log as an object (``log``) and as its exact bytes (``raw_log``,
    UTF-8 text: what ``sha256`` hashes and what :func:`apply_entry` stores). ``backup`` adds
    the owner token's hash."""
    raw = record.log.decode("utf-8")
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
        "result": result_entry(record),
        "log": json.loads(raw),
        "raw_log": raw,
    }
    if backup:
        entry["owner_token_hash"] = record.owner_token_hash
    return entry


def result_entry(record: GameRecord) -> dict[str, Any]:
    """The stored result as an export line carries it: enough to count wins and compare scores
    without the engine. ``players`` in seat order, each with its ``score`` and ``rank`` (by
    score, ties share a rank; null where the game has no scores) and whether it ``won``."""
    rank = ranks(record)
    return {
        "status": record.status,
        "legal": record.legal,
        "engine": record.engine_version,
        "winners": [seat.name for seat in record.seats if seat.won],
        "players": [{"name": seat.name, "score": seat.score, "rank": rank.get(seat.position),
                     "won": seat.won} for seat in record.seats],
        "claims_differ": None if record.claims_match is None else not record.claims_match,
        "outcome": record.outcome,
    }


def raw_log(data: dict[str, Any]) -> Any:
    """An export line's log as its exact text: ``raw_log``, or ``log`` when it is text (the
    lines of exports before ``raw_log``)."""
    return data["raw_log"] if "raw_log" in data else data.get("log")


def is_export_entry(data: Any) -> bool:
    return (isinstance(data, dict) and "format" not in data
            and isinstance(raw_log(data), str) and isinstance(data.get("sha256"), str))


def game_entry(record: GameRecord, *, backup: bool = False) -> dict[str, Any]:
    """An export line: :func:`export_entry` with when this database stored the game and
    when it last changed (what ``since`` and ``updated_since`` compare)."""
    entry = export_entry(record, backup=backup)
    entry["stored_at"] = record.stored_at.isoformat()
    entry["updated_at"] = record.updated_at.isoformat()
    return entry


def tombstone_entry(tombstone: DeletedGame) -> dict[str, Any]:
    return {"deleted": True, "id": tombstone.id, "slug": tombstone.slug,
            "sha256": tombstone.content_hash, "deleted_at": tombstone.deleted_at.isoformat()}


def is_tombstone(data: Any) -> bool:
    return (isinstance(data, dict) and data.get("deleted") is True
            and isinstance(data.get("slug"), str))


def tombstones(session: Session, filters: queries.Filters, *,
               include_unlisted: bool = False) -> list[DeletedGame]:
    """The games deleted within the filters' time window (``since``/``updated_since`` and
    ``until`` compared with the time of deletion), oldest deletion first. The other filters do
    not apply: a tombstone keeps no game, mode or player."""
    query = select(DeletedGame).order_by(DeletedGame.deleted_at, DeletedGame.id)
    starts = [t for t in (filters.since, filters.updated_since) if t is not None]
    if starts:
        query = query.where(DeletedGame.deleted_at >= max(starts))
    if filters.until is not None:
        query = query.where(DeletedGame.deleted_at < filters.until)
    if not include_unlisted:
        query = query.where(DeletedGame.visibility == "public")
    rows = list(session.scalars(query).all())
    session.expunge_all()
    session.rollback()  # like queries.export_records: no transaction held while streaming
    return rows


def ndjson_entries(session: Session, filters: queries.Filters, *, with_deleted: bool = False,
                   backup: bool = False) -> Iterator[dict[str, Any]]:
    """The export's lines: tombstones first (``with_deleted``), then the games by number."""
    if with_deleted:
        for tombstone in tombstones(session, filters, include_unlisted=backup):
            yield tombstone_entry(tombstone)
    for record in queries.export_records(session, filters, include_unlisted=backup, seats=True):
        yield game_entry(record, backup=backup)


# --- CSV ------------------------------------------------------------------------------------------


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    text = str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def ranks(record: GameRecord) -> dict[int, int]:
    """Each seat's rank by score (1 is best; ties share a rank, the next rank is skipped), for
    the games whose outcome has scores; no rank where it has none."""
    lower_wins = getattr(GAMES.get(record.game), "lower_score_wins", True)
    scores = {seat.position: seat.score for seat in record.seats if seat.score is not None}
    better = (lambda a, b: a < b) if lower_wins else (lambda a, b: a > b)
    return {position: 1 + sum(better(other, score) for other in scores.values())
            for position, score in scores.items()}


def csv_rows(record: GameRecord, share_base: str) -> list[list[str]]:
    """One row per player, in seat order (the columns of :data:`CSV_COLUMNS`)."""
    rank = ranks(record)
    claims_differ = None if record.claims_match is None else not record.claims_match
    date = None if record.played_at is None else record.played_at.isoformat()
    # the slug as it is (letters, digits, "_" and "-": no formula can be written with them;
    # quoting one that starts with "-" would change the key a reader joins on)
    return [[_cell(v) for v in (
        record.game, record.mode, date, record.title, seat.name, seat.score,
        rank.get(seat.position), seat.won, record.status, record.legal, claims_differ,
        f"{share_base}/r/{record.slug}")] + [record.slug] for seat in record.seats]


def _csv_text(rows: list[list[str]]) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows(rows)
    return out.getvalue()


def csv_lines(session: Session, filters: queries.Filters, *, share_base: str,
              backup: bool = False) -> Iterator[str]:
    """The table as text, the header first, then one game's rows at a time (streamed)."""
    records = queries.export_records(session, filters, include_unlisted=backup, seats=True,
                                     log=False)
    first = next(records, None)  # the database answers before the header goes out
    yield _csv_text([list(CSV_COLUMNS)])
    if first is not None:
        yield _csv_text(csv_rows(first, share_base))
    for record in records:
        yield _csv_text(csv_rows(record, share_base))


# --- applying an export (popreplay import) --------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Synced:
    """An export line that changed a game already stored, or deleted one: ``kind`` is
    ``updated``, ``deleted`` or ``duplicate`` (nothing to do)."""

    kind: str
    record: GameRecord | None = None


def is_stream_entry(data: Any) -> bool:
    return is_export_entry(data) or is_tombstone(data)


def apply_entry(session: Session, data: dict[str, Any]) -> Ingested | Synced:
    """Apply one export line. Raises ``ValueError`` or
    :class:`~popreplay.store.records.InvalidLog` (nothing changed) for a line that cannot be
    applied."""
    if is_tombstone(data):
        record = find_by_slug(session, data["slug"])
        if record is None:
            return Synced("duplicate")
        delete_game(session, record)
        return Synced("deleted")
    data = {**data, "log": raw_log(data)}  # the exact text: what is stored and hashed
    slug = data.get("slug")
    record = find_by_slug(session, slug) if isinstance(slug, str) else None
    changed_at = _time(data.get("updated_at"))
    if record is None:
        done = restore(session, data)
        if done.created:
            _keep_times(session, done.record, _time(data.get("stored_at")), changed_at)
        return done
    if record.content_hash != data.get("sha256"):  # corrected at the source
        try:
            update_log(session, record, raw=data["log"].encode("utf-8"))
        except UnicodeEncodeError:
            raise ValueError("the exported log is not UTF-8 text") from None
        except LogTaken:
            raise ValueError(f"another game already has the log of {slug}") from None
        _keep_times(session, record, None, changed_at)
        return Synced("updated", record)
    if changed_at is None or changed_at <= record.updated_at:
        return Synced("duplicate", record)
    after = check_text(record.log)  # its result changed at the source since: check it here too
    changed = Revalidated(record, record.result, after).changed
    with sqlite_writer(session):
        apply_result(record, result=after)
        record.updated_at = changed_at
        session.commit()
    return Synced("updated" if changed else "duplicate", record)


def _keep_times(session: Session, record: GameRecord, stored_at: datetime | None,
                updated_at: datetime | None) -> None:
    """A copy keeps the source's times (as it keeps ``created_at`` and the slug): its export is
    the source's, byte for byte. An export line without them (older servers) keeps the copy's."""
    if stored_at is None and updated_at is None:
        return
    with sqlite_writer(session):
        record.stored_at = stored_at or record.stored_at
        record.updated_at = updated_at or record.updated_at
        session.commit()


def _time(value: Any) -> datetime | None:
    try:
        when = datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        return None
    return None if when is None or when.tzinfo is None else when
