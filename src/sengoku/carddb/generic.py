"""Card databases of the games beside SENGOKU YUGI (issue 5): Senjutsu, FE TCG, clan tactics, champions.

Their cards share only `id`, `name` and `kind`; every other field is the game's own (`rank`,
`divine_spirit`, `life_modifier`, ...) and is fixed by the game's strict JSON Schema in
`schemas/<game>-card-db.schema.json`. One generic model therefore serves all four: a card keeps
its fields as they are in the JSON (readable as attributes), so the rule vocabulary, `sengoku
cards` and goldfish can read any field by name without a model per game.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

from pydantic import BaseModel, ConfigDict

from sengoku.carddb.models import Meta
from sengoku.problems import Problem, one_card

class GenericCard(BaseModel):
    """A card of a non-SENGOKU game: `id`, `name`, `kind`, and the game's own fields as attributes."""

    model_config = ConfigDict(extra="allow", frozen=True)

    id: str
    name: str
    kind: str

    def fields(self) -> dict[str, Any]:
        """Return every field of the card, as in the JSON."""
        return self.model_dump(mode="json")


GenericMeta = Meta  # every game's database carries the same metadata


class GenericCardDatabase(BaseModel):
    """A loaded card database of a non-SENGOKU game (same surface as `CardDatabase` where it matters)."""

    meta: GenericMeta
    cards: tuple[GenericCard, ...]
    path: str | None = None
    content_hash: str = ""

    def by_id(self) -> dict[str, GenericCard]:
        """Map card id to card."""
        return {c.id: c for c in self.cards}

    def of_kind(self, *kinds: str) -> list[GenericCard]:
        """Return the cards whose `kind` is one of `kinds`."""
        return [c for c in self.cards if c.kind in kinds]


def _p(path: str, i: int, card: dict[str, Any], field: str, message: str, code: str) -> Problem:
    return Problem(severity="error", path=path, message=message, cards=one_card(card.get("id")),
                   json_path=f"$.cards[{i}].{field}", rule=code)


def check_duplicate_ids(path: str, cards: list[Any], valid: set[int]) -> Iterator[Problem]:
    """Every card id is unique: decklists and formats name cards by id."""
    ids = Counter(c.get("id") for c in cards if isinstance(c, dict))
    for i in sorted(valid):
        card = cards[i]
        if ids[card["id"]] > 1:
            yield _p(path, i, card, "id", f"duplicate id {card['id']!r} ({ids[card['id']]} cards share it)",
                     "duplicate-id")


def check_duplicate_names(path: str, cards: list[Any], valid: set[int]) -> Iterator[Problem]:
    """Warn when two cards share a name: decklists naming it become ambiguous and need `id`."""
    names = Counter(c.get("name") for c in cards if isinstance(c, dict))
    for i in sorted(valid):
        card = cards[i]
        if names[card["name"]] > 1:
            yield Problem(path=path, message=f"{names[card['name']]} cards are named {card['name']!r}; "
                          "decklists must name them by `id`", cards=one_card(card["id"]),
                          json_path=f"$.cards[{i}].name", severity="warning", rule="duplicate-name")


CHECKS = (check_duplicate_ids, check_duplicate_names)


def run_checks(path: str, cards: list[Any], valid: set[int] | None = None) -> list[Problem]:
    """Run the checks every game's database gets, over the cards that passed the schema."""
    if valid is None:
        valid = set(range(len(cards)))
    valid = {i for i in valid if isinstance(cards[i], dict) and isinstance(cards[i].get("id"), str)
             and isinstance(cards[i].get("name"), str)}
    return [p for check in CHECKS for p in check(path, cards, valid)]
