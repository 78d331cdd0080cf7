"""The library's one root error type and its kin.

The CLI turns a `SengokuError` into a message and exit code 2 (unreadable or unusable input);
problems *found in* valid input (a deck breaking a rule, a card DB failing a check) are
results, not exceptions.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


class SengokuError(Exception):
    """Root of every error the library raises on purpose."""


@dataclass
class DataError(SengokuError):
    """Input that cannot be read at all: missing, not UTF-8, not JSON/TOML, wrong shape."""

    path: Path | str | None
    message: str
    line: int | None = None
    column: int | None = None

    def __str__(self) -> str:
        if self.path is None:  # an option or a name, not a file: the message says which
            return self.message
        where = str(self.path)
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        return f"{where}: {self.message}"
