"""Exports: one read slowly holds no transaction open. Found in the hardening rounds of issues 15,
16 and 25 (docs/reliability.md)."""

from __future__ import annotations

import json

import pytest
import sqlalchemy as sa

from popreplay.db.session import get_database, make_engine
from tests.conftest import as_bytes, simulated
from tests.reliability.hardening import post

# --- 12. an export read slowly holds no transaction ----------------------------------------------


@pytest.mark.postgres
@pytest.mark.parametrize("db_url", ["postgresql"], indirect=True)
def test_12_an_export_read_slowly_leaves_no_transaction_open(app, client, db_url):
    for seed in range(104, 110):
        post(client, as_bytes(simulated("battle", 3, seed=seed)))
    dbname = db_url.rsplit("/", 1)[-1]

    def idle_in_transaction() -> int:
        engine = make_engine(db_url, pooled=False)
        try:
            with engine.connect() as connection:
                return connection.execute(sa.text(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = :d "
                    "AND state LIKE 'idle in transaction%'"), {"d": dbname}).scalar()
        finally:
            engine.dispose()

    response = client.get("/api/v1/games/export", buffered=False)
    stream = iter(response.response)
    first = next(stream)  # the client has read one line and stops reading
    assert json.loads(first)["log"]
    assert idle_in_transaction() == 0
    response.close()
    with get_database(app).engine.connect() as connection:
        assert connection.execute(
            sa.text("SHOW idle_in_transaction_session_timeout")).scalar() == "30s"
