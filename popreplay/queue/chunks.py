"""The work of one chunk, whoever does it (in-process or a worker): revalidate a range of game
ids, or import a list of logs. Each returns its outcome as JSON-ready data; a game that crashes
the engine is reported in ``poison`` (its stored result left as it was), never retried."""

from __future__ import annotations

import traceback
from typing import Any, Callable, Iterable

from sqlalchemy import select
from sqlalchemy.orm import Session

DEFAULT_CHUNK = 500  # games per chunk: about 0.2 s of one core for typical logs


def chunk_ranges(session: Session, *, size: int) -> list[tuple[int, int, int]]:
    """The stored games in id order, cut into chunks of ``size``: (first id, last id, count)."""
    from ..db.models import GameRecord

    ids = session.scalars(select(GameRecord.id).order_by(GameRecord.id)).all()
    return [(ids[start], ids[min(start + size, len(ids)) - 1], min(size, len(ids) - start))
            for start in range(0, len(ids), size)]


def revalidate_chunk(session: Session, *, first: int, last: int, dry_run: bool,
                     before_commit: Callable[[Session, dict[str, Any]], None] | None = None,
                     ) -> dict[str, Any]:
    """Revalidate the games with ids ``first``..``last`` in one transaction:
    ``{"checked", "changes": [{id, slug, before, after}], "poison": [{id, slug, error}]}``.
    ``before_commit(session, outcome)`` runs in that transaction (a worker marks its chunk done
    there; it may raise to roll everything back). With ``dry_run`` only its call is committed."""
    from ..logformat.types import Result, as_result
    from ..store import revalidation

    poison: list[dict[str, Any]] = []

    def guarded(record: Any) -> Result:
        try:
            return revalidation.check_record(record)
        except Exception as error:  # a game that crashes the engine: reported, left as stored
            poison.append({"id": record.id, "slug": record.slug, "error": error_line(error)})
            return as_result(record.result)

    def outcome_of(items: list[Any]) -> dict[str, Any]:
        return {"checked": len(items), "poison": poison,
                "changes": [{"id": item.record.id, "slug": item.record.slug,
                             "before": item.before, "after": item.after}
                            for item in items if item.changed]}

    outcome: dict[str, Any] = {}

    def hook(inner: Session, items: list[Any]) -> None:
        outcome.update(outcome_of(items))
        if before_commit is not None:
            before_commit(inner, outcome)

    items = list(revalidation.revalidate(session, dry_run=dry_run, ids=(first, last),
                                         batch=last - first + 1, check=guarded,
                                         before_commit=None if dry_run else hook))
    if dry_run:
        outcome.update(outcome_of(items))
        if before_commit is not None:
            from ..db.session import sqlite_writer

            with sqlite_writer(session):
                before_commit(session, outcome)
                session.commit()
    return outcome


def import_chunk(session: Session, *, items: Iterable[tuple[str, bytes | None]],
                 visibility: str, stored_since: Any = None) -> dict[str, Any]:
    """Import logs (or export lines): ``{"outcomes": [[source, kind, problem, slug]], "poison"}``
    with kind stored | illegal | duplicate | invalid, as ``popreplay import`` counts them.

    ``stored_since`` (a chunk done again after its worker died): a "duplicate" of a game stored
    since then by this chunk's earlier attempt counts as what that attempt stored."""
    from ..store.imports import import_item

    outcomes: list[list[Any]] = []
    poison: list[dict[str, Any]] = []
    for source, raw in items:
        try:
            kind, problem, slug = import_item(session, source=source, raw=raw,
                                              visibility=visibility)
        except Exception as error:  # a log that crashes the engine: reported, not stored
            session.rollback()
            poison.append({"source": source, "error": error_line(error)})
            kind, problem, slug = "invalid", f"{source}: crashed the engine: {error_line(error)}", None
        if kind == "duplicate" and stored_since is not None and raw is not None:
            kind, slug = _stored_by_earlier_attempt(session, raw, stored_since) or (kind, slug)
        outcomes.append([source, kind, problem, slug])
    return {"outcomes": outcomes, "poison": poison}


def _stored_by_earlier_attempt(session: Session, raw: bytes,
                               since: Any) -> tuple[str, str] | None:
    from ..store.lookups import find_by_hash
    from ..store.tokens import content_hash

    record = find_by_hash(session, content_hash(raw))
    if record is None or record.created_at < since:
        return None
    return ("stored" if record.legal else "illegal"), record.slug


def error_line(error: BaseException) -> str:
    frame = traceback.extract_tb(error.__traceback__)[-1:] if error.__traceback__ else []
    where = f" ({frame[0].filename.rsplit('/', 1)[-1]}:{frame[0].lineno})" if frame else ""
    return f"{type(error).__name__}: {error}{where}"
