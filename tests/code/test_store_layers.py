"""The store is a service module: nothing under ``popreplay/store`` imports the HTTP layer
(``popreplay.api``), at module level or inside a function; nor do the service-level modules it
builds on (``popreplay/jsonout.py``, ``popreplay/caching.py``)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "popreplay"
SERVICE = [*sorted((PACKAGE / "store").rglob("*.py")), PACKAGE / "jsonout.py",
           PACKAGE / "caching.py"]


def imported(source: str, *, package: list[str]) -> set[str]:
    """Every module ``source`` imports (and every name it imports from one, as ``module.name``),
    relative imports resolved against ``package`` (the dotted parts of the file's package)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            names.add(module)
            names.update(f"{module}.{alias.name}" for alias in node.names)
    return names


def package_of(path: Path) -> list[str]:
    return list(path.relative_to(PACKAGE.parent).parent.parts)


def test_relative_imports_inside_functions_are_seen():
    source = ("def f():\n    from ..api.jsonout import compact\n    from .. import api\n"
              "    from .replays import encode_replay\n")
    names = imported(source, package=["popreplay", "store"])
    assert {"popreplay.api.jsonout", "popreplay.api", "popreplay.store.replays"} <= names
    assert package_of(PACKAGE / "store" / "replays.py") == ["popreplay", "store"]


def test_no_store_module_imports_the_api():
    assert PACKAGE / "store" / "ingestion.py" in SERVICE  # the store's modules were found
    upward = {}
    for path in SERVICE:
        names = imported(path.read_text(encoding="utf-8"), package=package_of(path))
        found = sorted(n for n in names if n == "popreplay.api" or n.startswith("popreplay.api."))
        if found:
            upward[str(path.relative_to(PACKAGE.parent))] = found
    assert upward == {}
