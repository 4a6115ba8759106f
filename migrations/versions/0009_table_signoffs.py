"""a table's sign-offs (``table_signoffs``) and the stored game's way back to its table
(an index on ``tables.stored_slug``): issue 23, docs/table.md "Sign-off"

Corrections need no table of their own: each is an entry of ``table_entries`` (kind
``correct``), append-only like every other entry.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02
"""

from __future__ import annotations

from typing import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "table_signoffs",
        sa.Column("table_id", sa.String(length=32), nullable=False),
        sa.Column("player", sa.String(length=200), nullable=False),
        sa.Column("verdict", sa.String(length=16), nullable=False),
        sa.Column("step", sa.Integer(), nullable=True),
        sa.Column("sentence", sa.String(length=500), nullable=True),
        sa.Column("claims", sa.JSON(none_as_null=True), nullable=True),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"],
                                name=op.f("fk_table_signoffs_table_id_tables"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("table_id", "player", name=op.f("pk_table_signoffs")),
    )
    op.create_index(op.f("ix_tables_stored_slug"), "tables", ["stored_slug"])


def downgrade() -> None:
    op.drop_index(op.f("ix_tables_stored_slug"), table_name="tables")
    op.drop_table("table_signoffs")
