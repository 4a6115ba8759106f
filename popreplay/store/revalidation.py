"""Recomputing the stored results with the running engine (``popreplay revalidate``, a chunk of
``popreplay.queue``)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Mapping

from sqlalchemy import delete, select
from sqlalchemy.orm import Session, undefer

from ..checking import check_text
from ..i18n import without_ids
from ..logformat.types import Result
from ..db.models import GameRecord, StoredReplay
from ..db.session import sqlite_writer
from ..db.types import utcnow
from .records import apply_result
from .replays import forget_replay

__all__ = ["Revalidated", "check_record", "revalidate"]


@dataclass(frozen=True, slots=True)
class Revalidated:
    record: GameRecord
    before: dict[str, Any]
    after: Result

    @property
    def changed(self) -> bool:
        return _comparable(self.before) != _comparable(self.after)


def _comparable(result: Mapping[str, Any]) -> str:
    """The published result without the engine's version: a row stored before message ids were
    kept compares equal to the same result with them (revalidating stores the ids)."""
    return json.dumps({k: v for k, v in without_ids(result).items() if k != "engine"},
                      sort_keys=True, ensure_ascii=False)


def check_record(record: GameRecord) -> Result:
    """A stored game's result by the running engine (what :func:`revalidate` checks by default)."""
    return check_text(record.log)


def revalidate(session: Session, *, dry_run: bool = False, batch: int = 100,
               shard: tuple[int, int] | None = None, ids: tuple[int, int] | None = None,
               before_commit: Callable[[Session, list[Revalidated]], None] | None = None,
               check: Callable[[GameRecord], Result] | None = None,
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
    check = check or check_record
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
                    apply_result(record, result=after)
                if changed:  # their stored replays were computed by other rules: recompute
                    session.execute(delete(StoredReplay).where(StoredReplay.game_id.in_(changed)))
                    for record, _, _ in results:
                        if record.id in changed:
                            forget_replay(record)
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
