"""The package's layers, read from its own imports, against what docs/architecture.md draws.

The drawing on that page is the list of layers (`import_graph.drawn_layers` reads it), so the
page and this test cannot disagree. Beside the layers: the engine stands alone, private names stay
in their package, goldfish is used through its public API, and the command line is thin (the
rules are written out on the page). Every checker is also run on a small planted tree, where it
must find exactly the violations planted.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import sengoku
from import_graph import (Tree, assigned, circles, drawn_layers, outside_api, outside_reach, thick_cli, unplaced,
                          upward)

SRC = Path(sengoku.__file__).resolve().parent
ARCHITECTURE = Path(__file__).resolve().parents[1] / "docs" / "architecture.md"

# The engine may import itself, the card database and the basics (the bottom layer), nothing else.
ENGINE_MAY = {"engine", "carddb"}
# Where games are played and figures computed: the command line imports none of it ...
CLI_FORBIDDEN = ("sengoku.engine", "sengoku.goldfish.play", "sengoku.goldfish.statistics")
# ... nor a computing module of the standard library (or numpy).
COMPUTING = {"math", "cmath", "statistics", "random", "fractions", "decimal", "itertools", "heapq", "bisect", "numpy"}
# Known exceptions, each with what removes it. Only shrinks: an entry that no longer happens fails.
CLI_PENDING: dict[tuple[str, str], str] = {}


def goldfish_api(root: Path) -> tuple[tuple[str, ...], set[str]]:
    """goldfish's API modules and the names its `__init__` exports, as the package declares them."""
    init = root / "goldfish" / "__init__.py"
    modules = assigned(init, "API_MODULES")
    names = assigned(init, "_NAMES")
    assert isinstance(modules, tuple) and isinstance(names, dict)
    return modules, set(names)


def pending(found: list, allowed: dict) -> tuple[list[str], list]:
    """Split violations into those no entry of `allowed` excuses, and the entries nothing uses."""
    keys = {(i.importer, i.module) for i in found}
    return [str(i) for i in found if (i.importer, i.module) not in allowed], sorted(set(allowed) - keys)


# --- the package itself -------------------------------------------------------------------------

@pytest.fixture(scope="module")
def tree() -> Tree:
    return Tree(SRC)


@pytest.fixture(scope="module")
def layers(tree: Tree) -> list[list[str]]:
    return drawn_layers(ARCHITECTURE.read_text(encoding="utf-8"))


def test_the_drawing_places_every_unit_once(tree: Tree, layers: list[list[str]]) -> None:
    assert len(layers) >= 6, layers
    assert unplaced(tree, layers) == [], "give each new package or module a place in docs/architecture.md's drawing"


def test_no_circle_among_packages(tree: Tree) -> None:
    arrows = tree.arrows()
    found = circles(arrows)
    detail = [str(i) for group in found for (a, b), imports in arrows.items() if a in group and b in group
              for i in imports]
    assert found == [], "\n".join(detail)


def test_no_import_points_up(tree: Tree, layers: list[list[str]]) -> None:
    assert [str(i) for i in upward(tree, layers)] == []


def test_the_engine_imports_only_itself_the_card_database_and_the_basics(tree: Tree, layers: list[list[str]]) -> None:
    assert [str(i) for i in outside_reach(tree, "engine", ENGINE_MAY | set(layers[0]))] == []


def test_no_private_module_or_name_is_imported_from_outside_its_package(tree: Tree) -> None:
    assert [str(i) for i in tree.private_imports()] == []


def test_goldfish_is_used_through_its_public_api(tree: Tree) -> None:
    modules, names = goldfish_api(SRC)
    missing = [m for m in modules if f"sengoku.goldfish.{m}" not in tree.modules]
    assert missing == [], "API_MODULES names modules that do not exist"
    assert [str(i) for i in outside_api(tree, "goldfish", modules, names)] == []


def test_the_command_line_is_thin(tree: Tree) -> None:
    bad, unused = pending(thick_cli(tree, "cli", CLI_FORBIDDEN, COMPUTING), CLI_PENDING)
    assert bad == []
    assert unused == [], "no longer happens: drop it from CLI_PENDING"


# --- the checkers, on a planted tree ------------------------------------------------------------

PAGE = """# A tree

```
cli/, sengoku           the command line
tune/                   a tool
goldfish/               simulation
  goldfish/play/          a part, not a unit
engine/                 the engine
carddb/                 cards
_lazy, errors,          basics,
paths                   continued
```
"""


def plant(root: Path, files: dict[str, str]) -> Tree:
    for name, text in files.items():
        path = root / "sengoku" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return Tree(root / "sengoku")


CLEAN = {
    "__init__.py": '_API = {"goldfish": "sengoku.goldfish", "run": "sengoku.goldfish.api:run"}\n'
                   "import importlib\ndef __getattr__(name):\n    return importlib.import_module(_API[name])\n",
    "_lazy.py": "def lazy_exports(package, names): ...\n",
    "errors.py": "class DataError(Exception): ...\n",
    "paths.py": "from sengoku.errors import DataError\n",
    "carddb/__init__.py": "",
    "carddb/load.py": "from ..errors import DataError\n_cache = {}\n",
    "engine/__init__.py": "from sengoku.carddb.load import DataError\n",
    "goldfish/__init__.py": 'from sengoku._lazy import lazy_exports\n_NAMES = {"run": "sengoku.goldfish.api"}\n'
                            'API_MODULES = ("api", "play.seeds")\n__getattr__ = lazy_exports(__name__, _NAMES)\n',
    "goldfish/api.py": "import sengoku.engine\nfrom sengoku.goldfish.play.seeds import SEED\ndef run(): ...\n_private = 1\n",
    "goldfish/play/__init__.py": "",
    "goldfish/play/seeds.py": "from sengoku.goldfish.play import _inner\nSEED = 1\n",  # its own package's
    "goldfish/play/_inner.py": "",
    "tune/__init__.py": "from sengoku.goldfish import run\nfrom sengoku.goldfish.play.seeds import SEED\n",
    "cli/__init__.py": "import json\nimport sys\nfrom sengoku.goldfish.api import run\n",
}


def test_the_drawing_is_read_bottom_up_with_continued_lines() -> None:
    assert drawn_layers(PAGE) == [["_lazy", "errors", "paths"], ["carddb"], ["engine"], ["goldfish"], ["tune"],
                                  ["cli", "sengoku"]]


def test_a_clean_planted_tree_breaks_no_rule(tmp_path: Path) -> None:
    tree = plant(tmp_path, CLEAN)
    layers = drawn_layers(PAGE)
    modules, names = goldfish_api(tmp_path / "sengoku")
    assert unplaced(tree, layers) == [] and circles(tree.arrows()) == [] and upward(tree, layers) == []
    assert outside_reach(tree, "engine", ENGINE_MAY | set(layers[0])) == []
    assert tree.private_imports() == []
    assert outside_api(tree, "goldfish", modules, names) == []
    assert thick_cli(tree, "cli", CLI_FORBIDDEN, COMPUTING) == []
    # the lazy tables count as imports: the root's "module:attribute" and lazy_exports' "name": "module"
    lazy = {(i.importer, i.module, i.name) for i in tree.imports() if i.lazy}
    assert lazy == {("sengoku", "sengoku.goldfish", None), ("sengoku", "sengoku.goldfish.api", "run"),
                    ("sengoku.goldfish", "sengoku.goldfish.api", "run")}


def test_each_planted_violation_is_found(tmp_path: Path) -> None:
    tree = plant(tmp_path, {
        **CLEAN,
        # the engine reaches up, inside a function and relatively: goldfish is above it (and imports it)
        "engine/rules.py": "def f():\n    from ..goldfish import api\n",
        # tune takes a private name, and a module goldfish keeps to itself, and a private one by attribute
        "tune/race.py": "from sengoku.goldfish.api import _private\nfrom sengoku.goldfish.play import _inner\n"
                        "import sengoku.carddb.load as load\nx = load._cache\n",
        # the command line computes, and plays
        "cli/run.py": "import math\nfrom itertools import count\nfrom sengoku.goldfish.play.seeds import SEED\n",
        # a unit the drawing does not place, in a circle with carddb
        "extra.py": "from sengoku.carddb import load\n",
        "carddb/more.py": "import sengoku.extra\n",
    })
    layers = drawn_layers(PAGE)
    modules, names = goldfish_api(tmp_path / "sengoku")
    assert unplaced(tree, layers) == ["extra"]
    assert sorted(circles(tree.arrows())) == [["carddb", "extra"], ["engine", "goldfish"]]
    assert sorted(str(i) for i in upward(tree, layers)) == ["sengoku/engine/rules.py:2 imports sengoku.goldfish.api",
                                                            "sengoku/extra.py:1 imports sengoku.carddb.load"]
    assert [str(i) for i in outside_reach(tree, "engine", ENGINE_MAY | set(layers[0]))] == \
        ["sengoku/engine/rules.py:2 imports sengoku.goldfish.api"]
    assert sorted(str(i) for i in tree.private_imports()) == [
        "sengoku/tune/race.py:1 imports sengoku.goldfish.api._private",
        "sengoku/tune/race.py:2 imports sengoku.goldfish.play._inner",
        "sengoku/tune/race.py:4 imports sengoku.carddb.load._cache",
    ]
    # goldfish.api is in API_MODULES (only the layers keep the engine from it); goldfish.play._inner is not
    assert [str(i) for i in outside_api(tree, "goldfish", modules, names)] == [
        "sengoku/tune/race.py:2 imports sengoku.goldfish.play._inner"]
    assert sorted(str(i) for i in thick_cli(tree, "cli", CLI_FORBIDDEN, COMPUTING)) == [
        "sengoku/cli/run.py:1 imports math",
        "sengoku/cli/run.py:2 imports itertools.count",
        "sengoku/cli/run.py:3 imports sengoku.goldfish.play.seeds.SEED",
    ]


def test_an_allowed_exception_that_no_longer_happens_fails(tmp_path: Path) -> None:
    tree = plant(tmp_path, {**CLEAN, "cli/run.py": "from sengoku.goldfish.play.seeds import SEED\n"})
    found = thick_cli(tree, "cli", CLI_FORBIDDEN, COMPUTING)
    allowed = {("sengoku.cli.run", "sengoku.goldfish.play.seeds"): "why", ("sengoku.cli.gone", "sengoku.engine"): "why"}
    assert pending(found, allowed) == ([], [("sengoku.cli.gone", "sengoku.engine")])
    assert pending(found, {})[0] == ["sengoku/cli/run.py:1 imports sengoku.goldfish.play.seeds.SEED"]


# --- imports inside functions ----------------------------------------------------------------------

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
