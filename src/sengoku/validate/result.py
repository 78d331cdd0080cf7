"""What validation returns: violations with rule id, severity, line and cards; one result per deck.

Reporters (text, json, github, junit, sarif, markdown, the registration sheets) read these and nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sengoku.games import DEFAULT_GAME
from sengoku.problems import Problem

__all__ = ["ValidationResult", "Problem"]


@dataclass
class ValidationResult:
    """The outcome of validating one decklist."""

    path: str | None
    violations: list[Problem] = field(default_factory=list)
    # section -> card id -> count, for every entry that resolved to a card (summed).
    sections: dict[str, dict[str, int]] = field(default_factory=dict)
    game: str = DEFAULT_GAME
    mode: str = "standard"
    format: str | None = None
    info: dict[str, object] = field(default_factory=dict)  # e.g. champions' starting life per champion
    unreadable: bool = False  # the file could not be read at all (permissions, a folder, ...)
    skipped: str | None = None  # why the file was not checked: another TOML file, not a decklist
    # the card database checked against, for reproducible reports
    db_name: str | None = None
    db_version: str | None = None
    db_hash: str | None = None
    name: str | None = None  # the deck's own `name`, as the player wrote it
    # SHA-256 of the deck's cards, counts, game, mode and card database (`sengoku.validate.deck_hash`);
    # None when its cards are not known (syntax errors, cards that do not resolve)
    deck_hash: str | None = None
    # card id -> what a printed list shows of it (`name`, `level`, `epithet` where the card has them)
    cards: dict[str, dict[str, object]] = field(default_factory=dict, repr=False)

    @property
    def errors(self) -> list[Problem]:
        return [v for v in self.violations if v.severity == "error"]

    @property
    def warnings(self) -> list[Problem]:
        return [v for v in self.violations if v.severity == "warning"]

    @property
    def valid(self) -> bool:
        """True when no violation is an error (warnings allowed)."""
        return not self.errors

    def passed(self, strict: bool = False) -> bool:
        """True when valid; with `strict`, warnings fail too."""
        return not self.violations if strict else self.valid
