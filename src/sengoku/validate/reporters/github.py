"""GitHub Actions workflow commands: `::error file=…,line=…,col=…,title=<rule>::<message>`.

GitHub shows these as annotations on the decklist lines of a pull request.
"""

from __future__ import annotations

from typing import Any, TextIO

from sengoku.display import printable_lines
from sengoku.validate.reporters.spool import Document


def _data(text: str) -> str:
    text = printable_lines(text)  # no control or bidi character reaches the log raw; newlines as %0A
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _prop(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def line_for(path: str | None, v: Any) -> str:
    """Return one workflow command line for a violation."""
    props = [f"file={_prop(path or '')}"]
    if v.line is not None:
        props.append(f"line={v.line}")
        if v.column is not None:
            props.append(f"col={v.column}")
    props.append(f"title={_prop(v.rule)}")
    message = v.message + (f" [{', '.join(v.cards)}]" if v.cards else "")
    kind = "error" if v.severity == "error" else "warning"
    return f"::{kind} {','.join(props)}::{_data(message)}"


class Report:
    """Write one workflow command per violation as each file is checked (valid files print nothing)."""

    def __init__(self, out: TextIO, strict: bool = False):
        self._out = out

    def add(self, result: Any) -> None:
        for v in result.violations:
            self._out.write(line_for(result.path, v) + "\n")

    def finish(self, tally: Any) -> Document:
        return Document()
