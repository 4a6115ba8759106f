"""Many stored games, cheaply, for the queue's benchmark (scripts/queuebench) and tests: a few
real logs stored through ``ingest``, then copies of them under other hashes and slugs
(revalidation reads only the log). Not used by the service."""

from __future__ import annotations

import hashlib
import json
import uuid

from typing import cast

import sqlalchemy as sa

from ..db.models import GameRecord


def store_copies(db_url: str, count: int, *, stale: bool = True, distinct: int = 5) -> list[int]:
    """``count`` stored games (``distinct`` real ones, the rest copies). ``stale``: their stored
    results are wrong (status, engine version), so every game revalidated shows as changed.
    Their ids, in order."""
    from .. import create_app
    from ..store.ingestion import ingest
    from ..db import migrate
    from ..db.session import get_database
    from ..engine import get_game

    migrate.upgrade(db_url)
    app = create_app({"DATABASE_URL": db_url, "TESTING": True})
    database = get_database(app)
    with app.app_context():
        session = database.session()
        seeds = []
        for n in range(distinct):
            log = get_game("pop").simulate(mode="battle", players=3, seed=900 + n)
            seeds.append(ingest(session, json.dumps(log).encode()).record.id)
        session.close()
    table = cast(sa.Table, GameRecord.__table__)  # a mapped class's table
    columns = [c for c in table.columns if c.name != "id"]
    with database.engine.begin() as connection:
        rows = [dict(r._mapping) for r in connection.execute(
            sa.select(*columns).where(table.c.id.in_(seeds)))]
        run = uuid.uuid4().hex
        copies = []
        for n in range(count - len(rows)):
            row = dict(rows[n % len(rows)])
            digest = hashlib.sha256(f"copy {n} {run}".encode()).hexdigest()
            row.update(content_hash=digest, canonical_hash=digest, slug=f"c{digest[:11]}")
            copies.append(row)
            if len(copies) == 2000:
                connection.execute(table.insert(), copies)
                copies = []
        if copies:
            connection.execute(table.insert(), copies)
        if stale:
            connection.execute(table.update().values(status="incomplete",
                                                     engine_version="0.0.0"))
        ids = list(connection.scalars(sa.select(table.c.id).order_by(table.c.id)))
    database.dispose()
    return ids
