"""Text report: one line per violation, `path:line:col severity rule-id message [cards]`.

Plain lines wherever they go (they can be grepped), written as soon as each file is checked.
Written as plain strings, not through rich: importing rich's console is a third of a one-file
`sengoku validate` run's start-up, and every text these lines hold is escaped by `printable`.
"""

from __future__ import annotations

from typing import Any, TextIO

from sengoku.display import printable
from sengoku.games import game_code
from sengoku.validate.reporters.spool import Document


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

    def add(self, result: Any) -> None:
        self._out.write("".join(line + "\n" for line in lines(result)))

    def finish(self, tally: Any) -> Document:
        return Document()


def lines(result: Any) -> list[str]:
    """Return the report's lines for one file's result."""
    where = location(result.path, None, None)
    out = []
    notes = [v for v in result.info.values() if isinstance(v, str)]  # e.g. a --format that did not apply
    for key, values in result.info.items():
        if isinstance(values, dict):  # reported values, e.g. champions' starting life
            shown = "; ".join(f"{k}: {v}" for k, v in values.items())
            out.append(f"{where} info {key}: {printable(shown)}")
    if not result.violations:
        cards = sum(sum(c.values()) for c in result.sections.values())
        out.append(f"{where} valid ({_kind(result)}, {cards} cards)")
    for v in result.violations:
        line = f"{location(result.path, v.line, v.column)} {v.severity} {v.rule} {printable(v.message)}"
        if v.cards:
            line += printable(f" [{', '.join(v.cards)}]")
        out.append(line)
    for note in notes:  # after the file's verdict, which it qualifies
        out.append(f"{where} info {printable(note)}")
    return out
