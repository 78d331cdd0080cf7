"""A tournament format and its dated lists."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from sengoku.errors import DataError


class FormatError(DataError):
    """A format that cannot be used: unknown name, unreadable file, no list in force."""


@dataclass(frozen=True)
class FormatList:
    """One dated list: what is banned, restricted (max 1), limited (max N) and which sets are allowed."""

    effective: dt.date
    source: str
    banned: frozenset[str] = frozenset()
    restricted: frozenset[str] = frozenset()
    limited: dict[str, int] = field(default_factory=dict)
    sets: frozenset[str] | None = None  # None: every set is allowed

    def limit(self, card_id: str) -> int | None:
        """Return how many copies the list allows of a card (0 when banned), or None for no limit."""
        if card_id in self.banned:
            return 0
        if card_id in self.restricted:
            return 1
        return self.limited.get(card_id)


@dataclass(frozen=True)
class Format:
    """A tournament format: its name (the file's stem), title, game, and its lists by date."""

    name: str
    title: str
    game: str
    lists: tuple[FormatList, ...]  # sorted by effective date, oldest first
    path: str | None = None
    sample: bool = False
    description: str | None = None

    def in_force(self, as_of: dt.date | str | None = None) -> FormatList:
        """Return the list in force on `as_of` (default today): the latest one effective on or before it."""
        day = parse_as_of(as_of)
        current = [lst for lst in self.lists if lst.effective <= day]
        if not current:
            first = self.lists[0].effective.isoformat() if self.lists else "never"
            raise FormatError(self.path, f"format {self.name!r} has no list in force on {day.isoformat()} "
                              f"(its first list takes effect on {first}); pass a later --as-of date")
        return current[-1]

    def upcoming(self, as_of: dt.date | str | None = None) -> list[FormatList]:
        """Return the lists that take effect after `as_of` (default today)."""
        day = parse_as_of(as_of)
        return [lst for lst in self.lists if lst.effective > day]


def parse_as_of(value: dt.date | str | None) -> dt.date:
    """Turn an --as-of value (a date, 'YYYY-MM-DD', or None for today) into a date."""
    if value is None:
        return dt.date.today()
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    try:
        return dt.date.fromisoformat(str(value).strip())
    except ValueError:
        raise FormatError(None, f"not a date: {value!r} (write YYYY-MM-DD, e.g. 2026-04-01)") from None
