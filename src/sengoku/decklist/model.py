"""A decklist as read from a file, before it is checked against a card database.

Entries keep the TOML line (and column) they came from so every violation can point at it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sengoku.games import DEFAULT_GAME

GAME_DEFAULT = DEFAULT_GAME  # the old name, until decklist/fmt.py asks sengoku.games too


@dataclass(frozen=True)
class DeckEntry:
    """One `[[section]]` table of a decklist: a card named by `id` or by `name` (+ `level`, `epithet`)."""

    section: str  # "main" | "nameless" | "familiars" (SENGOKU YUGI); "deck", "champions", ... (other games)
    count: int = 1
    name: str | None = None
    id: str | None = None
    level: int | None = None
    epithet: str | None = None
    line: int | None = None
    column: int | None = None


@dataclass
class Decklist:
    """A parsed decklist file (or one built in code)."""

    entries: list[DeckEntry] = field(default_factory=list)
    game: str = DEFAULT_GAME
    name: str | None = None
    mode: str = "standard"  # "standard" | "ultimate"
    format: str | None = None
    path: str | None = None
    extra: dict[str, object] = field(default_factory=dict)  # other top-level keys (e.g. champions' `players`)
    # where each top-level key and each section starts in the file: name -> (line, column)
    positions: dict[str, tuple[int, int]] = field(default_factory=dict)
    # the `syntax` violations found reading the file: they travel with the deck, so every command
    # given this Decklist refuses what `validate` refuses (one verdict per deck)
    syntax: list[object] = field(default_factory=list, compare=False, repr=False)

    def section(self, section: str) -> list[DeckEntry]:
        """Return the entries of one section, in file order."""
        return [e for e in self.entries if e.section == section]

    def settings(self) -> dict[str, object]:
        """Return the top-level values rules may test with `when` (game, mode, name, format, extras)."""
        return {"game": self.game, "mode": self.mode, "name": self.name, "format": self.format, **self.extra}
