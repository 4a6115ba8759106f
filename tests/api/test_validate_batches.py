"""NDJSON validation checks its lines in batches (``api/validate.py``): a batch boundary changes
no result, no line number and no order; a line too long and the line past the limit end where
they did when each line was handed over alone."""

from __future__ import annotations

import io
import json

from popreplay.api import validate
from popreplay.checking import check_text
from tests.conftest import as_bytes, simulated


def results(body: bytes, *, limit: int, max_lines: int) -> list[dict]:
    stream = io.BufferedReader(io.BytesIO(body))
    return [json.loads(line) for line in validate._results(stream, limit, with_steps=False,
                                                           max_lines=max_lines)]


def test_batch_boundaries_change_no_line(monkeypatch):
    game = as_bytes(simulated("battle", 3, seed=2))
    limit = len(game) + 200  # every log fits; line 4 is longer
    lines = [b"{}", game, b"", b"x" * (limit + 5), b"[1]", game, b"{}", b"  ", game, b"{}"]
    body = b"\n".join(lines) + b"\n"
    expected = whole = None
    for batch_lines, batch_bytes in ((1, 1), (2, 10**9), (3, 10**9), (32, len(game) + 10),
                                     (32, 64 * 1024)):
        monkeypatch.setattr(validate, "BATCH_LINES", batch_lines)
        monkeypatch.setattr(validate, "BATCH_BYTES", batch_bytes)
        got = results(body, limit=limit, max_lines=8)
        # within the limit the body ends inside a batch: its last, partial batch is answered too
        got_whole = results(body, limit=limit, max_lines=100)
        if expected is None:
            expected, whole = got, got_whole
        assert got == expected and got_whole == whole, (batch_lines, batch_bytes)
    assert [r["line"] for r in whole] == [1, 2, 4, 5, 6, 7, 9, 10]
    assert whole[:-2] == expected[:-1]
    # blank lines are skipped but counted; the 9th line is past max_lines=8: the last answer
    assert [r["line"] for r in expected] == [1, 2, 4, 5, 6, 7, 9]
    # a log's line is its result, as one log alone gives it
    assert expected[1] == json.loads(validate.dumps_line(
        {"line": 2, **validate.localize(check_text(game), "en")}))
    assert expected[1]["status"] == "complete" and expected[1]["legal"] is True
    assert expected[2]["errors"][0]["code"] == "json" and "longer than" in \
        expected[2]["errors"][0]["message"]
    assert "More than 8 lines" in expected[-1]["errors"][0]["message"]
    assert [r["status"] for r in expected[:-1]] == ["invalid", "complete", "invalid", "invalid",
                                                   "complete", "invalid"]
