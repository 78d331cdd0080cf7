"""Text report: one line per violation, `path:line:col severity rule-id message [cards]`.

Laid out with rich into a buffer, never a terminal, so the lines are plain wherever they go (and
can be grepped). Each file's lines are written as soon as it is checked.
"""

from __future__ import annotations

import io
from typing import Any, TextIO

from rich.console import Console
from rich.text import Text

from sengoku.display import printable
from sengoku.games import game_code
from sengoku.validate.reporters.spool import Document

_STYLE = {"error": "bold red", "warning": "yellow"}


def location(path: str | None, line: int | None, column: int | None) -> str:
    """Return `path:line:col`, leaving out what is unknown."""
    where = printable(path) if path else "<decklist>"
    if line is not None:
        where += f":{line}"
        if column is not None:
            where += f":{column}"
    return where


def _kind(result: Any) -> str:
    # Only a game with modes (SENGOKU YUGI's Standard/Ultimate) names its mode beside it.
    code = game_code(result.game)
    return f"{result.game}, {result.mode}" if code is not None and code.modes else result.game


class Report:
    """Write every file's violations (or that it is valid) as each file is checked."""

    def __init__(self, out: TextIO, strict: bool = False):
        self._out = out
        # Rendered into a buffer, then written: the lines are the same wherever they go.
        self._buffer = io.StringIO()
        self._console = Console(file=self._buffer, highlight=False, soft_wrap=True)

    def add(self, result: Any) -> None:
        _print(self._console, result)
        self._out.write(self._buffer.getvalue())
        self._buffer.seek(0)
        self._buffer.truncate()

    def finish(self, tally: Any) -> Document:
        return Document()


def _print(console: Console, result: Any) -> None:
    where = location(result.path, None, None)
    notes = [v for v in result.info.values() if isinstance(v, str)]  # e.g. a --format that did not apply
    for key, values in result.info.items():
        if isinstance(values, dict):  # reported values, e.g. champions' starting life
            shown = "; ".join(f"{k}: {v}" for k, v in values.items())
            console.print(Text.assemble((where, "bold"), " ", ("info", "blue"), f" {key}: {printable(shown)}"))
    if not result.violations:
        cards = sum(sum(c.values()) for c in result.sections.values())
        console.print(Text.assemble((where, "bold"), " ",
                                    ("valid", "green"), f" ({_kind(result)}, {cards} cards)"))
    for v in result.violations:
        line = Text.assemble((location(result.path, v.line, v.column), "bold"), " ",
                             (v.severity, _STYLE.get(v.severity, "")), " ", (v.rule, "cyan"), " ",
                             printable(v.message))
        if v.cards:
            line.append(printable(f" [{', '.join(v.cards)}]"), "dim")
        console.print(line)
    for note in notes:  # after the file's verdict, which it qualifies
        console.print(Text.assemble((where, "bold"), " ", ("info", "blue"), f" {printable(note)}"))
