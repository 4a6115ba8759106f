"""a table's keeper (``tables.keeper``): the seat that enters what is nobody's own (POP!'s layout
and the Chief's cards, slap's flips), besides the host: issue 36, docs/table.md "Who may make
which entry". NULL: none named yet (the first seat the host's phone takes keeps them); "": the
host only.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-03
"""

from __future__ import annotations

from typing import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("keeper", sa.String(length=200), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("keeper")
