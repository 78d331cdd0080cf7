"""What the checks find, shared by every layer: one `Problem` type.

`sengoku db check` (card databases, board, rule and format files) and deck validation
(collected into a `sengoku.validate.result.ValidationResult`) report the same `Problem`: a
stable id of the rule or check broken, a severity, a message, and where (file, line, column,
cards, JSON path), as far as each check knows it. Each command serialises it in its own
documented shape (`db check --json` names the id `code` and one `card_id`; `validate -o json`
names it `rule` and lists `cards`). It lives here, at the bottom, so that the readers that find
problems (`sengoku.decklist`, `sengoku.formats`, `sengoku.carddb`) need nothing from the layers above.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

UNREADABLE = "unreadable"  # the rule id of a problem that is a file not read at all (exit 2)


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing found wrong: which rule (`deck-size`, `copy-limit`, `schema`, ...), how bad, what, and where."""

    rule: str
    severity: str  # "error" | "warning"
    message: str
    line: int | None = None
    column: int | None = None
    cards: tuple[Any, ...] = ()  # card ids (or names, when the card is unknown)
    path: str | None = None  # the file; None where what holds the problem names it (a deck's result)
    json_path: str = "$"  # where in a JSON or TOML document; "$" is the whole of it

    @property
    def card_id(self) -> Any:
        """The first card concerned, None if none (a data file's problem concerns at most one)."""
        return self.cards[0] if self.cards else None

    def location(self) -> str:
        """Return 'file[:line] card <id> at <json path>' for messages."""
        where = (self.path or "") + (f":{self.line}" if self.line else "")
        who = f" card {self.card_id}" if self.card_id else ""
        return f"{where}{who} at {self.json_path}"

    def __str__(self) -> str:
        return f"{self.location()}: {self.message}"


def one_card(card_id: Any) -> tuple[Any, ...]:
    """Return the `cards` of a problem about one card whose id may be unknown (None)."""
    return () if card_id is None else (card_id,)


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
