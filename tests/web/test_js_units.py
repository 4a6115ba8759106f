"""The page modules' pure helpers (JSON Pointer, words, a log's text, the table's diff, the
recorder's entries) under Node's built-in test runner: ``node --test tests/web/js/``. Run here so
that the one test command (README) runs them; the pages themselves are the browser tests'."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
NODE = shutil.which("node")


@pytest.mark.skipif(NODE is None, reason="node is missing (Node 20 or later runs tests/web/js/)")
def test_the_page_modules_pure_helpers_pass_their_node_tests() -> None:
    files = sorted(str(p) for p in (HERE / "js").glob("*.test.mjs"))
    assert len(files) >= 5
    done = subprocess.run([str(NODE), "--test", *files], capture_output=True, text=True,
                          timeout=120, check=False)
    summary = [line for line in done.stdout.splitlines() if line.startswith(("# pass", "# fail"))]
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert summary and summary[-1] == "# fail 0" and summary[0] != "# pass 0", summary
