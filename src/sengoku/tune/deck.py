"""A deck as `tune` changes it: card counts per section, one-card changes, and the decklist it writes.

A `Deck` is the validator's view of a decklist (section -> card id -> count), frozen so that
two candidates reaching the same cards are one. `decklist()` turns it back into a `Decklist`
(entries by card id) for the validator and the engine; `deck_text()` writes it as TOML in
canonical form, the text `sengoku fmt` would write (`decklist.fmt.canonical_decklist`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from sengoku.carddb.models import CardDatabase
from sengoku.decklist.fmt import canonical_decklist
from sengoku.decklist.model import DeckEntry, Decklist
from sengoku.decklist.render import render_value

Counts = tuple[tuple[str, tuple[tuple[str, int], ...]], ...]


class Change(NamedTuple):
    """One legal one-card change: a copy of `out` leaves `section`, a copy of `into` joins it (either may be None).

    A named tuple: a step makes one per change of the pool (tens of thousands with a large card
    database), and a tuple is made several times faster than a frozen record; `tuple(change)` is
    what a task carries.
    """

    section: str
    out: str | None  # card id
    into: str | None  # card id

    def label(self, names: Mapping[str, str]) -> str:
        """Return the change in words, e.g. '−1 Hanzo Lv1, +1 Kagetora Lv4'."""
        parts = []
        if self.out is not None:
            parts.append(f"−1 {names.get(self.out, self.out)}")
        if self.into is not None:
            parts.append(f"+1 {names.get(self.into, self.into)}")
        return ", ".join(parts)


@dataclass(frozen=True)
class Deck:
    """Card counts per section, in a fixed order (sections as the deck has them, card ids sorted)."""

    counts: Counts

    @staticmethod
    def from_sections(sections: Mapping[str, Mapping[str, int]]) -> Deck:
        return Deck(tuple((s, tuple(sorted((cid, n) for cid, n in cards.items() if n > 0)))
                          for s, cards in sections.items()))

    def sections(self) -> dict[str, dict[str, int]]:
        return {s: dict(cards) for s, cards in self.counts}

    def cards(self, section: str) -> Iterator[tuple[str, int]]:
        for s, cards in self.counts:
            if s == section:
                yield from cards

    def apply(self, change: Change) -> Deck:
        """Return the deck after `change`."""
        sections = self.sections()
        cards = sections.setdefault(change.section, {})
        if change.out is not None:
            cards[change.out] -= 1
        if change.into is not None:
            cards[change.into] = cards.get(change.into, 0) + 1
        return Deck.from_sections(sections)


def card_names(card_db: CardDatabase) -> dict[str, str]:
    """Return each card's short name for reports: 'Kagetora Lv4', with the epithet when name and level are shared."""
    cards = card_db.cards
    shared: dict[tuple[str, int], int] = {}
    for c in cards:
        shared[(c.name, c.level)] = shared.get((c.name, c.level), 0) + 1
    return {c.id: f"{c.name} Lv{c.level}" + (f" “{c.epithet}”" if shared[(c.name, c.level)] > 1 else "")
            for c in cards}


def decklist(deck: Deck, like: Decklist) -> Decklist:
    """Return `deck` as a Decklist with the top-level keys (game, name, mode, format) of `like`."""
    entries = [DeckEntry(section=s, count=n, id=cid) for s, cards in deck.counts for cid, n in cards]
    return Decklist(entries=entries, game=like.game, name=like.name, mode=like.mode, format=like.format,
                    extra=dict(like.extra))


def deck_text(deck: Deck, like: Decklist, card_db: CardDatabase, comments: list[str],
              db: Path | str | None = None) -> str:
    """Return `deck` as decklist TOML in canonical form (as `sengoku fmt` writes it).

    Entries name cards as a player would (name and level, and the epithet only where two cards
    share both); the top-level keys are `like`'s; `comments` open the file.
    """
    by_id = card_db.by_id()
    shared: dict[tuple[str, int], int] = {}
    for c in card_db.cards:
        shared[(c.name, c.level)] = shared.get((c.name, c.level), 0) + 1
    lines = [f"# {c}" for c in comments]
    for key, value in (("name", like.name), ("game", like.game), ("mode", like.mode), ("format", like.format)):
        if value is not None:
            lines.append(f"{key} = {render_value(value)}")
    for key, extra in like.extra.items():
        if isinstance(extra, (str, int, float, bool)):
            lines.append(f"{key} = {render_value(extra)}")
    for section, cards in deck.counts:
        for cid, n in cards:
            card = by_id[cid]
            lines += ["", f"[[{section}]]", f"name = {render_value(card.name)}", f"level = {card.level}"]
            if shared[(card.name, card.level)] > 1:
                lines.append(f"epithet = {render_value(card.epithet)}")
            if n != 1:
                lines.append(f"count = {n}")
    raw = [{"id": c.id, "name": c.name, "level": c.level, "epithet": c.epithet, "kind": c.kind}
           for c in card_db.cards]
    return canonical_decklist("\n".join(lines) + "\n", cards=raw, db=db).formatted
