"""Text report: one line per violation, `path:line:col severity rule-id message [cards]`.

Coloured with rich when the stream is a terminal; plain otherwise (so it can be grepped).
"""

from __future__ import annotations

from typing import Any, TextIO

from rich.console import Console
from rich.text import Text

from sengoku.display import printable
from sengoku.games import game_code

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


def write(run: Any, stream: TextIO) -> None:
    """Write every file's violations (or that it is valid) to `stream`."""
    console = Console(file=stream, highlight=False, soft_wrap=True)
    for result in run.results:
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
