"""what-if branches: a game may branch from another game's step (the recorder); played_at_text

``games.played_at_text``: ``meta.played_at`` as the log wrote it (local time and offset), filled
for the stored games, so that lists show the local time of play without loading any log.

``games.branch_of_id`` (the game it branched from; set to NULL when that game is deleted) and
``games.branch_step`` (the step, 0-based). Existing games are no branch.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-30
"""

from __future__ import annotations

import json
from typing import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _games_batch():  # SQLite rebuilds the table: keep its ids never reused (revision 0004)
    sqlite = op.get_bind().dialect.name == "sqlite"
    return op.batch_alter_table(
        "games", table_kwargs={"sqlite_autoincrement": True} if sqlite else {})


def upgrade() -> None:
    with _games_batch() as batch:
        batch.add_column(sa.Column("branch_of_id", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("branch_step", sa.Integer(), nullable=True))
        batch.create_foreign_key("fk_games_branch_of_id_games", "games", ["branch_of_id"], ["id"],
                                 ondelete="SET NULL")
        batch.create_index("ix_games_branch_of_id", ["branch_of_id"])
    op.add_column("games", sa.Column("played_at_text", sa.String(length=40), nullable=True))
    _fill_played_at_text(op.get_bind())


def _fill_played_at_text(connection: sa.Connection) -> None:
    from popreplay.store import played_at_text

    games = sa.table("games", sa.column("id", sa.Integer), sa.column("log", sa.LargeBinary),
                     sa.column("played_at_text", sa.String))
    last = 0
    while True:  # in batches: logs may be large
        rows = connection.execute(sa.select(games.c.id, games.c.log).where(games.c.id > last)
                                  .order_by(games.c.id).limit(200)).all()
        for game_id, raw in rows:
            try:
                log = json.loads(bytes(raw).decode("utf-8-sig"))
            except ValueError:
                continue
            meta = log.get("meta") if isinstance(log, dict) else None
            text = played_at_text(meta) if isinstance(meta, dict) else None
            if text is not None:
                connection.execute(games.update().where(games.c.id == game_id)
                                   .values(played_at_text=text))
        if len(rows) < 200:
            return
        last = rows[-1][0]


def downgrade() -> None:
    with _games_batch() as batch:
        batch.drop_column("played_at_text")
        batch.drop_index("ix_games_branch_of_id")
        batch.drop_constraint("fk_games_branch_of_id_games", type_="foreignkey")
        batch.drop_column("branch_step")
        batch.drop_column("branch_of_id")
