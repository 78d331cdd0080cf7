"""The names the impact tests share, in a module of its own: test folders have no package, so a test that
imported them `from conftest` got whichever folder's conftest module Python had loaded first (the tune
tests' one, when both folders ran in one process)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SAMPLE_DB = ROOT / "card_db" / "sengoku"
DEFAULT_DECK = ROOT / "decklists" / "default.toml"

# A Level 2 Main card no other card shares a name with, deployed for 30 AP (the most the schema allows; a
# game of 8 turns never holds it: M1) and charged for 0 AP (T2a): drawn, it does nothing.
DEAD = "Deadweight"
# A Level 1 Main card that deploys for 1 AP, charges for 20 (T2a) and beats any Last Guard (K1, K4): the deck's
# best card, whether played or charged.
STRONG = "Champion"
