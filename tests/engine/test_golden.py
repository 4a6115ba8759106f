"""Golden logs: every ``tests/golden/<game>/<case>.log.json`` has its hand-checked
``<case>.result.json``. Regenerate for review with ``scripts/golden --update`` and read the diff."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from popreplay.checking import check_text

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
CASES = sorted(GOLDEN.glob("*/*.log.json"))


def test_there_are_golden_logs():
    assert len(CASES) >= 30


@pytest.mark.parametrize("log_path", CASES, ids=lambda p: f"{p.parent.name}/{p.name[:-9]}")
def test_golden(log_path: Path):
    expected_path = log_path.with_name(log_path.name.replace(".log.json", ".result.json"))
    expected = json.loads(expected_path.read_text("utf-8"))
    assert check_text(log_path.read_bytes()) == expected


@pytest.mark.parametrize("log_path", CASES, ids=lambda p: f"{p.parent.name}/{p.name[:-9]}")
def test_text_and_parsed_logs_give_the_same_result(log_path: Path):
    from popreplay.checking import check_log

    assert check_text(log_path.read_bytes()) == check_log(json.loads(log_path.read_text("utf-8")))
