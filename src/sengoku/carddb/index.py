"""Raw cards (the database's field dicts) indexed as a decklist names them: by id, name, epithet.

One index serves `validate` (entry resolution), `fmt` (sort order) and `import` (plain-text
lines); every key is folded with `carddb.names.fold`, so all three match names alike.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from typing import Any

from sengoku.carddb.names import fold

Card = Mapping[str, Any]


def cards_by_id(data: Mapping[str, Any]) -> dict[str, Card]:
    """Return a parsed card database's cards by id (a repeated id: its last card, at its first place)."""
    return {c["id"]: c for c in data.get("cards", [])}


class CardIndex:
    """Cards by folded id, by folded name and by folded epithet (each list in database order)."""

    def __init__(self, cards: Iterable[Card]):
        self.cards: list[Card] = list(cards)
        self.by_id: dict[str, Card] = {}
        self.by_name: dict[str, list[Card]] = {}
        self.by_epithet: dict[str, list[Card]] = {}
        for card in self.cards:
            card_id, name, epithet = card.get("id"), card.get("name"), card.get("epithet")
            if isinstance(card_id, str):
                self.by_id[fold(card_id)] = card
            if isinstance(name, str):
                self.by_name.setdefault(fold(name), []).append(card)
            if isinstance(epithet, str):
                self.by_epithet.setdefault(fold(epithet), []).append(card)

    def with_id(self, card_id: str) -> Card | None:
        """Return the card whose id folds like `card_id`, or None."""
        return self.by_id.get(fold(card_id))

    def named(self, name: str) -> list[Card]:
        """Return the cards whose name folds like `name`, in database order."""
        return self.by_name.get(fold(name), [])

    def with_epithet(self, epithet: str) -> list[Card]:
        """Return the cards whose epithet folds like `epithet`, in database order."""
        return self.by_epithet.get(fold(epithet), [])

    def close_names(self, name: str) -> list[list[Card]]:
        """Return the cards of up to three names close to `name` (for "did you mean"), closest first."""
        keys = difflib.get_close_matches(fold(name), list(self.by_name), n=3, cutoff=0.6)
        return [self.by_name[k] for k in keys]


def same_epithet(card: Card, epithet: str) -> bool:
    """Tell whether a card's epithet folds like `epithet` (a card without one has the empty epithet)."""
    return fold(str(card.get("epithet", ""))) == fold(epithet)
