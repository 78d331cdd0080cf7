"""A cards file's identity (device, inode, size, modification and change times), and when to trust it.

A file whose `stat` gives the identity it had when it was read holds the bytes it held then,
unless it was changed in the clock tick it was looked at: a look taken less than `RACY_NS` after
the file's last change is not trusted (its bytes are hashed instead).
"""

from __future__ import annotations

import hashlib
import os
import stat
import time
from dataclasses import dataclass
from pathlib import Path

from sengoku.carddb import load
from sengoku.carddb.stored.folder import cards_folder
from sengoku.files import CARD_DB_BYTES, open_input

RACY_NS = 2_000_000_000  # a file changed this close before it was read is hashed, not trusted


def identity(st: os.stat_result) -> list[int]:
    """Return what tells a file's content changed without reading it."""
    return [st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns]


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
        if not stat.S_ISREG(st.st_mode) or st.st_size < load.INDEX_MIN_BYTES or cards_folder() is None:
            return None
        return cls(Path(os.path.realpath(cards_file)), identity(st), seen)

    def unchanged(self) -> bool:
        """Tell whether the file still has the identity it had when looked at."""
        try:
            return identity(os.stat(self.path)) == self.identity
        except OSError:
            return False

    def trusted(self) -> bool:
        """Tell whether the file's times tell a change apart (it was not changed in the tick it was looked at)."""
        return self.identity[3] < self.seen_ns - RACY_NS and self.identity[4] < self.seen_ns - RACY_NS


def content_digest(path: Path) -> str | None:
    """Return the SHA-256 of a cards file's bytes, or None if it cannot be read or is too big."""
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
