"""The engine is pure: standard library only, so it can run anywhere and stays deterministic."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import popreplay.engine

ENGINE = Path(popreplay.engine.__file__).parent
ALLOWED_THIRD_PARTY: set[str] = set()


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text("utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_engine_modules_import_only_the_standard_library():
    offenders = {}
    for path in ENGINE.rglob("*.py"):
        outside = {n for n in _imports(path) if n not in sys.stdlib_module_names}
        outside -= ALLOWED_THIRD_PARTY
        if outside:
            offenders[str(path.relative_to(ENGINE))] = sorted(outside)
    assert offenders == {}


def test_importing_the_engine_loads_no_third_party_module():
    code = (
        "import sys, popreplay.engine, popreplay.engine.registry\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'flask','sqlalchemy','marshmallow','click','alembic','werkzeug','jinja2'})\n"
        "print(','.join(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
