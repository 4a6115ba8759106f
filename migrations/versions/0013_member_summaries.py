"""member summaries (issue 32, docs/groups.md): each member's statistics, head-to-head and
streaks, kept by the ratings' recompute so that a member's page reads one row; every group with
games is marked stale from its first game, so that the next recompute fills them

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-03
"""

from __future__ import annotations

from typing import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "member_summaries",
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("last_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("per_game", sa.JSON(), nullable=False),
        sa.Column("head_to_head", sa.JSON(), nullable=False),
        sa.Column("streaks", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["group_id"], ["groups.id"],
                                name=op.f("fk_member_summaries_group_id_groups"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["member_id"], ["group_members.id"],
                                name=op.f("fk_member_summaries_member_id_group_members"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("member_id", name=op.f("pk_member_summaries")),
    )
    op.create_index(op.f("ix_member_summaries_group_id"), "member_summaries", ["group_id"])
    # the summaries are derived: the next recompute of each group fills them
    op.execute(
        "UPDATE groups SET stale_from = (SELECT MIN(group_games.order_at) FROM group_games "
        "WHERE group_games.group_id = groups.id), version = version + 1 "
        "WHERE EXISTS (SELECT 1 FROM group_games WHERE group_games.group_id = groups.id)")


def downgrade() -> None:
    op.drop_index(op.f("ix_member_summaries_group_id"), table_name="member_summaries")
    op.drop_table("member_summaries")
