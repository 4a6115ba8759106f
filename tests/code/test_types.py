"""The package passes mypy with the project's configuration (pyproject.toml, ``[tool.mypy]``:
the engine with every function annotated, the rest with mypy's default checks, a baseline of
modules skipped until fixed). Marked slow: a first run without mypy's cache takes 20 s of CPU
or more."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_mypy_finds_nothing():
    done = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success: no issues found" in done.stdout


def test_the_package_is_marked_typed():
    """``py.typed`` is declared in pyproject.toml's package data and exists (PEP 561)."""
    assert (ROOT / "popreplay" / "py.typed").is_file()
    assert '"py.typed"' in (ROOT / "pyproject.toml").read_text("utf-8")
