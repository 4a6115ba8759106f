"""stored replays: the encoded replay of a game, per engine version

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""

from __future__ import annotations

from typing import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "replays",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("engine_version", sa.String(length=32), nullable=False),
        sa.Column("body", sa.LargeBinary(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"],
                                name=op.f("fk_replays_game_id_games"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "engine_version", name=op.f("pk_replays")),
    )


def downgrade() -> None:
    op.drop_table("replays")
