"""A game's cards as plain field dicts (card id -> the database's own fields), indexed for lookup.

The card database's form for use: the validator's rule interpreter, goldfish, trace and the rules
engine's tables read cards through this, never through SENGOKU YUGI's pydantic models, so any
game's database (with its own fields: `rank`, `divine_spirit`, ...) works unchanged. The database
is checked (schema + card rules) when loaded, once per file content (`carddb.load.read_checked`).
A big database read before is not parsed again: its cards come one by one from its remembered
index (`carddb.stored`), exactly as the parse would give them. `carddb.playable` gives the
SENGOKU YUGI database the engine plays, as these rows or as models.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from sengoku.carddb import load
from sengoku.carddb.load import read_checked, resolve_cards_file
from sengoku.carddb.index import CardIndex, cards_by_id
from sengoku.digests import sha256_hex
from sengoku.files import CARD_DB_BYTES, read_input
from sengoku.games import DEFAULT_GAME

Card = dict[str, Any]


@dataclass
class Catalog:
    """The cards of one card database, with the indexes entry resolution needs."""

    game: str
    name: str
    version: str
    content_hash: str
    path: str | None
    cards: Mapping[str, Card]  # a dict, or a big database's remembered index (`carddb.stored`)
    index: Any = field(default=None, repr=False, compare=False)  # CardIndex: by folded id, name, epithet
    sample: bool = False  # meta.sample: the cards are invented sample data

    def __post_init__(self) -> None:
        if self.index is None:
            self.index = CardIndex(self.cards.values())

    @classmethod
    def from_data(cls, data: dict[str, Any], path: str | None = None, raw: bytes | None = None) -> "Catalog":
        """Build a catalog from a parsed card database (`{"meta": {...}, "cards": [...]}`)."""
        if raw is None:
            raw = json.dumps(data, sort_keys=True).encode()
        return cls._of(data.get("meta", {}), sha256_hex(raw), path, cards_by_id(data))

    @classmethod
    def _of(cls, meta: Mapping[str, Any], content_hash: str, path: str | None, cards: Mapping[str, Card],
            index: Any = None) -> "Catalog":
        return cls(game=meta.get("game", DEFAULT_GAME), name=meta.get("name", ""),
                   version=str(meta.get("version", "")), content_hash=content_hash, path=path,
                   cards=cards, index=index, sample=meta.get("sample") is True)

    @property
    def folder(self) -> Path | None:
        """The card database folder (where `game.toml` and `formats/` live), if known."""
        return Path(self.path).parent if self.path else None

    def describe(self) -> dict[str, str]:
        """Return name, version and content hash, for reports (reproducibility)."""
        return {"game": self.game, "name": self.name, "version": self.version, "hash": self.content_hash}

    def show(self, card_id: str) -> str:
        """Return a card as a player reads it: `Soma Lv2 (SY1-002)`."""
        card = self.cards.get(card_id)
        if card is None:
            return card_id
        level = card.get("level")
        lv = f" Lv{level}" if isinstance(level, int) and not isinstance(level, bool) else ""
        return f"{card.get('name', card_id)}{lv} ({card_id})"


def load_catalog(path: Path | str) -> Catalog:
    """Load and check a card database file or folder; raise DataError (CardDBError) if it is bad."""
    return _load_catalog(str(Path(path).resolve()))


@lru_cache(maxsize=16)
def _load_catalog(path: str) -> Catalog:
    return catalog_of_file(resolve_cards_file(path))


def catalog_of_file(cards_file: Path) -> Catalog:
    """Load and check one cards file (`resolve_cards_file`'s answer), named in messages as given.

    Raise DataError (CardDBError) if it is bad. The checks are `load_card_db`'s (`read_checked`,
    with its pass cache), but the cards stay plain rows: no pydantic model is built.
    """
    if not _may_be_indexed(cards_file):  # a small database: parsed, never indexed (`carddb.stored`)
        data, raw = read_checked(cards_file)
        return Catalog.from_data(data, str(cards_file), raw)
    # deferred: the index's module (sqlite3 aside) is a tenth of a one-deck `validate`'s start-up,
    # and only a big database uses it
    from sengoku.carddb.stored.identity import Look
    from sengoku.carddb.stored.remembered import open_stored, remember

    stored = open_stored(cards_file)  # a big database read before: only the cards asked for are read
    if stored is not None:
        return Catalog._of(stored.meta, stored.content_hash, str(cards_file), stored.cards, stored.index)
    look = Look.at(cards_file)  # before reading: a change while it is read is not remembered as these bytes
    data, raw = read_checked(cards_file)
    catalog = Catalog.from_data(data, str(cards_file), raw)
    remember(look, data.get("meta", {}), catalog.content_hash, catalog.cards, catalog.index)
    return catalog


def _may_be_indexed(cards_file: Path) -> bool:
    """Tell whether a cards file is big enough to be indexed (else `stored.identity.Look.at` gives None)."""
    try:
        return os.stat(cards_file).st_size >= load.INDEX_MIN_BYTES
    except OSError:
        return True  # let the index's reader and the parse say what is wrong, as before


def catalog_from_db(db: Any) -> Catalog:
    """Return the catalog of a loaded `CardDatabase` (the pydantic model), field names as in JSON."""
    data = {"meta": db.meta.model_dump(mode="json"),
            "cards": [c.model_dump(mode="json", by_alias=True) for c in db.cards]}
    raw = None
    if db.path and Path(db.path).is_file():
        try:
            raw = read_input(db.path, CARD_DB_BYTES)
        except OSError:  # gone or grown since it was loaded: the content hash below still holds
            raw = None
    catalog = Catalog.from_data(data, db.path, raw)
    if db.content_hash:
        catalog.content_hash = db.content_hash
    return catalog
