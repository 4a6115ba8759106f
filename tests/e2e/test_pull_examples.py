"""docs/api.md's examples of pulling every game since a date (curl, and Python with httpx) run
as written against a real server (``popreplay serve``), only the address changed."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import as_bytes, simulated
from tests.e2e.test_serve import request, running

DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"
DEFAULT = "http://127.0.0.1:8000"

pytestmark = pytest.mark.slow


def example(kind: str) -> str:
    found = re.search(rf"<!-- example: {kind} -->\n```\w+\n(.*?)```", DOC.read_text("utf-8"),
                      re.S)
    assert found, f"docs/api.md has no {kind} example"
    return found.group(1)


@pytest.fixture
def server(db_url, tmp_path):
    env = {**os.environ, "POPREPLAY_DATABASE_URL": db_url}
    command = [sys.executable, "-m", "popreplay", "serve", "--workers", "1"]
    with running(command, env, tmp_path) as base:
        slugs = []
        for seed in (81, 82, 83):
            status, _, body = request("POST", f"{base}/api/v1/games",
                                      as_bytes(simulated("battle", 3, seed=seed)),
                                      {"Content-Type": "application/json"})
            assert status == 201, body
            slugs.append(json.loads(body))
        gone = slugs.pop()
        status, _, _ = request("DELETE", f"{base}/api/v1/games/{gone['slug']}", None,
                               {"Authorization": f"Bearer {gone['owner_token']}"})
        assert status == 204
        yield base, [s["slug"] for s in slugs], gone["slug"]


@pytest.mark.skipif(shutil.which("curl") is None, reason="no curl on this machine")
def test_the_curl_example_pulls_every_game_since_a_date(server, tmp_path):
    base, slugs, gone = server
    script = example("curl").replace(DEFAULT, base)
    done = subprocess.run(["sh", "-e", "-c", script], cwd=tmp_path, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "3"  # a tombstone and two games
    lines = [json.loads(line) for line in (tmp_path / "games.ndjson").read_text().splitlines()]
    assert [(e["slug"], e.get("deleted", False)) for e in lines] == [
        (gone, True), (slugs[0], False), (slugs[1], False)]
    with (tmp_path / "games.csv").open(newline="", encoding="utf-8") as table:
        rows = list(csv.DictReader(table))
    assert [row["slug"] for row in rows] == [slugs[0]] * 3 + [slugs[1]] * 3


def test_the_python_example_streams_the_ndjson_and_asks_for_changes(server):
    base, slugs, gone = server
    code = example("python").replace(DEFAULT, base)
    out = io.StringIO()
    namespace: dict = {"__name__": "example"}
    with contextlib.redirect_stdout(out):
        exec(compile(code, "docs/api.md", "exec"), namespace)  # noqa: S102 - our own docs
    assert out.getvalue().splitlines() == [f"deleted {gone}", f"complete {slugs[0]}",
                                           f"complete {slugs[1]}"]
    # the newest change is the deletion: asked for again, only it (bounds are inclusive)
    assert [e["slug"] for e in namespace["changes"]] == [gone]
