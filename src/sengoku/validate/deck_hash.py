"""The deck hash: one SHA-256 that names a deck's cards, so a registered list cannot change unnoticed.

It is taken over what the deck *says*, not how its file is written: the cards (by id, after
`[[section]]` entries are resolved against the card database), their summed counts per
section, the game and mode, and the SHA-256 of the card database's `cards.json`. Comments,
entry order, key order, spelling a card by name or by id, the deck's name and `format` leave it
unchanged, so `sengoku fmt` never changes it; any card, count, section, mode or card database
does.

Precisely (docs/validation.md shows how to recompute it from `validate -o json`):

    sha256(json.dumps({"card_db": <cards.json sha256>, "game": ..., "mode": ...,
                       "sections": {section: {card id: count}}},
                      sort_keys=True, separators=(",", ":")).encode("utf-8")).hexdigest()

`json.dumps` with Python's defaults otherwise: non-ASCII characters as `\\uXXXX` escapes.
A deck whose file has syntax errors or names a card the database does not have (or names it
ambiguously) has no hash: its list of cards is not known.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from sengoku.digests import sha256_hex

KEY = "deck_hash"  # its name in every machine-readable report


def deck_hash(game: str, mode: str, sections: Mapping[str, Mapping[str, int]], card_db_hash: str) -> str:
    """Return the deck hash of resolved cards (`section -> card id -> count`) checked against a card database."""
    content = {"card_db": card_db_hash, "game": game, "mode": mode,
               "sections": {s: dict(counts) for s, counts in sections.items() if counts}}
    text = json.dumps(content, sort_keys=True, separators=(",", ":"))
    return sha256_hex(text.encode("utf-8"))
