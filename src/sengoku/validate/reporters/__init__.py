"""Reporters: turn a `ValidationRun` into text, JSON, GitHub annotations, JUnit XML or SARIF.

Chosen by name; each module has one job and a `write(run, stream)` function. The checker
knows nothing of them, and a new output format is a new module listed here.
"""

from __future__ import annotations

import importlib
import io
from collections.abc import Callable
from typing import Any, TextIO

from sengoku.errors import DataError

REPORTERS: dict[str, str] = {
    "text": "sengoku.validate.reporters.text",
    "json": "sengoku.validate.reporters.json_report",
    "github": "sengoku.validate.reporters.github",
    "junit": "sengoku.validate.reporters.junit",
    "sarif": "sengoku.validate.reporters.sarif",
}


def get_reporter(name: str) -> Callable[[Any, TextIO], None]:
    """Return the `write(run, stream)` function of the reporter called `name`."""
    module = REPORTERS.get(name)
    if module is None:
        raise DataError(None, f"unknown output format {name!r} (known: {', '.join(REPORTERS)})")
    return importlib.import_module(module).write  # type: ignore[no-any-return]


def render(name: str, run: Any) -> str:
    """Return a run rendered by the reporter called `name`, as a string."""
    buffer = io.StringIO()
    get_reporter(name)(run, buffer)
    return buffer.getvalue()
