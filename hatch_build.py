"""Wheel build hook: compile the rules engine (`sengoku.engine`) with mypyc, or leave it pure Python.

The engine's modules are plain, fully typed Python; mypyc turns the same source into C
extensions that play games about twice as fast (see docs/performance.md). There is
one implementation either way: the compiled modules are built from the .py files shipped
beside them, and Python imports the compiled ones when they are there.

- Editable installs (`pip install -e .`) stay pure Python, so an edited .py file takes effect at
  once; the test suite runs on them. Regular installs and wheels are compiled.
- `SENGOKU_PURE_PYTHON=1` skips compiling; if compiling fails (no C compiler, say) the build
  warns and carries on with a pure-Python wheel that works the same, only slower.
- pre-commit installing the hooks of .pre-commit-hooks.yaml skips compiling too: the hooks only
  validate and format decklists, which play no game, and compiling cost each hook's first run
  about a minute. pre-commit has no setting for an install's environment, so the hook knows it by
  the environment pip installs into: `VIRTUAL_ENV` is pre-commit's `<cache>/repo<id>/py_env-<version>`.
- Compiling happens in a temporary copy of the package: nothing is written into the source tree,
  so no stale extension module can ever shadow an edited .py file.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

# The engine modules compiled (the package __init__s, errors and the fitted rules' weights stay
# Python: nothing hot there).
ENGINE_MODULES = ("constants", "board", "combat", "chance", "tables", "ally", "actions", "chooser", "zones", "setup", "turn",
                  "abilities", "main_phase", "ultimate", "familiar_abilities", "attack", "state", "clone",
                  "policies/base", "policies/idle", "policies/random_play", "policies/develop",
                  "policies/greedy/settings", "policies/greedy/known", "policies/greedy/walks", "policies/greedy/odds",
                  "policies/greedy/moves", "policies/greedy/fitted", "policies/greedy/deploy", "policies/greedy/charges",
                  "policies/greedy/attacks", "policies/greedy/lookahead", "policies/greedy/policy", "policies/search", "game")
PURE_ENV = "SENGOKU_PURE_PYTHON"

# Run in the build environment, inside the temporary copy: mypyc's documented setuptools route.
_SETUP = """
import sys
from setuptools import setup
from mypyc.build import mypycify
setup(name="sengoku-engine", script_args=["build_ext", "--inplace"],
      ext_modules=mypycify(sys.argv[1:], opt_level="3"))
"""
# Type information only: modules outside the engine are read but not checked, and libraries the
# build environment lacks (pydantic, typer...) count as Any.
_MYPY_FLAGS = ("--ignore-missing-imports", "--follow-imports=silent", "--no-warn-unused-ignores")


def for_pre_commit_hook(virtual_env: str) -> bool:
    """Tell whether pip installs into a hook environment of pre-commit (`.../repo<id>/py_env-<version>`)."""
    folder = Path(virtual_env) if virtual_env else None
    return folder is not None and folder.name.startswith("py_env-") and folder.parent.name.startswith("repo")


class EngineBuildHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable":
            return
        if os.environ.get(PURE_ENV, "").strip() not in ("", "0"):
            self.app.display_info(f"{PURE_ENV} is set: the rules engine stays pure Python")
            return
        if for_pre_commit_hook(os.environ.get("VIRTUAL_ENV", "")):
            self.app.display_info("installed for a pre-commit hook, which plays no game: the rules engine stays pure Python")
            return
        self._temp = tempfile.mkdtemp(prefix="sengoku-mypyc-")
        try:
            built = self._compile(Path(self._temp))
        except (OSError, RuntimeError, subprocess.SubprocessError) as exc:
            self.app.display_warning(f"compiling the rules engine with mypyc failed; it stays pure Python "
                                     f"(same results, slower):\n{exc}")
            return
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        for path, target in built.items():
            build_data["force_include"][path] = target
        self.app.display_info(f"rules engine compiled with mypyc: {len(built)} extension modules")

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        temp = getattr(self, "_temp", None)
        if temp:
            shutil.rmtree(temp, ignore_errors=True)

    def _compile(self, temp: Path) -> dict[str, str]:
        """Compile the engine in `temp`; return {extension file: its path inside the wheel}."""
        src = temp / "src"
        shutil.copytree(Path(self.root) / "src" / "sengoku", src / "sengoku",
                        ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", "*.c"))
        files = [f"sengoku/engine/{name}.py" for name in ENGINE_MODULES]
        done = subprocess.run([sys.executable, "-c", _SETUP, *_MYPY_FLAGS, *files], cwd=src,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              env={**os.environ, "MYPY_CACHE_DIR": str(temp / "mypy-cache")})
        if done.returncode != 0:
            raise RuntimeError("\n".join(done.stdout.splitlines()[-25:]))
        # In place: beside each module, and mypyc's shared runtime library at the top level
        # (setuptools' own build/ folder holds copies, left out).
        built = {str(p): p.relative_to(src).as_posix() for pattern in ("*.so", "*.pyd")
                 for p in (*src.glob(pattern), *(src / "sengoku").rglob(pattern))}
        missing = [name for name in ENGINE_MODULES
                   if not any(t.startswith(f"sengoku/engine/{name}.") for t in built.values())]
        if missing:
            raise RuntimeError(f"mypyc produced no extension module for {', '.join(missing)}")
        return built
