"""stored replays are gzip-compressed: the plain ones stored before are dropped

The ``replays`` table is a cache of what the engine computes (immutable for one engine version):
its rows are dropped, in both directions, and each replay is computed again, in the stored form of
the running code, on its next fetch. No game data is lost.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30
"""

from __future__ import annotations

from typing import Sequence

from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute("DELETE FROM replays")


def downgrade() -> None:
    op.execute("DELETE FROM replays")
