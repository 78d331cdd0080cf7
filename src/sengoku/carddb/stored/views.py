"""The cards and lookups of an index file, answering as the parsed `{id: card}` and `CardIndex` would."""

from __future__ import annotations

import difflib
from collections.abc import ItemsView, Iterator, Mapping, ValuesView

from sengoku.carddb.index import Card
from sengoku.carddb.names import fold
from sengoku.carddb.stored.reader import IndexFile


class StoredCards(Mapping[str, Card]):
    """The cards of an indexed database by id, as the parsed `{id: card}` would give them."""

    def __init__(self, index: IndexFile):
        self._index = index

    def __getitem__(self, card_id: str) -> Card:
        ix = self._index

        def indexed() -> Card:
            pos = ix.pos_of_id(card_id) if isinstance(card_id, str) else None
            if pos is None:
                raise LookupError(card_id)
            return ix.card(pos)

        try:
            card: Card = ix.ask(indexed, lambda cards, _: cards[card_id])
        except LookupError:
            raise KeyError(card_id) from None
        return card

    def __contains__(self, card_id: object) -> bool:
        ix = self._index
        return bool(ix.ask(lambda: isinstance(card_id, str) and ix.pos_of_id(card_id) is not None,
                           lambda cards, _: card_id in cards))

    def __iter__(self) -> Iterator[str]:
        # the parsed dict's order: the ids' first appearances (read only for "did you mean")
        return iter(self._index.ask(self._index.ids, lambda cards, _: list(cards)))

    def __len__(self) -> int:
        return self._index.count

    def items(self) -> ItemsView[str, Card]:
        return self._index.ask(self._index.every_card, lambda cards, _: cards).items()  # type: ignore[no-any-return]

    def values(self) -> ValuesView[Card]:
        return self._index.ask(self._index.every_card, lambda cards, _: cards).values()  # type: ignore[no-any-return]


class StoredIndex:
    """`CardIndex`'s lookups (by folded id, name, epithet) answered from an index file."""

    def __init__(self, index: IndexFile):
        self._index = index

    @property
    def cards(self) -> list[Card]:
        """Every card, in database order (parses the database: for the rare caller that needs all)."""
        return self._index.whole()[1].cards

    def with_id(self, card_id: str) -> Card | None:
        """Return the card whose id folds like `card_id`, or None."""
        ix = self._index

        def indexed() -> Card | None:
            key = fold(card_id)
            pos = ix.value("f:" + key)
            if pos is None:
                return None
            card = ix.card(pos)
            if fold(str(card.get("id"))) != key:
                raise ValueError("index points at the wrong card")
            return card

        return ix.ask(indexed, lambda _, index: index.with_id(card_id))  # type: ignore[no-any-return]

    def _named_folded(self, key: str) -> list[Card]:
        ix = self._index
        positions = ix.value("n:" + key)
        if positions is None:
            return []
        cards = [ix.card(p) for p in positions]
        if any(fold(str(c.get("name"))) != key for c in cards):
            raise ValueError("index points at the wrong card")
        return cards

    def named(self, name: str) -> list[Card]:
        """Return the cards whose name folds like `name`, in database order."""
        return self._index.ask(lambda: self._named_folded(fold(name)),  # type: ignore[no-any-return]
                               lambda _, index: index.named(name))

    def with_epithet(self, epithet: str) -> list[Card]:
        """Return the cards whose epithet folds like `epithet` (not indexed: parses the database)."""
        return self._index.whole()[1].with_epithet(epithet)

    def close_names(self, name: str) -> list[list[Card]]:
        """Return the cards of up to three names close to `name`, closest first (as `CardIndex`)."""
        ix = self._index

        def indexed() -> list[list[Card]]:  # as CardIndex.close_names, over the same keys
            keys = difflib.get_close_matches(fold(name), ix.names(), n=3, cutoff=0.6)
            return [self._named_folded(k) for k in keys]

        return ix.ask(indexed, lambda _, index: index.close_names(name))  # type: ignore[no-any-return]
