"""The code passes ruff with the project's pinned rules (pyproject.toml, ``[tool.ruff]``):
unused imports and names, redefinitions, syntax errors. Runs in well under a second."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_ruff_finds_nothing():
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    assert ruff, "ruff is a test dependency (pip install -e '.[test]')"
    done = subprocess.run([ruff, "check", "--output-format", "concise", "popreplay", "tests",
                           "scripts", "migrations", "wsgi.py"], cwd=ROOT, capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stdout + done.stderr
