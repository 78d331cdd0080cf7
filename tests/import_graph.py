"""The imports of a package tree, read with `ast` (nothing is imported), for the layers test.

Every `import` and `from ... import` counts, at the top of a file or inside a function or an
`if TYPE_CHECKING:` block alike; a relative import is resolved against the importing module's
package; and the lazy re-exports of the package `__init__` modules count as imports too: a dict of
`"name": "sengoku.module"` (`sengoku._lazy.lazy_exports`) or `"name": "sengoku.module:attribute"`
(the root package's table), and `importlib.import_module("sengoku.module")`.

A unit is a subpackage (`sengoku.carddb`) or a module directly under the root (`sengoku.errors`);
the root package itself is the unit `sengoku`.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

LAZY = re.compile(r"^(sengoku(?:\.\w+)+)(?::(\w*))?$")


@dataclass(frozen=True)
class Import:
    """One import of a module of the tree: by whom (module, file, line), of what (module, name)."""

    importer: str  # dotted module name of the importing file
    where: str  # "path:line", for messages
    module: str  # the imported module (dotted)
    name: str | None  # the name taken from it (`from module import name`), or None for the module itself
    lazy: bool = False

    def __str__(self) -> str:
        what = self.module + (f".{self.name}" if self.name else "")
        return f"{self.where} imports {what}" + (" (lazily)" if self.lazy else "")


class Tree:
    """The modules of one package tree (`root` is the package's folder, named like the package)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.package = root.name
        self.files = sorted(root.rglob("*.py"))
        self.modules = {self.module_name(p): p for p in self.files}

    def module_name(self, path: Path) -> str:
        parts = list(path.relative_to(self.root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        return ".".join(parts)

    def is_package(self, module: str) -> bool:
        path = self.modules.get(module)
        return path is not None and path.name == "__init__.py"

    def unit_of(self, module: str) -> str:
        """Return the layer unit of a module: `sengoku.carddb.load` -> `carddb`; the root -> `sengoku`."""
        parts = module.split(".")
        return parts[1] if len(parts) > 1 else parts[0]

    def units(self) -> set[str]:
        return {self.unit_of(m) for m in self.modules}

    def ours(self, module: str) -> bool:
        return module == self.package or module.startswith(self.package + ".")

    def imports_of(self, path: Path, foreign: bool = False) -> list[Import]:
        """Return every import of the tree's own modules in one file (see the module's docstring);
        `foreign`: the imports of other modules (the standard library's, ...) instead."""
        importer = self.module_name(path)
        package = importer.split(".") if path.name == "__init__.py" else importer.split(".")[:-1]
        where = f"{path.relative_to(self.root.parent)}"
        source = path.read_text(encoding="utf-8")
        tree = ast.parse(source, str(path))
        lazy_tables = "lazy_exports" in source or "import_module" in source
        keyed = "lazy_exports(__name__" in source  # a lazy_exports table: {"name": "module"}
        found: list[Import] = []
        for node in ast.walk(tree):
            at = f"{where}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Import):
                found += [Import(importer, at, a.name, None) for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:  # relative: resolved against the importing module's package
                    base = ".".join(package[: len(package) - (node.level - 1)] + ([node.module] if node.module else []))
                else:
                    base = node.module or ""
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    if sub in self.modules:  # `from package import module`: the module itself
                        found.append(Import(importer, at, sub, None))
                    else:
                        found.append(Import(importer, at, base, alias.name))
            elif isinstance(node, ast.Dict) and lazy_tables:  # a lazy re-export table
                for key, value in zip(node.keys, node.values):
                    if isinstance(value, ast.Constant) and isinstance(value.value, str):
                        match = LAZY.match(value.value)
                        if match and self.ours(match.group(1)):
                            if keyed:  # lazy_exports: the key is the attribute's name
                                name = key.value if isinstance(key, ast.Constant) and isinstance(key.value, str) else None
                            else:  # "module:attribute", or "module" itself
                                name = match.group(2) or None
                            found.append(Import(importer, at, match.group(1), name, lazy=True))
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                  and node.func.attr == "import_module" and node.args
                  and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                found.append(Import(importer, at, node.args[0].value, None, lazy=True))
        if foreign:
            return [i for i in found if not self.ours(i.module) and not i.lazy]
        found += self._attributes_of_imported_modules(tree, importer, where)
        return [i for i in found if self.ours(i.module)]

    def _attributes_of_imported_modules(self, tree: ast.Module, importer: str, where: str) -> list[Import]:
        """`import sengoku.x as m` (or `from sengoku import x`) then `m._name`: an import of `_name` too."""
        bound: dict[str, str] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    if a.asname and a.name in self.modules:
                        bound[a.asname] = a.name
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                for a in node.names:
                    if f"{node.module}.{a.name}" in self.modules:
                        bound[a.asname or a.name] = f"{node.module}.{a.name}"
        found = []
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in bound
                    and private(node.attr)):
                found.append(Import(importer, f"{where}:{node.lineno}", bound[node.value.id], node.attr))
        return found

    def imports(self) -> list[Import]:
        return [i for path in self.files for i in self.imports_of(path)]

    def arrows(self) -> dict[tuple[str, str], list[Import]]:
        """Return (importing unit, imported unit) -> the imports that make that arrow."""
        arrows: dict[tuple[str, str], list[Import]] = {}
        for i in self.imports():
            a, b = self.unit_of(i.importer), self.unit_of(i.module)
            if a != b:
                arrows.setdefault((a, b), []).append(i)
        return arrows

    def owner_of_private(self, i: Import) -> str | None:
        """Return the package a private module or name belongs to (None: nothing private is imported).

        A module whose dotted name has a part starting with `_` (not a dunder) is private to the
        package above that part (`sengoku._lazy` to `sengoku`); a name starting with `_` is
        private to the package that holds its module (`sengoku.goldfish.api._x` to `sengoku.goldfish`).
        """
        parts = i.module.split(".")
        for n, part in enumerate(parts):
            if private(part):
                return ".".join(parts[:n])
        if i.name is not None and private(i.name):
            return i.module if self.is_package(i.module) else ".".join(parts[:-1])
        return None

    def private_imports(self) -> list[Import]:
        """Return the imports of a private module or name from outside the package that owns it."""
        bad = []
        for i in self.imports():
            owner = self.owner_of_private(i)
            if owner is not None and not (i.importer == owner or i.importer.startswith(owner + ".")):
                bad.append(i)
        return bad


def private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def circles(arrows: dict[tuple[str, str], list[Import]]) -> list[list[str]]:
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


def drawn_layers(architecture: str) -> list[list[str]]:
    """Return the layers the architecture page draws, bottom up, each a list of units.

    The drawing is the page's first fenced block. A line starting in the first column names the
    units of a layer in its left column (up to the first two spaces; `cli/` and `db_check.py` name
    the units `cli` and `db_check`, a parenthesis is a remark); a left column that ends with a comma
    goes on in the next line's. An indented line is a part of the layer above: not a unit.
    """
    block = architecture.split("```", 2)[1]
    layers: list[list[str]] = []
    going_on = False
    for line in block.splitlines()[1:]:
        if not line.strip() or line.startswith(" "):
            continue
        left = re.split(r"\s{2,}", line.strip(), maxsplit=1)[0]
        left = re.sub(r"\([^)]*\)", "", left).strip()
        units = [u.strip().removesuffix("/").removesuffix(".py") for u in left.split(",") if u.strip()]
        if going_on:
            layers[-1] += units
        else:
            layers.append(units)
        going_on = left.endswith(",")
    return layers[::-1]


def assigned(path: Path, name: str) -> object:
    """Return the literal value a module assigns to `name` at its top level (read, not imported)."""
    for node in ast.parse(path.read_text(encoding="utf-8"), str(path)).body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            return ast.literal_eval(node.value)
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == name:
            return ast.literal_eval(node.value) if node.value is not None else None
    raise LookupError(f"{path} assigns no {name}")


# --- the rules (each returns what breaks it; the layers test asserts each is empty) -------------

def unplaced(tree: Tree, layers: list[list[str]]) -> list[str]:
    """Units of the tree that no layer names, names of no unit, and units named twice."""
    named = [u for layer in layers for u in layer]
    return sorted((tree.units() ^ set(named)) | {u for u in named if named.count(u) > 1})


def upward(tree: Tree, layers: list[list[str]]) -> list[Import]:
    """Imports of a unit from a higher layer."""
    level = {u: n for n, layer in enumerate(layers) for u in layer}
    return [i for (a, b), found in tree.arrows().items() if level.get(b, -1) > level.get(a, -1) for i in found]


def outside_reach(tree: Tree, unit: str, may: set[str]) -> list[Import]:
    """Imports of `unit` from any unit but itself and `may`."""
    return [i for (a, b), found in tree.arrows().items() if a == unit and b not in may for i in found]


def outside_api(tree: Tree, unit: str, api_modules: tuple[str, ...], exported: set[str]) -> list[Import]:
    """Imports of `unit` (a subpackage) from outside it that do not go through its public API:
    the names its `__init__` exports, or a module of `api_modules` (dotted below the unit)."""
    package = f"{tree.package}.{unit}"
    public = {f"{package}.{m}" for m in api_modules}
    bad = []
    for i in tree.imports():
        if tree.unit_of(i.importer) == unit or tree.unit_of(i.module) != unit:
            continue
        if i.module == package and (i.name is None or i.name in exported):
            continue
        if i.module not in public:
            bad.append(i)
    return bad


def thick_cli(tree: Tree, unit: str, forbidden: tuple[str, ...], computing: set[str]) -> list[Import]:
    """Imports by the command line (`unit`) of where games are played or figures computed: a module
    under one of `forbidden` (dotted prefixes), or a computing module of `computing` (`math`, ...)."""
    bad = []
    for path in tree.files:
        if tree.unit_of(tree.module_name(path)) != unit:
            continue
        bad += [i for i in tree.imports_of(path) if any(i.module == f or i.module.startswith(f + ".") for f in forbidden)]
        bad += [i for i in tree.imports_of(path, foreign=True) if i.module.split(".")[0] in computing]
    return bad
