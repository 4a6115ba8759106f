"""groups (issue 32, docs/groups.md): a group, its members and their aliases, its games and
which member sat at each seat, its API tokens, and the ratings derived from its games

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-03
"""

from __future__ import annotations

from typing import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "groups",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("slug", sa.String(length=48), nullable=False),
        sa.Column("name", sa.String(length=120), nullable=False),
        sa.Column("private", sa.Boolean(), nullable=False),
        sa.Column("admin_token_hash", sa.String(length=64), nullable=False),
        sa.Column("invite_key_hash", sa.String(length=64), nullable=False),
        sa.Column("checked_only", sa.Boolean(), nullable=False),
        sa.Column("stale_from", sa.DateTime(timezone=True), nullable=True),
        sa.Column("ratings_done", sa.Integer(), nullable=False),
        sa.Column("ratings_total", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_groups")),
        sa.UniqueConstraint("slug", name=op.f("uq_groups_slug")),
    )
    op.create_table(
        "group_games",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("order_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("mode", sa.String(length=32), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("legal", sa.Boolean(), nullable=False),
        sa.Column("added_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_group_games_game_id_games"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["group_id"],
            ["groups.id"],
            name=op.f("fk_group_games_group_id_groups"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_group_games")),
    )
    op.create_index(
        op.f("ix_group_games_group_id_order_at_game_id"),
        "group_games",
        ["group_id", "order_at", "game_id"],
    )
    op.create_table(
        "group_members",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("merged_into_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["group_id"],
            ["groups.id"],
            name=op.f("fk_group_members_group_id_groups"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["merged_into_id"],
            ["group_members.id"],
            name=op.f("fk_group_members_merged_into_id_group_members"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_group_members")),
    )
    op.create_index(op.f("ix_group_members_group_id"), "group_members", ["group_id"])
    op.create_table(
        "group_tokens",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("scopes", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["group_id"],
            ["groups.id"],
            name=op.f("fk_group_tokens_group_id_groups"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_group_tokens")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_group_tokens_token_hash")),
    )
    op.create_index(op.f("ix_group_tokens_group_id"), "group_tokens", ["group_id"])
    op.create_table(
        "group_ratings",
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("board", sa.String(length=72), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.Column("order_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("mu", sa.Float(precision=53), nullable=False),
        sa.Column("sigma", sa.Float(precision=53), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_group_ratings_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["group_id"],
            ["groups.id"],
            name=op.f("fk_group_ratings_group_id_groups"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["member_id"],
            ["group_members.id"],
            name=op.f("fk_group_ratings_member_id_group_members"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint(
            "group_id", "board", "game_id", "member_id", name=op.f("pk_group_ratings")
        ),
    )
    op.create_index(
        op.f("ix_group_ratings_group_id_board_order_at_game_id"),
        "group_ratings",
        ["group_id", "board", "order_at", "game_id"],
    )
    op.create_index(
        op.f("ix_group_ratings_member_id_board_order_at"),
        "group_ratings",
        ["member_id", "board", "order_at"],
    )
    op.create_table(
        "group_seats",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["group_games.game_id"],
            name=op.f("fk_group_seats_game_id_group_games"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["member_id"],
            ["group_members.id"],
            name=op.f("fk_group_seats_member_id_group_members"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("game_id", "position", name=op.f("pk_group_seats")),
    )
    op.create_index(op.f("ix_group_seats_member_id"), "group_seats", ["member_id"])
    op.create_table(
        "member_aliases",
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("folded", sa.String(length=200), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.ForeignKeyConstraint(
            ["group_id"],
            ["groups.id"],
            name=op.f("fk_member_aliases_group_id_groups"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["member_id"],
            ["group_members.id"],
            name=op.f("fk_member_aliases_member_id_group_members"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("group_id", "folded", name=op.f("pk_member_aliases")),
    )
    op.create_index(op.f("ix_member_aliases_member_id"), "member_aliases", ["member_id"])
    op.create_table(
        "member_ratings",
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.Column("board", sa.String(length=72), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("mu", sa.Float(precision=53), nullable=False),
        sa.Column("sigma", sa.Float(precision=53), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["group_id"],
            ["groups.id"],
            name=op.f("fk_member_ratings_group_id_groups"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["member_id"],
            ["group_members.id"],
            name=op.f("fk_member_ratings_member_id_group_members"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("member_id", "board", name=op.f("pk_member_ratings")),
    )
    op.create_index(
        op.f("ix_member_ratings_group_id_board"), "member_ratings", ["group_id", "board"]
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_member_ratings_group_id_board"), table_name="member_ratings")
    op.drop_table("member_ratings")
    op.drop_index(op.f("ix_member_aliases_member_id"), table_name="member_aliases")
    op.drop_table("member_aliases")
    op.drop_index(op.f("ix_group_seats_member_id"), table_name="group_seats")
    op.drop_table("group_seats")
    op.drop_index(op.f("ix_group_ratings_member_id_board_order_at"), table_name="group_ratings")
    op.drop_index(
        op.f("ix_group_ratings_group_id_board_order_at_game_id"), table_name="group_ratings"
    )
    op.drop_table("group_ratings")
    op.drop_index(op.f("ix_group_tokens_group_id"), table_name="group_tokens")
    op.drop_table("group_tokens")
    op.drop_index(op.f("ix_group_members_group_id"), table_name="group_members")
    op.drop_table("group_members")
    op.drop_index(op.f("ix_group_games_group_id_order_at_game_id"), table_name="group_games")
    op.drop_table("group_games")
    op.drop_table("groups")
