"""incremental pulls: when a game was stored and last changed here; tombstones of deleted games

``games.stored_at``: when this database stored the game (``created_at`` is kept from an export by
``popreplay import``); ``games.updated_at``: when its log or result last changed here
(``revalidate``, a correction), else ``stored_at``. Both filled with ``created_at`` for the games
already stored. ``deleted_games``: one row per deleted game (number, slug, hash, visibility,
time), so that an export with ``with_deleted=true`` tells a mirror what to delete. Games deleted
before this revision left no tombstone.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

from typing import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _games_batch():  # SQLite rebuilds the table: keep its ids never reused (revision 0004)
    sqlite = op.get_bind().dialect.name == "sqlite"
    return op.batch_alter_table(
        "games", table_kwargs={"sqlite_autoincrement": True} if sqlite else {})


def upgrade() -> None:
    op.add_column("games", sa.Column("stored_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("games", sa.Column("updated_at", sa.DateTime(timezone=True), nullable=True))
    op.execute("UPDATE games SET stored_at = created_at, updated_at = created_at")
    with _games_batch() as batch:
        batch.alter_column("stored_at", existing_type=sa.DateTime(timezone=True), nullable=False)
        batch.alter_column("updated_at", existing_type=sa.DateTime(timezone=True), nullable=False)
        batch.create_index("ix_games_stored_at", ["stored_at"])
        batch.create_index("ix_games_updated_at", ["updated_at"])
    op.create_table(
        "deleted_games",
        sa.Column("id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("slug", sa.String(length=32), nullable=False),
        sa.Column("content_hash", sa.String(length=64), nullable=False),
        sa.Column("visibility", sa.String(length=16), nullable=False),
        sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_deleted_games"),
    )
    op.create_index("ix_deleted_games_slug", "deleted_games", ["slug"])
    op.create_index("ix_deleted_games_deleted_at", "deleted_games", ["deleted_at"])


def downgrade() -> None:
    op.drop_index("ix_deleted_games_deleted_at", table_name="deleted_games")
    op.drop_index("ix_deleted_games_slug", table_name="deleted_games")
    op.drop_table("deleted_games")
    with _games_batch() as batch:
        batch.drop_index("ix_games_updated_at")
        batch.drop_index("ix_games_stored_at")
        batch.drop_column("updated_at")
        batch.drop_column("stored_at")
