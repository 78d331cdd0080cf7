"""The note per path: a cards file's identity when it was read, beside the SHA-256 of its bytes."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from sengoku.carddb.stored.identity import Look
from sengoku.errors import DataError
from sengoku.files import read_input
from sengoku.writes import write_atomically

NOTE_SUFFIX = ".where"
_NOTE_BYTES = 64_000


def note_path(folder: Path, path: Path) -> Path:
    """Return where the note of a cards file (its real path) is kept."""
    return folder / (hashlib.sha256(str(path).encode("utf-8", "surrogatepass")).hexdigest()[:32] + NOTE_SUFFIX)


def read_note(folder: Path, look: Look) -> tuple[list[int], int, str] | None:
    """Return the note of a looked-at file (identity, when seen, SHA-256), or None if none is usable."""
    try:
        # bounded and regular files only: a FIFO planted here must not block the run
        note = json.loads(read_input(note_path(folder, look.path), _NOTE_BYTES, regular=True))
        identity, seen, digest = note["identity"], note["seen_ns"], note["sha256"]
        if (note.get("path") == str(look.path) and isinstance(identity, list) and isinstance(seen, int)
                and isinstance(digest, str) and len(digest) == 64):
            return identity, seen, digest
    except (OSError, ValueError, KeyError, TypeError):
        pass
    return None


def write_note(folder: Path, look: Look, digest: str) -> None:
    """Note that the file, as looked at, held the bytes of `digest` (silently skipped if impossible)."""
    note = {"path": str(look.path), "identity": look.identity, "seen_ns": look.seen_ns, "sha256": digest}
    try:
        write_atomically(note_path(folder, look.path), json.dumps(note), replace=True, force_hint=None)
    except DataError:
        pass  # not remembered: the next run hashes the file
