"""No module of the package is over 600 lines (STYLE.md, "Small modules, small functions"): a
module that grows past it is split by what its parts are about."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 600
# popreplay/store.py is being split by use case (issue 22, the store split); the lead removes
# this exclusion when that lands. The page scripts (popreplay/web/static/**/*.js: record.js and
# replay.js are being split by issue 24) are to be added once that is merged: the same loop over
# ``rglob("*.js")``.
EXCLUDED = {"popreplay/store.py"}


def test_no_python_module_is_over_600_lines():
    long = {}
    for path in sorted((ROOT / "popreplay").rglob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        lines = len(path.read_text("utf-8").splitlines())
        if lines > LIMIT and name not in EXCLUDED:
            long[name] = lines
    assert long == {}
