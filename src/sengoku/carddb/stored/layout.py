"""The index file's format: its name, its three tables, the CRC of every stored value, and its writer.

An index is an SQLite file named `<SHA-256 of the cards file><SUFFIX>`: table `cards` holds each
card's `marshal` bytes by place, table `keys` the places a key finds (`f:` folded id, `i:` exact
id its folded key does not find, `n:` folded name), table `lists` the values as long as the
database (`LISTS`). The suffix is a digest of `STAMP`: the format, the sengoku, Unicode and
Python versions, so an index of another version is never opened. Built in a temporary file,
synced and renamed into place, then never changed.
"""

from __future__ import annotations

import hashlib
import json
import marshal
import os
import sys
import tempfile
import unicodedata
import zlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from sengoku.carddb.index import Card, CardIndex
from sengoku.files import SCHEMA_BYTES, read_input
from sengoku.games import game_code
from sengoku.paths import schema_path
from sengoku.version import __version__

FORMAT = 1  # of the index file; part of its name

STAMP = f"{FORMAT}/{__version__}/{unicodedata.unidata_version}/{sys.version_info[0]}.{sys.version_info[1]}"
SUFFIX = "." + hashlib.sha256(STAMP.encode()).hexdigest()[:16] + ".sqlite"
# The values as long as the database (a list of every id, of every name), kept out of the `keys`
# table: SQLite reads a key table's over-long row whole whenever a search compares against it.
LISTS = ("head", "ids", "names")


def sqlite() -> Any:
    """Return the sqlite3 module."""
    # deferred: ~10 ms of start-up, paid only by runs that meet a big database
    import sqlite3

    return sqlite3


def crc(key: str, value: int | bytes) -> int:
    """Return the check of a stored value under its key (a place in the cards table: an int)."""
    start = zlib.crc32(key.encode("utf-8", "surrogatepass"))
    return zlib.crc32(value, start) if isinstance(value, bytes) else zlib.crc32(b"%d" % value, start)


def card_crc(pos: int, body: bytes) -> int:
    """Return the check of a stored card under its place."""
    return zlib.crc32(body, pos & 0xFFFFFFFF)


def schema_digest(game: str) -> str | None:
    """Return the SHA-256 of a game's card schema (an index is valid under that schema only), or None."""
    code = game_code(game)
    return None if code is None else hashlib.sha256(read_input(schema_path(code.card_schema), SCHEMA_BYTES)).hexdigest()


def build(index_file: Path, meta: Mapping[str, Any], schema: str, content_hash: str,
          cards: Mapping[str, Card], index: CardIndex) -> None:
    """Write the index of a checked database to `index_file`: whole, or not at all."""
    sqlite3 = sqlite()
    fd, tmp = tempfile.mkstemp(dir=index_file.parent, prefix=".index.", suffix=".tmp")
    try:
        con = sqlite3.connect(tmp)
        try:
            for pragma in ("page_size = 16384", "journal_mode = OFF", "synchronous = OFF", "locking_mode = EXCLUSIVE"):
                con.execute(f"PRAGMA {pragma}")  # a new private file: renamed into place only when whole
            con.execute("CREATE TABLE cards (pos INTEGER PRIMARY KEY, body BLOB NOT NULL, crc INTEGER NOT NULL)")
            con.execute("CREATE TABLE keys (k TEXT PRIMARY KEY, v BLOB NOT NULL, crc INTEGER NOT NULL) WITHOUT ROWID")
            con.execute("CREATE TABLE lists (k TEXT PRIMARY KEY, v BLOB NOT NULL, crc INTEGER NOT NULL)")
            pos_of: dict[int, int] = {}
            rows = []
            for pos, card in enumerate(cards.values()):
                pos_of[id(card)] = pos
                body = marshal.dumps(card)
                rows.append((pos, body, card_crc(pos, body)))
            con.executemany("INSERT INTO cards VALUES (?, ?, ?)", rows)
            del rows
            keyed: dict[str, int | bytes] = {"f:" + k: pos_of[id(c)] for k, c in index.by_id.items()}
            found = set(keyed.values())
            for pos, card_id in enumerate(cards):  # an exact id its folded key finds another card for
                if pos not in found:
                    keyed["i:" + card_id] = pos
            keyed.update(("n:" + k, marshal.dumps([pos_of[id(c)] for c in same])) for k, same in index.by_name.items())
            con.executemany("INSERT INTO keys VALUES (?, ?, ?)", [(k, keyed[k], crc(k, keyed[k])) for k in sorted(keyed)])
            lists = {"names": marshal.dumps(list(index.by_name)), "ids": marshal.dumps(list(cards)),
                     "head": marshal.dumps({"stamp": STAMP, "sha256": content_hash, "schema": schema,
                                            "meta": json.dumps(meta), "count": len(cards)})}
            con.executemany("INSERT INTO lists VALUES (?, ?, ?)", [(k, v, crc(k, v)) for k, v in lists.items()])
            con.commit()
        finally:
            con.close()
        os.fsync(fd)  # SQLite wrote through its own descriptor; the file's data is synced through any
        os.replace(tmp, index_file)  # whole or absent; a concurrent builder of the same bytes writes the same
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    finally:
        os.close(fd)
