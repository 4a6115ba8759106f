"""tables recorded together: ``tables`` and their append-only ``table_entries`` (issue 23)

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01
"""

from __future__ import annotations

from typing import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "tables",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("mode", sa.String(length=32), nullable=False),
        sa.Column("start", sa.JSON(), nullable=False),
        sa.Column("host_token_hash", sa.String(length=64), nullable=False),
        sa.Column("join_key_hash", sa.String(length=64), nullable=False),
        sa.Column("seat_tokens", sa.JSON(), nullable=False),
        sa.Column("last_seq", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("stored_slug", sa.String(length=32), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tables")),
    )
    op.create_index(op.f("ix_tables_updated_at"), "tables", ["updated_at"])
    op.create_table(
        "table_entries",
        sa.Column("table_id", sa.String(length=32), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("client_id", sa.String(length=64), nullable=False),
        sa.Column("by", sa.String(length=200), nullable=True),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("body", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"],
                                name=op.f("fk_table_entries_table_id_tables"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("table_id", "seq", name=op.f("pk_table_entries")),
    )
    op.create_index("uq_table_entries_client", "table_entries", ["table_id", "client_id"],
                    unique=True)


def downgrade() -> None:
    op.drop_index("uq_table_entries_client", table_name="table_entries")
    op.drop_table("table_entries")
    op.drop_index(op.f("ix_tables_updated_at"), table_name="tables")
    op.drop_table("tables")
