"""create games and game_players

Revision ID: 0001
Revises:
Create Date: 2026-11-30
"""

from __future__ import annotations

from typing import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("slug", sa.String(length=32), nullable=False),
        sa.Column("content_hash", sa.String(length=64), nullable=False),
        sa.Column("log", sa.LargeBinary(), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("mode", sa.String(length=32), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("title", sa.Text(), nullable=True),
        sa.Column("played_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("legal", sa.Boolean(), nullable=False),
        sa.Column("claims_match", sa.Boolean(), nullable=True),
        sa.Column("errors", sa.JSON(), nullable=False),
        sa.Column("outcome", sa.JSON(none_as_null=True), nullable=True),
        sa.Column("claims", sa.JSON(none_as_null=True), nullable=True),
        sa.Column("engine_version", sa.String(length=32), nullable=False),
        sa.Column("visibility", sa.String(length=16), nullable=False),
        sa.Column("owner_token_hash", sa.String(length=64), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("visibility IN ('public', 'unlisted')",
                           name=op.f("ck_games_visibility")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
        sa.UniqueConstraint("content_hash", name=op.f("uq_games_content_hash")),
        sa.UniqueConstraint("slug", name=op.f("uq_games_slug")),
    )
    op.create_index(op.f("ix_games_game_mode"), "games", ["game", "mode"])
    op.create_index(op.f("ix_games_played_at"), "games", ["played_at"])
    op.create_index(op.f("ix_games_status"), "games", ["status"])
    op.create_index(op.f("ix_games_visibility_created_at"), "games", ["visibility", "created_at"])

    op.create_table(
        "game_players",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("score", sa.Integer(), nullable=True),
        sa.Column("won", sa.Boolean(), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"],
                                name=op.f("fk_game_players_game_id_games"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "position", name=op.f("pk_game_players")),
    )
    op.create_index(op.f("ix_game_players_name"), "game_players", ["name"])


def downgrade() -> None:
    op.drop_index(op.f("ix_game_players_name"), table_name="game_players")
    op.drop_table("game_players")
    op.drop_index(op.f("ix_games_visibility_created_at"), table_name="games")
    op.drop_index(op.f("ix_games_status"), table_name="games")
    op.drop_index(op.f("ix_games_played_at"), table_name="games")
    op.drop_index(op.f("ix_games_game_mode"), table_name="games")
    op.drop_table("games")
