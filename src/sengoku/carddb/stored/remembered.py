"""A big database's index, opened when its bytes passed before, and remembered when they pass now."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sengoku.carddb.index import Card, CardIndex, cards_by_id
from sengoku.carddb.load import game_of, read_checked
from sengoku.carddb.stored import folder as cache
from sengoku.carddb.stored.identity import Look, content_digest
from sengoku.carddb.stored.layout import SUFFIX, build, schema_digest
from sengoku.carddb.stored.notes import NOTE_SUFFIX, read_note, write_note
from sengoku.carddb.stored.reader import IndexFile, broken, open_index
from sengoku.carddb.stored.views import StoredCards, StoredIndex
from sengoku.errors import DataError


@dataclass
class Stored:
    """An indexed card database: its `meta`, content hash, cards by id, and lookups."""

    meta: dict[str, Any]
    content_hash: str
    cards: StoredCards
    index: StoredIndex


def open_stored(cards_file: Path) -> Stored | None:
    """Return the remembered index of a cards file whose bytes passed before, or None (then parse it)."""
    look = Look.at(cards_file)
    folder = cache.cards_folder()
    if look is None or folder is None:
        return None
    note = read_note(folder, look)
    digest = None
    if note is not None and note[0] == look.identity:
        digest = note[2]
        if not Look(look.path, look.identity, note[1]).trusted():
            digest = None  # changed in the tick it was read: only its bytes tell
    renew = digest is None
    if digest is None:
        digest = content_digest(look.path)
        if digest is None or not look.unchanged():
            return None
    index_file = folder / (digest + SUFFIX)
    try:
        ix = open_index(index_file, cards_file, digest, _reparse)  # a failing index parses the file as named
    except broken():  # damaged, foreign, or of another card schema: parsed, then built again
        cache.unlink(str(index_file))
        ix = None
    if ix is None:
        return None
    if renew and look.trusted():
        write_note(folder, look, digest)
    try:
        os.utime(index_file)  # recently used: pruned last
    except OSError:
        pass
    return Stored(ix.meta, digest, StoredCards(ix), StoredIndex(ix))


def _reload(cards_file: Path) -> tuple[dict[str, Any], dict[str, Card], CardIndex, str]:
    """Parse and check a database whole, as if nothing were remembered: meta, cards by id, index, SHA-256."""
    data, raw = read_checked(cards_file)
    cards = cards_by_id(data)
    return data.get("meta", {}), cards, CardIndex(cards.values()), hashlib.sha256(raw).hexdigest()


def _reparse(ix: IndexFile, damaged: bool) -> tuple[dict[str, Card], CardIndex]:
    """Parse the database of a failing (`damaged`) or incomplete index whole; a damaged index is replaced."""
    look = Look.at(ix.cards_file) if damaged else None
    meta, cards, index, digest = _reload(ix.cards_file)
    if digest != ix.content_hash:
        raise DataError(ix.cards_file, "the card database changed while it was being read; run again")
    if damaged:
        cache.unlink(str(ix.index_file))
        remember(look, meta, digest, cards, index)
    return cards, index


def remember(look: Look | None, meta: Mapping[str, Any], content_hash: str, cards: Mapping[str, Card],
             index: CardIndex) -> None:
    """Remember a database that passed its checks, just read (`cards` by id, as `cards_by_id` gives
    them; `index` built over `cards.values()`): its note, and on its second reading its index.

    Silently skipped if impossible. The first reading writes only the note: a file read once, as
    by a CI job that starts from an empty cache folder, does not pay for an index nobody reads.
    """
    folder = cache.cards_folder()
    if look is None or folder is None:
        return
    schema = schema_digest(game_of({"meta": meta}))
    if schema is None:
        return
    index_file = folder / (content_hash + SUFFIX)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        seen = read_note(folder, look)
        if seen is not None and seen[2] == content_hash and not index_file.is_file():
            build(index_file, meta, schema, content_hash, cards, index)
            cache.prune(folder, ".sqlite", cache.KEEP, keep=index_file)  # other versions' indexes too
    except broken():
        return
    if look.unchanged():  # else the note would pair these bytes with another content
        write_note(folder, look, content_hash)
        cache.prune(folder, NOTE_SUFFIX, cache.KEEP_NOTES)
