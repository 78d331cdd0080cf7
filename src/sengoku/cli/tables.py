"""Tables on the terminal, shared by `sengoku cards` and `sengoku games`."""

from __future__ import annotations

from typing import Any

from sengoku.display import printable


def console() -> Any:
    """Return a console for a table: wide enough when piped, no highlighting of numbers."""
    # deferred: rich's start-up time, paid only by commands that print a table
    from rich.console import Console

    out = Console(highlight=False)
    if not out.is_terminal:
        out.width = max(out.width, 160)  # piped output: do not squeeze the table to 80 columns
    return out


def cell(text: object) -> str:
    """Return text from a card database as a table cell: hidden characters escaped, no rich markup."""
    # deferred: rich's start-up time, paid only by commands that print a table
    from rich.markup import escape

    return escape(printable(str(text)))
