"""Tolerant card-name matching: what a player types should find the card they meant."""

from __future__ import annotations

import unicodedata
from functools import lru_cache


@lru_cache(maxsize=65536)
def fold(text: str) -> str:
    """Return the matching key of a name: NFKC (full-width forms), case-folded, spaces collapsed.

    NFKC also composes, so NFC and NFD spellings of an accented name fold to the same key.
    """
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())
