"""Reporters: turn a `ValidationRun` into text, JSON, GitHub annotations, JUnit XML, SARIF or Markdown.

Chosen by name; each module has one job and a `Report` class that takes the results one file at a
time (`sengoku.validate.reporters.spool` says how, and why). The checker knows nothing of them,
and a new output format is a new module listed here.
"""

from __future__ import annotations

import importlib
import io
from collections.abc import Callable
from typing import Any, TextIO

from sengoku.errors import DataError
from sengoku.validate.reporters.spool import Reporter

REPORTERS: dict[str, str] = {
    "text": "sengoku.validate.reporters.text",
    "json": "sengoku.validate.reporters.json_report",
    "github": "sengoku.validate.reporters.github",
    "junit": "sengoku.validate.reporters.junit",
    "sarif": "sengoku.validate.reporters.sarif",
    "markdown": "sengoku.validate.reporters.markdown",
}


def get_reporter(name: str) -> Callable[[TextIO, bool], Reporter]:
    """Return the `Report` class (built with `(out, strict)`) of the reporter called `name`."""
    module = REPORTERS.get(name)
    if module is None:
        raise DataError(None, f"unknown output format {name!r} (known: {', '.join(REPORTERS)})")
    return importlib.import_module(module).Report  # type: ignore[no-any-return]


def write_run(report: Callable[[TextIO, bool], Reporter], run: Any, stream: TextIO) -> None:
    """Write a whole run (a `ValidationRun`) to `stream` with a reporter class."""
    reporter = report(stream, run.strict)
    for result in run.results:
        reporter.add(result)
    document = reporter.finish(run.tally())
    try:
        document.write_to(stream)
    finally:
        document.close()


def render(name: str, run: Any) -> str:
    """Return a run rendered by the reporter called `name`, as a string."""
    buffer = io.StringIO()
    write_run(get_reporter(name), run, buffer)
    return buffer.getvalue()
