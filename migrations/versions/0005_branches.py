"""what-if branches: a game may branch from another game's step (the recorder)

``games.branch_of_id`` (the game it branched from; set to NULL when that game is deleted) and
``games.branch_step`` (the step, 0-based). Existing games are no branch.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-30
"""

from __future__ import annotations

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


def downgrade() -> None:
    with _games_batch() as batch:
        batch.drop_index("ix_games_branch_of_id")
        batch.drop_constraint("fk_games_branch_of_id_games", type_="foreignkey")
        batch.drop_column("branch_step")
        batch.drop_column("branch_of_id")
