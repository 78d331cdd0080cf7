"""Which build of the rules engine is installed: compiled with mypyc (see `hatch_build.py`) or pure Python.

Answered from the files beside the engine's sources, without importing the engine (so that
`sengoku --version` stays instant). Python imports an extension module in preference to the
.py file of the same name, so the files tell what runs.
"""

from __future__ import annotations

from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

# The engine modules whose compiled form matters for speed (hatch_build.ENGINE_MODULES has them all).
_HOT_MODULES = ("state", "policies/greedy/policy", "game")


def engine_compiled() -> bool:
    """Return True when the engine's hot modules are compiled extension modules."""
    folder = Path(__file__).resolve().parent / "engine"
    return all(any((folder / f"{name}{suffix}").is_file() for suffix in EXTENSION_SUFFIXES)
               for name in _HOT_MODULES)


def engine_build() -> str:
    """Say how the rules engine runs: "compiled with mypyc" or "pure Python"."""
    return "compiled with mypyc" if engine_compiled() else "pure Python"
