"""Where the bundled data lives: inside the wheel, or at the top of a source checkout."""

from __future__ import annotations

import os
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
_CHECKOUT = _PACKAGE.parent.parent  # src/sengoku -> repository root

DB_ENV = "SENGOKU_DB"


def data_dir(name: str) -> Path:
    """Return the bundled folder `name` (card_db, schemas, decklists)."""
    packaged = _PACKAGE / "_data" / name
    if packaged.is_dir():
        return packaged
    return _CHECKOUT / name


def schema_path(filename: str) -> Path:
    """Return the path of a bundled JSON Schema file."""
    return data_dir("schemas") / filename


def default_card_db(game: str = "sengoku") -> Path:
    """Return the card database to use: $SENGOKU_DB if set (for SENGOKU YUGI), else bundled."""
    env = os.environ.get(DB_ENV)
    if env and game == "sengoku":
        return Path(env)
    return data_dir("card_db") / game
