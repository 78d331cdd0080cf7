"""The folder of remembered indexes and notes, and its pruning: the least recently used go first."""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path

from sengoku.pass_cache import cache_root

KEEP = 4  # indexes kept (each about the size of its cards.json)
KEEP_NOTES = 64  # path notes kept (a few hundred bytes each)
STALE_TMP_NS = 3600 * 1_000_000_000  # a builder's leftover older than this was abandoned


def cards_folder() -> Path | None:
    """Return the folder of indexes and notes, or None when the cache is off (the pass cache's rules)."""
    root = cache_root()
    return None if root is None else root / "cards"


def prune(folder: Path, suffix: str, most: int, keep: Path | None = None) -> None:
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
            unlink(entry.path)
        elif entry.name.endswith(suffix) and stat.S_ISREG(st.st_mode) and entry.path != str(keep):
            found.append((st.st_mtime_ns, entry.path))
    found.sort(reverse=True)
    for _, path in found[most - (keep is not None):]:
        unlink(path)


def unlink(path: str) -> None:
    """Remove a file of the folder if it is there (another run may have pruned it already)."""
    try:
        os.unlink(path)
    except OSError:
        pass
