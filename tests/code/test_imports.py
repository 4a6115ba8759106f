"""The package's import graph, read from the source (``ast``): no cycle, and the engine imports
only the standard library and itself.

Every ``import`` counts: at module level (inside ``if TYPE_CHECKING:`` too: a type a module
names is a module it depends on) and inside functions (a deferred import is still an arrow).
A module that needs another's type without importing it describes what it reads with a
``Protocol`` (the games' notes: the rules call the notes, the notes never import the rules).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path
from typing import Iterator

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "popreplay"

def modules() -> dict[str, tuple[Path, bool]]:
    """Every module of the package by dotted name, with its path and whether it is a package."""
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts.pop()
        out[".".join(parts)] = (path, is_package)
    return out


def imports(deferred: bool) -> dict[str, dict[str, str]]:
    """module -> {imported name: "module" or "function"} (where the import statement is); the
    names are the package's own modules (the deepest one a dotted name or ``from`` names) or,
    for any other import, the top-level name (``flask``, ``json``)."""
    known = modules()

    def own(name: str) -> str:
        while name not in known and "." in name:
            name = name.rsplit(".", 1)[0]
        return name

    graph: dict[str, dict[str, str]] = {}
    for name, (path, is_package) in known.items():
        tree = ast.parse(path.read_text("utf-8"), str(path))
        edges: dict[str, str] = {}
        for node, where in statements(tree):
            if not deferred and where == "function":
                continue
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [own(alias.name) if alias.name.split(".")[0] == "popreplay"
                           else alias.name.split(".")[0] for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = name.split(".")
                    if not is_package:
                        base.pop()
                    base = base[:len(base) - node.level + 1]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                if target.split(".")[0] != "popreplay":
                    targets = [target.split(".")[0]]
                else:
                    targets = [f"{target}.{alias.name}" if f"{target}.{alias.name}" in known
                               else own(target) for alias in node.names]
            for target in targets:
                if target != name and edges.get(target) != "module":
                    edges[target] = where
        graph[name] = edges
    return graph


def statements(tree: ast.AST, where: str = "module") -> Iterator[tuple[ast.AST, str]]:
    """Every import statement of ``tree``, with "module" (it runs when the module is imported)
    or "function" (it runs when a function is called)."""
    for child in ast.iter_child_nodes(tree):
        inner = "function" if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                 ast.Lambda)) else where
        if isinstance(child, (ast.Import, ast.ImportFrom)):
            yield child, where
        yield from statements(child, inner)


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in graph:
                    continue
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def own_graph(graph: dict[str, dict[str, str]], *, under: str = "popreplay",
              skip: set[tuple[str, str]] = frozenset()) -> dict[str, set[str]]:
    return {name: {t for t in edges if t.startswith("popreplay") and (name, t) not in skip}
            for name, edges in graph.items() if name == under or name.startswith(under + ".")}


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_module_level_import_closes_a_cycle():
    assert cycles(own_graph(imports(deferred=False))) == []


def test_the_engine_has_no_import_cycle_not_even_through_functions():
    assert cycles(own_graph(imports(deferred=True), under="popreplay.engine")) == []


def test_no_import_closes_a_cycle_not_even_through_functions():
    """A deferred import is still an arrow: none closes a cycle in the package either (the
    store is handed the queue's remote replay by the app, a worker its app factory, the command
    line's app context is ``cli_app``, the pages' mode words ``web/words.py``)."""
    assert cycles(own_graph(imports(deferred=True))) == []


def test_the_notes_do_not_import_the_rules_they_describe():
    graph = imports(deferred=True)
    for game in ("pop", "cube", "slap", "bloops"):
        notes = f"popreplay.engine.games.{game}.notes"
        assert f"popreplay.engine.games.{game}.rules" not in graph[notes], game


def test_the_engine_imports_only_the_standard_library_and_itself():
    outside = {}
    for name, edges in imports(deferred=True).items():
        if not name.startswith("popreplay.engine"):
            continue
        bad = sorted(t for t in edges if not t.startswith("popreplay.engine")
                     and t not in sys.stdlib_module_names and t != "__future__")
        if bad:
            outside[name] = bad
    assert outside == {}
