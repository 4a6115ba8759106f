"""games: a unique hash of the canonical content; SQLite never gives a deleted game's id again;
replays keep their step count; seats keep their folded name

``canonical_hash`` (``popreplay.store.canonical_hash``: the parsed log, NFC, sorted compact JSON)
is computed for every stored game, oldest first. When several stored games have the same content
(uploaded before this revision in other whitespace, key order, escapes or normalisation), the
oldest keeps the hash and the others keep NULL: they stay readable at their links, and the
migration reports each of them (id, slug, and the id of the game it repeats) on standard error,
so that an operator can delete or unlist them. New uploads of the same content find the one game.

On SQLite the ``games`` table is rebuilt with AUTOINCREMENT (ids of deleted games are never given
again; the table's rows, ids included, are copied as they are). PostgreSQL's sequence never reuses
an id: nothing to do there.

``replays`` (a cache of what the engine computes) gets ``step_count``, what a replay page needs
without parsing the replay; its rows are dropped, in both directions, and computed again on their
next fetch.

``game_players.name_folded`` (``popreplay.db.queries.folded_name``: accents dropped, case folded)
is what the list's ``player=`` filter matches; filled here for every stored seat.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30
"""

from __future__ import annotations

import json
import sys
from typing import Any, Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BATCH = 500


def _fill_hashes(connection: Any) -> list[tuple[int, str, int]]:
    """Hash every stored game, oldest id first; the duplicates found: (id, slug, first id)."""
    from popreplay.logformat import ShapeError, parse_json
    from popreplay.store import canonical_hash

    games = sa.table("games", sa.column("id", sa.Integer), sa.column("slug", sa.String),
                     sa.column("log", sa.LargeBinary), sa.column("canonical_hash", sa.String))
    seen: dict[str, int] = {}
    duplicates: list[tuple[int, str, int]] = []
    last = 0
    while True:
        rows = connection.execute(
            sa.select(games.c.id, games.c.slug, games.c.log).where(games.c.id > last)
            .order_by(games.c.id).limit(BATCH)).all()
        for game_id, slug, log in rows:
            try:
                digest: str | None = canonical_hash(parse_json(log))
            except (ShapeError, ValueError):  # not JSON any more? keep it, unhashed
                digest = None
            if digest is not None and digest in seen:
                duplicates.append((game_id, slug, seen[digest]))
                continue
            if digest is not None:
                seen[digest] = game_id
                connection.execute(games.update().where(games.c.id == game_id)
                                   .values(canonical_hash=digest))
        if len(rows) < BATCH:
            return duplicates
        last = rows[-1][0]


def _fill_folded_names(connection: Any) -> None:
    from popreplay.db.queries import folded_name

    with op.batch_alter_table("game_players") as batch:
        batch.add_column(sa.Column("name_folded", sa.Text(), nullable=True))
    seats = sa.table("game_players", sa.column("game_id", sa.Integer),
                     sa.column("position", sa.Integer), sa.column("name", sa.Text),
                     sa.column("name_folded", sa.Text))
    rows = connection.execute(sa.select(seats.c.game_id, seats.c.position, seats.c.name)).all()
    for game_id, position, name in rows:
        connection.execute(seats.update().where(seats.c.game_id == game_id,
                                                seats.c.position == position)
                           .values(name_folded=folded_name(name)))
    with op.batch_alter_table("game_players") as batch:
        batch.alter_column("name_folded", existing_type=sa.Text(), nullable=False)
        batch.create_index(op.f("ix_game_players_name_folded"), ["name_folded"])


def upgrade() -> None:
    op.execute("DELETE FROM replays")
    with op.batch_alter_table("replays") as batch:
        batch.add_column(sa.Column("step_count", sa.Integer(), nullable=False))
    connection = op.get_bind()
    sqlite = connection.dialect.name == "sqlite"
    with op.batch_alter_table(
            "games", recreate="always" if sqlite else "auto",
            table_kwargs={"sqlite_autoincrement": True} if sqlite else {}) as batch:
        batch.add_column(sa.Column("canonical_hash", sa.String(length=64), nullable=True))
    _fill_folded_names(connection)
    duplicates = _fill_hashes(connection)
    op.create_index(op.f("uq_games_canonical_hash"), "games", ["canonical_hash"], unique=True)
    total = connection.execute(sa.text("SELECT count(*) FROM games")).scalar()
    report = {"revision": "0004", "games": total, "duplicates": [
        {"id": game_id, "slug": slug, "same_as": first} for game_id, slug, first in duplicates]}
    if total:
        print(f"0004: {total} games hashed, {len(duplicates)} duplicates found (kept, without the "
              f"hash; delete or unlist them): {json.dumps(report['duplicates'])}",
              file=sys.stderr)


def downgrade() -> None:
    with op.batch_alter_table("game_players") as batch:
        batch.drop_index(op.f("ix_game_players_name_folded"))
        batch.drop_column("name_folded")
    op.execute("DELETE FROM replays")
    with op.batch_alter_table("replays") as batch:
        batch.drop_column("step_count")
    op.drop_index(op.f("uq_games_canonical_hash"), table_name="games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("canonical_hash")
