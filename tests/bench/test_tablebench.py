"""``scripts/tablebench --quick --json`` against two real ``popreplay serve`` hosts (PostgreSQL and
Redis): the figures are there and sane, every follower received every entry (it never asserts
timings)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.reliability.test_two_servers import shared_pg  # noqa: F401  (fixture)
from tests.tables.test_stream import redis_up

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.slow, pytest.mark.postgres,
              pytest.mark.skipif(not redis_up(), reason="Redis is not reachable")]


def test_the_table_bench_measures_two_hosts(shared_pg):  # noqa: F811
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "tablebench"), "--quick",
                           "--json", "--database", shared_pg], capture_output=True, text=True,
                          timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    figures = json.loads(done.stdout)
    assert figures["cores"] >= 1 and len(figures["load_start"]) == 3
    assert len(figures["commit"]) >= 7
    one, many = figures["one_table"], figures["many_tables"]
    # --quick: the one table's deal and first turn (6 entries + 5 cards), 6 phones + 6 spectators
    assert one["entries"] == 11 and one["streams"] == 12 and one["errors"] == []
    # 3 tables, each its deal (layout + 3 hands) and a turn (3 cards + the Chief's)
    assert many["tables"] == 3 and many["entries"] == 24 and many["streams"] == 15
    assert many["errors"] == []
    for item in (one, many):
        assert item["missing"] == 0  # every follower received every entry
        assert item["snapshots_after_first"] == 0
        every, each = item["to_every_screen"], item["per_screen"]
        assert every["n"] == item["entries"]
        assert each["n"] == item["entries"] * (item["streams"] // max(1, item.get("tables", 1))
                                               - 1)  # every stream but the sender's
        assert 0 < every["p50_ms"] <= every["p95_ms"] <= every["max_ms"] < 60_000
        assert each["p95_ms"] <= every["p95_ms"] and item["post"]["p95_ms"] > 0
        assert item["hosts_cpu_s"] > 0 and item["hosts_cpu_ms_per_entry"] > 0
        assert len(item["load_before"]) == 3
    # every entry a seat sent is in one order: the turn's last card made the whole turn
    assert one["turn_complete_to_every_screen"]["n"] == 2  # the deal and the turn
    taps = figures["taps"]  # 3 tables x 1 turn: 1 card a seat, the Chief's 2 by one seat
    assert taps["turns"] == 3
    assert taps["taps_per_seat_per_turn"] == round(5 / 3, 2)
    assert taps["parts_per_seat_per_turn"] == round(4 / 3, 2)
    assert taps["most_taps_one_seat_one_turn"] == 3
    assert taps["taps_per_deal_per_seat"] == round((5 + 3 * 9) / 3, 2)
    base, row = figures["idle"]
    assert base["streams"] == 0 and row["streams"] == 50 and row["open"] == 50
    assert row["healthz_unanswered"] == 0
    assert 0 < row["kib_per_stream"] < 1024 and 0.9 <= row["sockets_per_stream"] <= 1.2
    assert row["db_connections_per_stream"] < 0.2  # an idle stream holds no connection
