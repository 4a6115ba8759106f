"""No module of the package is over 600 lines (STYLE.md, "Small modules, small functions"): a
module that grows past it is split by what its parts are about."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 600


def _long(pattern: str) -> dict[str, int]:
    long = {}
    for path in sorted((ROOT / "popreplay").rglob(pattern)):
        name = path.relative_to(ROOT).as_posix()
        lines = len(path.read_text("utf-8").splitlines())
        if lines > LIMIT:
            long[name] = lines
    return long


def test_no_python_module_is_over_600_lines():
    assert _long("*.py") == {}


def test_no_page_script_is_over_600_lines():
    """The pages' scripts too (the recorder and the viewer are split into parts)."""
    assert _long("*.js") == {}
