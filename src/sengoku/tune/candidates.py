"""The candidates of a step: every legal one-card change to the current deck.

A change takes one copy out and puts one card of the pool in, or adds or removes one copy
(so the Character Deck may move within its 50-60 cards, D1). Every resulting deck is checked
by the validator, tournament format included (D1-D8 and the format's lists): an illegal deck
is never played nor proposed. The pool is, by default, every card of the database that fits
one of the deck's sections (Main and Support cards for `main`, Nameless cards for `nameless`,
familiars for `familiars` in Ultimate Mode); the validator then keeps what the deck's format
allows. `--pool FILE` names the pool instead.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

from sengoku.carddb.models import CardDatabase
from sengoku.decklist.model import Decklist
from sengoku.decklist.read import read_decklist
from sengoku.decklist.text_import import import_text, read_text_list
from sengoku.display import printable
from sengoku.errors import DataError
from sengoku.games import DEFAULT_GAME, get_game
from sengoku.tune.check import ChangeCheck
from sengoku.tune.deck import Change, Deck
from sengoku.validate.api import Validator

# Which kinds of card a section of a SENGOKU YUGI deck holds (D8).
SECTION_KINDS = {"main": ("main", "support"), "nameless": ("nameless",), "familiars": ("familiar",)}


class Candidate(NamedTuple):
    """A legal change of a deck (`base`); `deck` is the deck it makes, worked out when asked for.

    A named tuple, as `Change`: a step makes one per legal change of the pool.
    """

    change: Change
    base: Deck

    @property
    def deck(self) -> Deck:
        return self.base.apply(self.change)


def default_pool(card_db: CardDatabase, mode: str) -> tuple[str, ...]:
    """Return every card id of the database a deck of `mode` may hold (its format is the validator's to check)."""
    kinds = {k for section, ks in SECTION_KINDS.items() if section != "familiars" or mode == "ultimate" for k in ks}
    return tuple(sorted(c.id for c in card_db.cards if c.kind in kinds))


def read_pool(path: Path | str, card_db: CardDatabase) -> tuple[str, ...]:
    """Return the card ids a pool file names: a decklist (.toml) or a plain-text list as `sengoku import` reads it.

    Counts do not matter (a card in the pool may go in up to its copy limit). A card the
    database does not know is a DataError naming its line.
    """
    if str(path).lower().endswith(".toml"):
        pool_deck, syntax = read_decklist(path)
        if pool_deck.game != DEFAULT_GAME:  # its cards are another game's: none may go into this deck
            raise DataError(path, f"not a pool of {_title(DEFAULT_GAME)} cards: a {_title(pool_deck.game)} decklist "
                            f"(game = {pool_deck.game!r}) naming {_names(e.name or e.id for e in pool_deck.entries)}")
        problems = [p for p in syntax if getattr(p, "severity", "error") == "error"]
        if problems:
            raise DataError(path, f"not a usable pool: {problems[0].message}", getattr(problems[0], "line", None))
        result = Validator(card_db).validate_deck(pool_deck)
        unknown = [p for p in result.violations if p.rule in ("unknown-card", "ambiguous-card")]
        if unknown:
            raise DataError(path, unknown[0].message, unknown[0].line)
        ids = {cid for cards in result.sections.values() for cid in cards}
    else:
        raw = [{"id": c.id, "name": c.name, "level": c.level, "epithet": c.epithet, "kind": c.kind}
               for c in card_db.cards]
        imported = import_text(read_text_list(path)[0], raw, source=str(path))
        if imported.problems:
            first = imported.problems[0]
            raise DataError(path, f"{first.message}: {first.text.strip()!r}", first.line)
        by_name = {(c.name, c.level, c.epithet): c.id for c in card_db.cards}
        ids = set()
        for entry in imported.deck.entries:
            ids |= {cid for (name, level, epithet), cid in by_name.items()
                    if name == entry.name and (entry.level is None or level == entry.level)
                    and (entry.epithet is None or epithet == entry.epithet)}
    if not ids:
        raise DataError(path, "the pool names no card")
    unknown = ids - {c.id for c in card_db.cards}
    if unknown:  # never tuned in: the validator could not judge a deck holding them
        raise DataError(path, f"names cards the card database does not know: {_names(sorted(unknown))}")
    return tuple(sorted(ids))


def _title(game: str) -> str:
    try:
        return get_game(game).title
    except DataError:
        return game


def _names(names: Iterable[str | None], shown: int = 8) -> str:
    """Say a list of card names (the first `shown`, then how many more), escaped for a terminal."""
    given = [printable(str(n)) for n in names if n]
    more = f" and {len(given) - shown} more" if len(given) > shown else ""
    return ", ".join(given[:shown]) + more + f" ({len(given)} card(s))"


def changes(deck: Deck, pool: Iterable[str], kinds: Mapping[str, str], mode: str) -> list[Change]:
    """Return every one-card change of `deck` with cards of `pool` (`kinds`: card id -> kind), in a fixed order."""
    out: list[Change] = []
    for section, section_kinds in SECTION_KINDS.items():
        held = [cid for cid, _ in deck.cards(section)]
        if section == "familiars" and mode != "ultimate":  # D7: a Standard deck plays no Familiar Deck
            continue
        ins = sorted({cid for cid in pool if kinds.get(cid) in section_kinds})
        for o in held:
            out += [Change(section, o, i) for i in ins if i != o]
        out += [Change(section, None, i) for i in ins]
        out += [Change(section, o, None) for o in held]
    return out


def legal_candidates(deck: Deck, like: Decklist, pool: Sequence[str], card_db: CardDatabase,
                     validator: Validator) -> tuple[list[Candidate], int]:
    """Return the legal candidates of `deck` and how many changes were refused.

    Each change is checked from the counts it touches (`tune.check`), as the validator would
    check the whole deck it makes; two changes never make the same deck (each moves its own
    cards), so each candidate is one deck.
    """
    kinds = {c.id: c.kind for c in card_db.cards}
    check = ChangeCheck(validator, deck, like)
    every = changes(deck, pool, kinds, like.mode)
    found = [Candidate(change, deck) for change in every if check.legal(change)]
    return found, len(every) - len(found)
