"""A cache of passed checks: which data files passed every check, so loading them again skips the checks.

Checking a card database against its JSON Schema costs more than the rest of loading it (and
importing jsonschema alone is ~0.04 s), which a deck builder pays on every `sengoku goldfish`.
A file that passed is remembered by the SHA-256 of its bytes, the schema's bytes and the
sengoku version: any change to any of them checks it again. Only passes are remembered, never
problems; `sengoku db check` always checks. The memory is one empty file per pass under
$SENGOKU_CACHE_DIR, else $XDG_CACHE_HOME/sengoku, else $HOME/.cache/sengoku, by the XDG Base
Directory rules: a relative $XDG_CACHE_HOME is ignored, and an empty or relative $HOME means no
home, so no cache at all (never `/.cache` or a folder below wherever sengoku was started);
SENGOKU_NO_CACHE=1 turns it off; a folder that cannot be written is simply not used. (Whoever changes the checks
themselves without changing the version, in a development checkout, sets SENGOKU_NO_CACHE=1;
the test suite uses a fresh folder of its own.)
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

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


def pass_key(data: bytes, schema: Path) -> str:
    """Return the key of a file's bytes checked against `schema` by this sengoku version."""
    digest = hashlib.sha256(__version__.encode())
    digest.update(hashlib.sha256(schema.read_bytes()).digest())
    digest.update(hashlib.sha256(data).digest())
    return digest.hexdigest()


def passed_before(key: str) -> bool:
    """Tell whether a file with this key passed every check before."""
    folder = _folder()
    try:
        return folder is not None and (folder / key).is_file()
    except OSError:  # a cache folder we may not look into (another user's HOME): check again
        return False


def remember_pass(key: str) -> None:
    """Record that a file with this key passed every check (silently skipped if impossible)."""
    folder = _folder()
    if folder is None:
        return
    try:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / key).touch()
    except OSError:
        pass
