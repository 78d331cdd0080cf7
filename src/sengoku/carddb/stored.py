"""A big card database's index, remembered: a later run reads only the cards its decks name.

Parsing a 100,000-card `cards.json` (74 MB) takes seconds; a deck names forty cards. Once a
database has passed its checks (`load.read_checked`), its cards and the keys a decklist finds
them by (exact id, folded id, folded name: what `index.CardIndex` holds) are written to an
SQLite file named by the SHA-256 of the database's bytes, when the same bytes are read a second
time at the same path (the first reading leaves only a note: a CI job that starts from an empty
cache folder never pays for an index nobody will read). Later runs look cards up there, one at a
time, and never parse the JSON.

Which bytes a path holds now: a small note per path records the file's identity when it was
read (device, inode, size, modification and change times in ns) beside its SHA-256. A run whose
`stat` gives the same identity takes that SHA-256 without reading the file (reading and hashing
74 MB costs ~0.1 s, a third of a warm run's budget). This is the check `make` and git rely on,
made stronger by the change time: every write sets it, and no program can set it back (only the
clock can). The gap git closes is closed the same way: a file changed in the same clock tick as
it was read keeps its times, so a note taken less than `RACY_NS` after the file's last change is
not trusted; the file is hashed instead, and the note renewed once the file is old enough.

An index is keyed by the database's bytes plus the sengoku version, the Unicode version (name
folding), the Python version (`marshal`) and its card schema's bytes, and written only for a
database that passed every check: it is a pass of `sengoku.pass_cache` too. Files under
`load.INDEX_MIN_BYTES` are not indexed: parsing them is as quick as opening an index.

Never trusted to be whole: an index is built in a temporary file, synced and renamed into place,
then never changed (readers open it immutable); every stored value carries a CRC-32 of its key
and bytes. Whatever goes wrong reading one (missing, truncated, foreign, corrupt, deleted by
another run's pruning) makes the run read `cards.json` itself, as if nothing were remembered,
whether at the start or halfway through. The folder is the user's own, as the pass cache's: its
files are assumed damaged at worst, not crafted (`marshal` is not meant for hostile bytes). At
most `KEEP` indexes and `KEEP_NOTES` notes are kept, the least recently used dropped first.
The folder follows the pass cache's rules: $SENGOKU_CACHE_DIR, SENGOKU_NO_CACHE=1.

Why one module of this length: the notes, the index's layout, its CRCs and its writer and
readers are one format, and they change together; split, each part would have to know the others.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import marshal
import os
import stat
import sys
import tempfile
import time
import unicodedata
import zlib
from collections.abc import Callable, ItemsView, Iterator, Mapping, ValuesView
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sengoku.carddb.index import Card, CardIndex, cards_by_id
from sengoku.carddb import load
from sengoku.carddb.load import game_of, read_checked
from sengoku.carddb.names import fold
from sengoku.errors import DataError
from sengoku.files import CARD_DB_BYTES, SCHEMA_BYTES, open_input, read_input
from sengoku.games import game_code
from sengoku.pass_cache import cache_root
from sengoku.paths import schema_path
from sengoku.version import __version__
from sengoku.writes import write_atomically

KEEP = 4  # indexes kept (each about the size of its cards.json)
KEEP_NOTES = 64  # path notes kept (a few hundred bytes each)
RACY_NS = 2_000_000_000  # a file changed this close before it was read is hashed, not trusted
STALE_TMP_NS = 3600 * 1_000_000_000  # a builder's leftover older than this was abandoned
FORMAT = 1  # of the index file; part of its name

_STAMP = f"{FORMAT}/{__version__}/{unicodedata.unidata_version}/{sys.version_info[0]}.{sys.version_info[1]}"
_SUFFIX = "." + hashlib.sha256(_STAMP.encode()).hexdigest()[:16] + ".sqlite"
_NOTE_SUFFIX = ".where"
# The values as long as the database (a list of every id, of every name), kept out of the `keys`
# table: SQLite reads a key table's over-long row whole whenever a search compares against it.
_LISTS = ("head", "ids", "names")
_NOTE_BYTES = 64_000


def _sqlite() -> Any:
    # deferred: ~10 ms of start-up, paid only by runs that meet a big database
    import sqlite3

    return sqlite3


def _broken() -> tuple[type[BaseException], ...]:
    """What reading a damaged or vanished index can raise: each means "parse the file instead"."""
    return (_sqlite().Error, OSError, ValueError, EOFError, TypeError, KeyError, IndexError, AttributeError)


def _folder() -> Path | None:
    root = cache_root()
    return None if root is None else root / "cards"


def _identity(st: os.stat_result) -> list[int]:
    return [st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns]


def _crc(key: str, value: int | bytes) -> int:
    """Return the check of a stored value under its key (a place in the cards table: an int)."""
    start = zlib.crc32(key.encode("utf-8", "surrogatepass"))
    return zlib.crc32(value, start) if isinstance(value, bytes) else zlib.crc32(b"%d" % value, start)


def _card_crc(pos: int, body: bytes) -> int:
    return zlib.crc32(body, pos & 0xFFFFFFFF)


def _schema_digest(game: str) -> str | None:
    code = game_code(game)
    return None if code is None else hashlib.sha256(read_input(schema_path(code.card_schema), SCHEMA_BYTES)).hexdigest()


def _reload(cards_file: Path) -> tuple[dict[str, Any], dict[str, Card], CardIndex, str]:
    """Parse and check a database whole, as if nothing were remembered: meta, cards by id, index, SHA-256."""
    data, raw = read_checked(cards_file)
    cards = cards_by_id(data)
    return data.get("meta", {}), cards, CardIndex(cards.values()), hashlib.sha256(raw).hexdigest()


@dataclass(frozen=True)
class Look:
    """A cards file as it was before a run read it: its identity and when it was looked at."""

    path: Path
    identity: list[int]
    seen_ns: int

    @classmethod
    def at(cls, cards_file: Path) -> "Look | None":
        """Look at a cards file before reading it; None when it is not one to index (small, not a file)."""
        seen = time.time_ns()
        try:
            st = os.stat(cards_file)
        except OSError:
            return None
        if not stat.S_ISREG(st.st_mode) or st.st_size < load.INDEX_MIN_BYTES or _folder() is None:
            return None
        return cls(Path(os.path.realpath(cards_file)), _identity(st), seen)

    def unchanged(self) -> bool:
        """Tell whether the file still has the identity it had when looked at."""
        try:
            return _identity(os.stat(self.path)) == self.identity
        except OSError:
            return False

    def trusted(self) -> bool:
        """Tell whether the file's times tell a change apart (it was not changed in the tick it was looked at)."""
        return self.identity[3] < self.seen_ns - RACY_NS and self.identity[4] < self.seen_ns - RACY_NS


def _note_path(folder: Path, path: Path) -> Path:
    return folder / (hashlib.sha256(str(path).encode("utf-8", "surrogatepass")).hexdigest()[:32] + _NOTE_SUFFIX)


def _read_note(folder: Path, look: Look) -> tuple[list[int], int, str] | None:
    try:
        # bounded and regular files only: a FIFO planted here must not block the run
        note = json.loads(read_input(_note_path(folder, look.path), _NOTE_BYTES, regular=True))
        identity, seen, digest = note["identity"], note["seen_ns"], note["sha256"]
        if (note.get("path") == str(look.path) and isinstance(identity, list) and isinstance(seen, int)
                and isinstance(digest, str) and len(digest) == 64):
            return identity, seen, digest
    except (OSError, ValueError, KeyError, TypeError):
        pass
    return None


def _write_note(folder: Path, look: Look, digest: str) -> None:
    note = {"path": str(look.path), "identity": look.identity, "seen_ns": look.seen_ns, "sha256": digest}
    try:
        write_atomically(_note_path(folder, look.path), json.dumps(note), replace=True, force_hint=None)
    except DataError:
        pass  # not remembered: the next run hashes the file


def _content_digest(path: Path) -> str | None:
    digest = hashlib.sha256()
    try:
        with open_input(path) as f:
            while chunk := f.read(1 << 20):
                digest.update(chunk)
                if f.tell() > CARD_DB_BYTES:
                    return None
    except OSError:
        return None
    return digest.hexdigest()


# --- reading ---------------------------------------------------------------------------------

class _Index:
    """One open index file, and the database it stands for (parsed whole only if the index fails)."""

    def __init__(self, con: Any, index_file: Path, cards_file: Path, content_hash: str):
        self.con = con
        self.index_file = index_file
        self.cards_file = cards_file
        self.content_hash = content_hash
        self.count = 0
        self._ids: list[str] | None = None
        self._loaded: dict[int, Card] = {}  # place -> card, as read
        self._places: dict[str, int | None] = {}  # exact id -> place, as found
        self._names: list[str] | None = None
        self._whole: tuple[dict[str, Card], CardIndex] | None = None

    # The index's own answers; each raises one of `_broken()` when the file is damaged.

    def value(self, key: str) -> Any:
        table = "lists" if key in _LISTS else "keys"
        row = self.con.execute(f"SELECT v, crc FROM {table} WHERE k = ?", (key,)).fetchone()
        if row is None:
            return None
        if _crc(key, row[0]) != row[1]:
            raise ValueError(f"index value of {key!r} is damaged")
        return marshal.loads(row[0]) if isinstance(row[0], bytes) else row[0]

    def card(self, pos: int) -> Card:
        card = self._loaded.get(pos)
        if card is None:
            row = self.con.execute("SELECT body, crc FROM cards WHERE pos = ?", (pos,)).fetchone()
            if row is None or not isinstance(row[0], bytes) or _card_crc(pos, row[0]) != row[1]:
                raise ValueError(f"index card {pos} is damaged")
            card = marshal.loads(row[0])
            if not isinstance(card, dict):
                raise TypeError(f"index card {pos} is not a card")
            self._loaded[pos] = card
        return card

    def every_card(self) -> dict[str, Card]:
        """Return every card by id, read in one pass (for the rare caller that walks them all)."""
        cards = []
        for pos, body, crc in self.con.execute("SELECT pos, body, crc FROM cards ORDER BY pos"):
            if pos != len(cards) or not isinstance(body, bytes) or _card_crc(pos, body) != crc:
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
        pos = self.value("i:" + card_id)  # only for ids the folded key does not find (see _build)
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
            look = Look.at(self.cards_file) if damaged else None
            meta, cards, index, digest = _reload(self.cards_file)
            if digest != self.content_hash:
                raise DataError(self.cards_file, "the card database changed while it was being read; run again")
            self._whole = cards, index
            try:
                self.con.close()
            except _broken():
                pass
            if damaged:
                _unlink(str(self.index_file))
                remember(look, meta, digest, cards, index)
        return self._whole

    def ask(self, indexed: Callable[[], Any], whole: Callable[[dict[str, Card], CardIndex], Any]) -> Any:
        """Answer from the index; if it fails, from the database parsed whole, from then on."""
        if self._whole is None:
            try:
                return indexed()
            except _broken():
                return whole(*self.whole(damaged=True))
        return whole(*self._whole)


class StoredCards(Mapping[str, Card]):
    """The cards of an indexed database by id, as the parsed `{id: card}` would give them."""

    def __init__(self, index: _Index):
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

    def __init__(self, index: _Index):
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
    folder = _folder()
    if look is None or folder is None:
        return None
    note = _read_note(folder, look)
    digest = None
    if note is not None and note[0] == look.identity:
        digest = note[2]
        if not Look(look.path, look.identity, note[1]).trusted():
            digest = None  # changed in the tick it was read: only its bytes tell
    renew = digest is None
    if digest is None:
        digest = _content_digest(look.path)
        if digest is None or not look.unchanged():
            return None
    index_file = folder / (digest + _SUFFIX)
    try:
        stored = _open(index_file, cards_file, digest)  # a failing index parses the file as named
    except _broken():  # damaged, foreign, or of another card schema: parsed, then built again
        _unlink(str(index_file))
        stored = None
    if stored is None:
        return None
    if renew and look.trusted():
        _write_note(folder, look, digest)
    try:
        os.utime(index_file)  # recently used: pruned last
    except OSError:
        pass
    return stored


def _open(index_file: Path, cards_file: Path, digest: str) -> Stored | None:
    if not index_file.is_file():
        return None
    sqlite3 = _sqlite()
    # read-only and never changed in place: a library caller's threads may share it
    con = sqlite3.connect(f"{Path(os.path.abspath(index_file)).as_uri()}?mode=ro&immutable=1", uri=True,
                          check_same_thread=False)
    try:
        ix = _Index(con, index_file, cards_file, digest)
        head = ix.value("head")
        if not isinstance(head, dict) or head.get("stamp") != _STAMP or head.get("sha256") != digest:
            raise ValueError("not this database's index")
        meta = json.loads(head["meta"])
        schema = _schema_digest(game_of({"meta": meta}))
        if schema is None or head.get("schema") != schema:
            raise ValueError("indexed under another card schema")
        if not isinstance(head.get("count"), int):
            raise ValueError("index head is damaged")
        ix.count = head["count"]
    except BaseException:
        con.close()
        raise
    return Stored(meta, digest, StoredCards(ix), StoredIndex(ix))


# --- writing ---------------------------------------------------------------------------------

def remember(look: Look | None, meta: Mapping[str, Any], content_hash: str, cards: Mapping[str, Card],
             index: CardIndex) -> None:
    """Remember a database that passed its checks, just read (`cards` by id, as `cards_by_id` gives
    them; `index` built over `cards.values()`): its note, and on its second reading its index.

    Silently skipped if impossible. The first reading writes only the note: a file read once, as
    by a CI job that starts from an empty cache folder, does not pay for an index nobody reads.
    """
    folder = _folder()
    if look is None or folder is None:
        return
    schema = _schema_digest(game_of({"meta": meta}))
    if schema is None:
        return
    index_file = folder / (content_hash + _SUFFIX)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        seen = _read_note(folder, look)
        if seen is not None and seen[2] == content_hash and not index_file.is_file():
            _build(index_file, meta, schema, content_hash, cards, index)
            _prune(folder, ".sqlite", KEEP, keep=index_file)  # other versions' indexes too
    except _broken():
        return
    if look.unchanged():  # else the note would pair these bytes with another content
        _write_note(folder, look, content_hash)
        _prune(folder, _NOTE_SUFFIX, KEEP_NOTES)


def _build(index_file: Path, meta: Mapping[str, Any], schema_digest: str, content_hash: str,
           cards: Mapping[str, Card], index: CardIndex) -> None:
    sqlite3 = _sqlite()
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
                rows.append((pos, body, _card_crc(pos, body)))
            con.executemany("INSERT INTO cards VALUES (?, ?, ?)", rows)
            del rows
            keyed: dict[str, int | bytes] = {"f:" + k: pos_of[id(c)] for k, c in index.by_id.items()}
            found = set(keyed.values())
            for pos, card_id in enumerate(cards):  # an exact id its folded key finds another card for
                if pos not in found:
                    keyed["i:" + card_id] = pos
            keyed.update(("n:" + k, marshal.dumps([pos_of[id(c)] for c in same])) for k, same in index.by_name.items())
            con.executemany("INSERT INTO keys VALUES (?, ?, ?)", [(k, keyed[k], _crc(k, keyed[k])) for k in sorted(keyed)])
            lists = {"names": marshal.dumps(list(index.by_name)), "ids": marshal.dumps(list(cards)),
                     "head": marshal.dumps({"stamp": _STAMP, "sha256": content_hash, "schema": schema_digest,
                                            "meta": json.dumps(meta), "count": len(cards)})}
            con.executemany("INSERT INTO lists VALUES (?, ?, ?)", [(k, v, _crc(k, v)) for k, v in lists.items()])
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


def _prune(folder: Path, suffix: str, most: int, keep: Path | None = None) -> None:
    """Drop the least recently used files ending in `suffix` past `most`, and abandoned temporary files."""
    now = time.time_ns()
    found = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        try:
            st = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if entry.name.endswith(".tmp") and entry.name.startswith(".") and now - st.st_mtime_ns > STALE_TMP_NS:
            _unlink(entry.path)
        elif entry.name.endswith(suffix) and stat.S_ISREG(st.st_mode) and entry.path != str(keep):
            found.append((st.st_mtime_ns, entry.path))
    found.sort(reverse=True)
    for _, path in found[most - (keep is not None):]:
        _unlink(path)


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass
