"""Find cards in a database by kind, level, weapon, attribute and name (for `sengoku cards`).

Matching works on the cards as the database spells them (plain dicts with the file's own field
names), so the same query serves `--json` output and other games' databases alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sengoku.carddb.models import ATTRIBUTES, WEAPONS, CardDatabase
from sengoku.carddb.names import fold
from sengoku.errors import SengokuError
from sengoku.games import game_code

KINDS: tuple[str, ...] = ("main", "support", "nameless", "familiar")
LEVELS: tuple[int, ...] = (1, 2, 3, 4)

# filter name -> its valid values (SPEC C1, C2)
CHOICES: dict[str, tuple[Any, ...]] = {"kind": KINDS, "level": LEVELS, "weapon": WEAPONS, "attribute": ATTRIBUTES}


class QueryError(SengokuError):
    """A filter value that is not one of the valid choices."""

    def __init__(self, field: str, value: object, choices: tuple[Any, ...]):
        self.field, self.value, self.choices = field, value, choices
        super().__init__(f"{value!r} is not a valid {field}; choose from: {', '.join(map(str, choices))}")


def choices_for(db: Any) -> dict[str, tuple[Any, ...]]:
    """Return the valid values of each filter for a database.

    SENGOKU YUGI's are fixed by the card rules (C1, C2); another game's are the values its
    cards actually carry (its own schema fixes them), so one query serves every game.
    """
    code = game_code(db.meta.game)
    if code is not None and code.card_model == "sengoku":
        return CHOICES
    cards = card_dicts(db)
    out: dict[str, tuple[Any, ...]] = {}
    for field in CHOICES:
        values = {c[field] for c in cards if isinstance(c.get(field), (str, int)) and not isinstance(c.get(field), bool)}
        out[field] = tuple(sorted(values, key=str))
    return out


def normalise(field: str, value: str | int, choices_by_field: dict[str, tuple[Any, ...]] | None = None) -> str | int:
    """Return the database spelling of a filter value ("Dual Blades" -> "dual_blades"); raise QueryError."""
    choices = (choices_by_field or CHOICES)[field]
    if field == "level":
        try:
            level = int(value)
        except ValueError:
            raise QueryError(field, value, choices) from None
        if level not in choices:
            raise QueryError(field, value, choices)
        return level
    key = str(value).strip().lower().replace(" ", "_").replace("-", "_")
    if key not in choices:
        raise QueryError(field, value, choices)
    return key


@dataclass(frozen=True)
class CardQuery:
    """Which cards to show: every given filter must hold. `text` is a case-insensitive name substring."""

    text: str | None = None
    kind: str | None = None
    level: int | None = None
    weapon: str | None = None
    attribute: str | None = None

    @classmethod
    def parse(cls, text: str | None = None, choices: dict[str, tuple[Any, ...]] | None = None,
              **filters: Any) -> CardQuery:
        """Build a query from user input, checking each filter against its valid `choices` (default C1, C2)."""
        clean = {k: normalise(k, v, choices) for k, v in filters.items() if v is not None}
        return cls(text=text or None, **clean)

    def matches(self, card: dict[str, Any]) -> bool:
        """Check if a card (in the database's own field names) passes every filter."""
        for field in ("kind", "level", "weapon", "attribute"):
            want = getattr(self, field)
            if want is not None and card.get(field) != want:
                return False
        if self.text:
            needle = fold(str(self.text))
            # The name is what users type; an exact id also finds its card.
            if needle not in fold(str(card.get("name", ""))) and needle != fold(str(card.get("id", ""))):
                return False
        return True


def card_dicts(db: CardDatabase) -> list[dict[str, Any]]:
    """Return the cards as the file spells them: its field names (`def`), only the fields it gives."""
    return [card.model_dump(mode="json", by_alias=True, exclude_unset=True) for card in db.cards]


def find_cards(db: CardDatabase, query: CardQuery | None = None) -> list[dict[str, Any]]:
    """Return the cards of `db` matching `query` (all cards if None), in file order."""
    query = query or CardQuery()
    return [card for card in card_dicts(db) if query.matches(card)]
