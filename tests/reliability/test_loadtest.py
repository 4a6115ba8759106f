"""``scripts/loadtest``: bounded in requests and time, loopback only, and its figures add up."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import _require_pg

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "loadtest"


def run(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True,
                          timeout=timeout, check=False)


@pytest.mark.parametrize("url", ["http://10.1.2.3:8000", "http://192.168.0.1",
                                 "http://example.org", "http://[2001:db8::1]:80"])
def test_it_refuses_anything_but_loopback(url):
    done = run("--url", url, "--duration", "1", "--logs", "1", timeout=60)
    assert done.returncode != 0
    assert "not a loopback address" in done.stderr


@pytest.mark.parametrize("args", [["--duration", "601"], ["--duration", "0"],
                                  ["--max-requests", "0"], ["--clients", "65"]])
def test_it_stays_bounded(args):
    done = run(*args, timeout=60)
    assert done.returncode == 2 and "must be" in done.stderr


@pytest.mark.slow
@pytest.mark.postgres
def test_a_short_run_against_popreplay_serve_on_postgresql():
    _require_pg()
    done = run("--duration", "30", "--max-requests", "120", "--logs", "60", "--clients", "4",
               "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    figures = json.loads(done.stdout)
    assert figures["requests"] == 120  # the count bound stops it first
    assert figures["errors"] == 0 and figures["error_kinds"] == {}
    assert "PostgreSQL" in figures["database"]
    latency = figures["latency"]
    assert latency["all"]["requests"] == 120
    assert sum(row["requests"] for kind, row in latency.items() if kind != "all") == 120
    assert latency["upload"]["requests"] >= 1
    assert 0 < latency["all"]["p50_ms"] <= latency["all"]["p99_ms"] <= latency["all"]["max_ms"]
    assert figures["requests_per_second"] > 0
