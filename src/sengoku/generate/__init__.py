"""Seeded generators of decks and card databases nobody tuned a policy to (issue 36, G6).

A policy is judged on decks that chose none of its settings: these make such decks, and card
databases of another balance, from a seed alone, so a set of them is a few lines of data
(`generate.deckset`) that anyone rebuilds byte for byte.

- `generate_deck(db, profile, seed)`: a legal random deck from any SENGOKU YUGI card database,
  in one of `PROFILES` (low curve, high level, MAT-heavy, Supports, one Commander, 60 cards,
  Ultimate with familiar lines, ...); `deck_toml(deck)` writes it as a decklist.
- `generate_card_db(seed)`: a legal card database of another balance (names, stats, costs,
  ranges, levels), whose abilities use only the structured effects the engine runs (C5, A4);
  `card_db_json(data)` writes it as a `cards.json`.

Generators are not rules: nothing here is imported by the engine.
"""

from __future__ import annotations

from sengoku.generate.cards import Balance, card_db_json, generate_card_db
from sengoku.generate.decks import PROFILES, Profile, deck_toml, generate_deck
from sengoku.generate.errors import GenerateError

__all__ = ["PROFILES", "Balance", "GenerateError", "Profile", "card_db_json", "deck_toml", "generate_card_db",
           "generate_deck"]
