"""The package's layers, read from its own imports: no circle of packages, no import pointing up.

Every `import` and `from ... import` of every module under src/sengoku counts, at the top of a
file or inside a function or an `if TYPE_CHECKING:` block alike. A unit is a subpackage
(`sengoku.carddb`) or a module directly under `sengoku` (`sengoku.errors`); the root package
`sengoku` itself is the public API, which re-exports names from every layer, so it sits on top.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

import sengoku

SRC = Path(sengoku.__file__).resolve().parent

# Bottom up. A unit may import units of its own layer or below; among the units of one layer the
# imports must still run one way (no circle).
LAYERS: list[set[str]] = [
    # basics
    {"_lazy", "build", "digests", "display", "errors", "files", "folders", "games", "pass_cache", "paths", "problems",
     "version", "writes"},
    # reading cards and decklists
    {"carddb", "decklist"},
    # what is done with them: deck validation, tournament formats, the rules engine
    {"validate", "formats", "engine", "generate"},
    # what combines those: goldfish simulation, the whole card database check
    {"goldfish", "db_check"},
    # what builds on goldfish simulations: one run seen again step by step, the deck tuner
    {"trace", "tune"},
    # the command line, and the public API of `import sengoku`
    {"cli", "__main__", "sengoku"},
]
LAYER = {unit: n for n, units in enumerate(LAYERS) for unit in units}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def unit_of(module: str) -> str:
    """Return the layer unit of a module of sengoku: `sengoku.carddb.load` -> `carddb`."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "sengoku"


def imports_of(path: Path) -> list[tuple[int, str]]:
    """Return (line, imported module) for every import of sengoku's own modules in a file."""
    name = _module_name(path)
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolved against the importing module's package
                base = package[: len(package) - (node.level - 1)]
                targets = [".".join(base + ([node.module] if node.module else []))]
            else:
                targets = [node.module or ""]
        else:
            continue
        found += [(node.lineno, t) for t in targets if t == "sengoku" or t.startswith("sengoku.")]
    return found


def unit_imports() -> dict[tuple[str, str], list[str]]:
    """Return (importing unit, imported unit) -> the imports that make that arrow ("file:line")."""
    arrows: dict[tuple[str, str], list[str]] = {}
    for path in sorted(SRC.rglob("*.py")):
        source = unit_of(_module_name(path))
        for line, target in imports_of(path):
            if unit_of(target) != source:
                where = f"{path.relative_to(SRC.parent)}:{line} imports {target}"
                arrows.setdefault((source, unit_of(target)), []).append(where)
    return arrows


def circles(arrows: dict[tuple[str, str], list[str]]) -> list[list[str]]:
    """Return the strongly connected groups of more than one unit (Tarjan's algorithm)."""
    graph: dict[str, set[str]] = {}
    for a, b in arrows:
        graph.setdefault(a, set()).add(b)
        graph.setdefault(b, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return groups


def test_every_unit_has_a_layer() -> None:
    units = {unit_of(_module_name(p)) for p in SRC.rglob("*.py")}
    assert units - set(LAYER) == set(), "a new package or module: give it a layer in LAYERS"


def test_no_circle_among_packages() -> None:
    arrows = unit_imports()
    found = circles(arrows)
    detail = [w for group in found for (a, b), ws in arrows.items() if a in group and b in group for w in ws]
    assert found == [], "\n".join(detail)


def test_no_import_points_up() -> None:
    up = [w for (a, b), ws in unit_imports().items() if LAYER.get(b, -1) > LAYER.get(a, -1) for w in ws]
    assert up == [], "imports from a higher layer:\n" + "\n".join(up)


def test_function_level_and_relative_imports_are_seen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The reader finds an import hidden in a function, and resolves a relative one."""
    pkg = tmp_path / "sengoku" / "carddb"
    pkg.mkdir(parents=True)
    (tmp_path / "sengoku" / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("from . import load\n")
    (pkg / "load.py").write_text("def f():\n    from sengoku.validate.rules import x\n    from ..formats import y\n")
    monkeypatch.setattr(sys.modules[__name__], "SRC", tmp_path / "sengoku")
    assert imports_of(pkg / "load.py") == [(2, "sengoku.validate.rules"), (3, "sengoku.formats")]
    assert imports_of(pkg / "__init__.py") == [(1, "sengoku.carddb")]
    arrows = unit_imports()
    assert set(arrows) == {("carddb", "validate"), ("carddb", "formats")}
    assert circles({("carddb", "validate"): [], ("validate", "carddb"): [], ("validate", "formats"): []}) \
        == [["carddb", "validate"]]


def deferred_imports_without_reason(path: Path) -> list[int]:
    """Return the lines of imports inside a function that no `# deferred: <why>` comment explains.

    Imports belong at the top of a file, where a reader sees what the file depends on; one inside a
    function is allowed where start-up time (or an optional extra) needs it, and then a comment
    beginning `deferred:`, in that function before the import or on its line, says why.
    """
    lines = path.read_text(encoding="utf-8").splitlines()
    bare = []
    for node in ast.walk(ast.parse("\n".join(lines), str(path))):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for sub in ast.walk(node):
            if isinstance(sub, (ast.Import, ast.ImportFrom)):
                before = lines[node.lineno - 1:sub.lineno]
                if not any("# deferred:" in line for line in before):
                    bare.append(sub.lineno)
    return sorted(set(bare))


def test_every_import_inside_a_function_says_why() -> None:
    bare = {str(path.relative_to(SRC)): lines for path in sorted(SRC.rglob("*.py"))
            if (lines := deferred_imports_without_reason(path))}
    assert bare == {}


def test_an_import_inside_a_function_needs_its_comment(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("import os\n\n\ndef f():\n    import json\n    # deferred: a comment after the import explains nothing\n"
                      "\n\ndef g():\n    # deferred: start-up time\n    import csv\n    import io\n"
                      "\n\ndef h():\n    import re  # deferred: start-up time\n")
    assert deferred_imports_without_reason(module) == [5]
