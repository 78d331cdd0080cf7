"""Lazy re-exports for package `__init__` modules, so importing a package stays cheap (PEP 562)."""

from __future__ import annotations

import importlib
import inspect
import sys
from types import ModuleType
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(package: str, names: Mapping[str, str]) -> Callable[[str], Any]:
    """Return a module `__getattr__` that imports `names[attr]` (a module path) on first access."""

    def __getattr__(name: str) -> Any:
        module = names.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(module), name)

    return __getattr__


def callable_package(package: str, function: str) -> None:
    """Make the package `package` callable as its public function `function`, which shares its name.

    Python binds a subpackage to its parent's attribute when it is imported, so whichever came
    last would win: `sengoku.goldfish(...)` would fail once any `sengoku.goldfish.*` module was
    imported, and `import sengoku.goldfish.api` after `sengoku.goldfish(...)` would not reach the
    package. The package is therefore callable: calling it is calling the function, and
    `inspect.signature` and `help()` show the function's parameters and docstring (then the
    package's own docstring), imported on first use as the call does.
    """
    module = sys.modules[package]
    own_doc = module.__doc__ or ""

    def target(self: ModuleType) -> Any:
        return getattr(self, function)

    def doc(self: ModuleType) -> str:
        f = target(self)
        first, _, rest = (inspect.getdoc(f) or "").partition("\n")
        return (f"{first}\n\n{package}{inspect.signature(f)}\n{rest}\n\nThe package {package} (calling it calls "
                f"{f.__module__}.{function}):\n\n{inspect.cleandoc(own_doc)}")

    namespace: dict[str, Any] = {
        "__call__": lambda self, *args, **kwargs: target(self)(*args, **kwargs),
        "__signature__": property(lambda self: inspect.signature(target(self))),
        "__doc__": property(doc),
        "__module__": __name__,
    }
    module.__class__ = type("CallablePackage", (ModuleType,), namespace)
