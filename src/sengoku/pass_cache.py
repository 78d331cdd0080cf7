"""A cache of passed checks: which data files passed every check, so loading them again skips the checks.

Checking a card database against its JSON Schema costs more than the rest of loading it (and
importing jsonschema alone is ~0.04 s), which a deck builder pays on every `sengoku goldfish`.
A file that passed is remembered by the SHA-256 of its bytes, the schema's bytes and the
sengoku version: any change to any of them checks it again. Only passes are remembered, never
problems; `sengoku db check` always checks. The memory is one small file per pass under
$SENGOKU_CACHE_DIR, else $XDG_CACHE_HOME/sengoku, else $HOME/.cache/sengoku, by the XDG Base
Directory rules: a relative $XDG_CACHE_HOME is ignored, and an empty or relative $HOME means no
home, so no cache at all (never `/.cache` or a folder below wherever sengoku was started);
SENGOKU_NO_CACHE=1 turns it off; a folder that cannot be written is simply not used. (Whoever changes the checks
themselves without changing the version, in a development checkout, sets SENGOKU_NO_CACHE=1;
the test suite uses a fresh folder of its own.)

A file's name is public (a hash of public data), so the name alone proves nothing: an entry
counts as a pass only if its content is exactly what `remember_pass` writes for this content,
this schema and this version: a format line, the three full SHA-256 digests, the version and a
SHA-256 of those lines, checked whenever it is read. Anything else -- an empty file, another
content's entry copied or renamed into place, a truncated or damaged entry, a folder, a FIFO
or a device where the entry should be -- is a miss: the file is checked as if nothing were
remembered. Entries are written whole or not at all (`sengoku.writes`), read through the
bounded reader, regular files only.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import NamedTuple

from sengoku.digests import sha256_hex
from sengoku.errors import DataError
from sengoku.files import SCHEMA_BYTES, read_input
from sengoku.version import __version__

NO_CACHE_ENV = "SENGOKU_NO_CACHE"
CACHE_DIR_ENV = "SENGOKU_CACHE_DIR"


def cache_root() -> Path | None:
    """Return the folder sengoku remembers things in (None: no cache, as SENGOKU_NO_CACHE=1 says,
    or no home folder to keep one in).

    Shared with the index of big card databases (`carddb.stored`), in a folder of its own.
    """
    if os.environ.get(NO_CACHE_ENV, "") not in ("", "0"):
        return None
    explicit = os.environ.get(CACHE_DIR_ENV)
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    if os.path.isabs(xdg):  # XDG: "a relative path ... should be considered invalid and ignored"
        return Path(xdg) / "sengoku"
    home = os.environ.get("HOME")
    if home is None:  # unset (not empty): the account's home, as the password database has it
        home = os.path.expanduser("~")
    if not os.path.isabs(home):  # HOME="" (or "." or "~" unresolved): no home, so no cache
        return None
    return Path(home) / ".cache" / "sengoku"


def _folder() -> Path | None:
    root = cache_root()
    return None if root is None else root / "checked"


class PassKey(NamedTuple):  # not a dataclass: start-up time (see `files.Original`)
    """What a pass is remembered for: one content checked against one schema by this sengoku version."""

    data_sha256: str
    schema_sha256: str

    @property
    def name(self) -> str:
        """The entry's file name (public: a hash of the content, the schema and the version)."""
        return sha256_hex(__version__.encode() + bytes.fromhex(self.schema_sha256) + bytes.fromhex(self.data_sha256))

    def entry(self) -> bytes:
        """The exact bytes of this pass's entry, its own checksum last."""
        body = (f"{_FORMAT}\ncontent {self.data_sha256}\nschema {self.schema_sha256}\n"
                f"version {__version__}\nname {self.name}\n").encode("utf-8")
        return body + b"check " + sha256_hex(body).encode("ascii") + b"\n"


_FORMAT = "sengoku passed-check 1"
_ENTRY_BYTES = 4096  # an entry is ~400 bytes: anything longer is not one


def pass_key(data: bytes, schema: Path) -> PassKey:
    """Return the key of a file's bytes checked against `schema` by this sengoku version."""
    return digest_key(sha256_hex(data), schema)


def digest_key(data_sha256: str, schema: Path) -> PassKey:
    """Return the key of the bytes whose SHA-256 is `data_sha256` checked against `schema`."""
    return PassKey(data_sha256, sha256_hex(read_input(schema, SCHEMA_BYTES)))


def passed_before(key: PassKey) -> bool:
    """Tell whether a file with this key passed every check before (its entry is whole and is for it)."""
    folder = _folder()
    if folder is None:
        return False
    try:
        found = read_input(folder / key.name, _ENTRY_BYTES, regular=True)
    except OSError:  # missing, a folder, a FIFO, too long, unreadable (another user's HOME): check again
        return False
    return found == key.entry()


def remember_pass(key: PassKey) -> None:
    """Record that a file with this key passed every check (silently skipped if impossible)."""
    # deferred: tempfile's start-up time, paid only by a run that checked a new file
    from sengoku.writes import write_atomically

    folder = _folder()
    if folder is None:
        return
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_atomically(folder / key.name, key.entry(), replace=True, force_hint=None)
    except (OSError, DataError):  # e.g. a folder planted where the entry goes: simply not remembered
        pass
