"""What the checks find, shared by every layer: a data file's `Problem` and a deck's `Violation`.

`sengoku db check` (card databases, board, rule and format files) reports `Problem`s; deck
validation reports `Violation`s (collected into a `sengoku.validate.result.ValidationResult`).
Both live here, at the bottom, so that the readers that find them (`sengoku.decklist`,
`sengoku.formats`, `sengoku.carddb`) need nothing from the layers above.
"""

from __future__ import annotations

from dataclasses import dataclass, field

UNREADABLE = "unreadable"  # the code of a problem that is a file not read at all (exit 2)


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a data file, located as precisely as we can."""

    path: str
    message: str
    card_id: str | None = None
    json_path: str = "$"
    severity: str = "error"  # "error" | "warning"
    code: str = "schema"
    line: int | None = None

    def location(self) -> str:
        """Return 'file[:line] card <id> at <json path>' for messages."""
        where = self.path + (f":{self.line}" if self.line else "")
        who = f" card {self.card_id}" if self.card_id else ""
        return f"{where}{who} at {self.json_path}"

    def __str__(self) -> str:
        return f"{self.location()}: {self.message}"


@dataclass
class CheckReport:
    """Every problem found in one or more files, collected, never stopping at the first."""

    problems: list[Problem] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    unreadable: list[str] = field(default_factory=list)  # files that could not be read at all

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]

    @property
    def ok(self) -> bool:
        return not self.errors


@dataclass(frozen=True)
class Violation:
    """One broken rule: a stable rule id (`deck-size`, `copy-limit`, ...), where, and which cards."""

    rule: str
    severity: str  # "error" | "warning"
    message: str
    line: int | None = None
    column: int | None = None
    cards: tuple[str, ...] = ()  # card ids (or names, when the card is unknown)
