"""One open index file: its answers, checked value by value, and the parse that takes over when one fails."""

from __future__ import annotations

import json
import marshal
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sengoku.carddb.index import Card, CardIndex
from sengoku.carddb.load import game_of
from sengoku.carddb.names import fold
from sengoku.carddb.stored.layout import LISTS, STAMP, card_crc, crc, schema_digest, sqlite

# Parse the database whole, as if nothing were remembered (`damaged`: the index failed, so
# replace it too); return its cards by id and its index.
Reparse = Callable[["IndexFile", bool], tuple[dict[str, Card], CardIndex]]


def broken() -> tuple[type[BaseException], ...]:
    """What reading a damaged or vanished index can raise: each means "parse the file instead"."""
    return (sqlite().Error, OSError, ValueError, EOFError, TypeError, KeyError, IndexError, AttributeError)


class IndexFile:
    """One open index file, and the database it stands for (parsed whole only if the index fails)."""

    def __init__(self, con: Any, index_file: Path, cards_file: Path, content_hash: str, reparse: Reparse):
        self.con = con
        self.index_file = index_file
        self.cards_file = cards_file
        self.content_hash = content_hash
        self.count = 0
        self.meta: dict[str, Any] = {}
        self._reparse = reparse
        self._ids: list[str] | None = None
        self._loaded: dict[int, Card] = {}  # place -> card, as read
        self._places: dict[str, int | None] = {}  # exact id -> place, as found
        self._names: list[str] | None = None
        self._whole: tuple[dict[str, Card], CardIndex] | None = None

    # The index's own answers; each raises one of `broken()` when the file is damaged.

    def value(self, key: str) -> Any:
        table = "lists" if key in LISTS else "keys"
        row = self.con.execute(f"SELECT v, crc FROM {table} WHERE k = ?", (key,)).fetchone()
        if row is None:
            return None
        if crc(key, row[0]) != row[1]:
            raise ValueError(f"index value of {key!r} is damaged")
        return marshal.loads(row[0]) if isinstance(row[0], bytes) else row[0]

    def card(self, pos: int) -> Card:
        card = self._loaded.get(pos)
        if card is None:
            row = self.con.execute("SELECT body, crc FROM cards WHERE pos = ?", (pos,)).fetchone()
            if row is None or not isinstance(row[0], bytes) or card_crc(pos, row[0]) != row[1]:
                raise ValueError(f"index card {pos} is damaged")
            card = marshal.loads(row[0])
            if not isinstance(card, dict):
                raise TypeError(f"index card {pos} is not a card")
            self._loaded[pos] = card
        return card

    def every_card(self) -> dict[str, Card]:
        """Return every card by id, read in one pass (for the rare caller that walks them all)."""
        cards = []
        for pos, body, check in self.con.execute("SELECT pos, body, crc FROM cards ORDER BY pos"):
            if pos != len(cards) or not isinstance(body, bytes) or card_crc(pos, body) != check:
                raise ValueError(f"index card {pos} is damaged")
            card = self._loaded.get(pos)
            cards.append(marshal.loads(body) if card is None else card)
        if len(cards) != self.count or not all(isinstance(c, dict) for c in cards):
            raise ValueError("index cards are damaged")
        return dict(zip(self.ids(), cards))

    def ids(self) -> list[str]:
        if self._ids is None:
            ids = self.value("ids")
            if not isinstance(ids, list) or len(ids) != self.count:
                raise TypeError("index list of ids is damaged")
            self._ids = ids
        return self._ids

    def names(self) -> list[str]:
        if self._names is None:
            names = self.value("names")
            if not isinstance(names, list):
                raise TypeError("index list of names is damaged")
            self._names = names
        return self._names

    def pos_of_id(self, card_id: str) -> int | None:
        """Return where the card whose id is exactly `card_id` is stored, or None."""
        if card_id in self._places:
            return self._places[card_id]
        pos = self.value("i:" + card_id)  # only for ids the folded key does not find (see layout.build)
        if pos is None:
            pos = self.value("f:" + fold(card_id))
            if pos is not None and self.card(pos).get("id") != card_id:
                pos = None
        self._places[card_id] = pos
        return pos

    # Whatever fails: the database itself, parsed whole (the cold path), answers from then on.

    def whole(self, damaged: bool = False) -> tuple[dict[str, Card], CardIndex]:
        """Return the database parsed whole; `damaged`: the index failed, so replace it too."""
        if self._whole is None:
            self._whole = self._reparse(self, damaged)
            try:
                self.con.close()
            except broken():
                pass
        return self._whole

    def ask(self, indexed: Callable[[], Any], whole: Callable[[dict[str, Card], CardIndex], Any]) -> Any:
        """Answer from the index; if it fails, from the database parsed whole, from then on."""
        if self._whole is None:
            try:
                return indexed()
            except broken():
                return whole(*self.whole(damaged=True))
        return whole(*self._whole)


def open_index(index_file: Path, cards_file: Path, digest: str, reparse: Reparse) -> IndexFile | None:
    """Open the index of the database whose bytes have `digest`; None if there is none.

    Raise one of `broken()` if the file is not this database's index (damaged, foreign, of another
    card schema). A failure later makes `reparse` parse `cards_file` as named.
    """
    if not index_file.is_file():
        return None
    # read-only and never changed in place: a library caller's threads may share it
    con = sqlite().connect(f"{Path(os.path.abspath(index_file)).as_uri()}?mode=ro&immutable=1", uri=True,
                           check_same_thread=False)
    try:
        ix = IndexFile(con, index_file, cards_file, digest, reparse)
        head = ix.value("head")
        if not isinstance(head, dict) or head.get("stamp") != STAMP or head.get("sha256") != digest:
            raise ValueError("not this database's index")
        meta = json.loads(head["meta"])
        schema = schema_digest(game_of({"meta": meta}))
        if schema is None or head.get("schema") != schema:
            raise ValueError("indexed under another card schema")
        if not isinstance(head.get("count"), int):
            raise ValueError("index head is damaged")
        ix.count = head["count"]
        ix.meta = meta
    except BaseException:
        con.close()
        raise
    return ix
