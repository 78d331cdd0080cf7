"""The card database the rules engine plays: a SENGOKU YUGI one, as plain rows or as models.

goldfish, compare and trace read it as its checked plain rows (`load_cards`, a `Catalog`); tune,
which names and lists cards, as pydantic models (`load_models`). Another game's database is
refused with a DataError: the engine plays SENGOKU YUGI only.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from sengoku.carddb.catalog import Catalog, catalog_from_db, catalog_of_file
from sengoku.carddb.load import load_card_db, resolve_cards_file
from sengoku.errors import DataError
from sengoku.games import game_code
from sengoku.paths import DB_ENV

if TYPE_CHECKING:
    from sengoku.carddb.models import CardDatabase


def load_cards(db: CardDatabase | Catalog | Path | str | None) -> Catalog:
    """Return the SENGOKU YUGI card database a deck is played with, as its checked plain rows.

    `db` is a path (file or folder), None (the bundled database, or $SENGOKU_DB), a `Catalog`,
    or a loaded `CardDatabase`. A path is read and checked as `load_card_db` reads it (the same
    checks, messages and pass cache), without building a pydantic model per card.
    """
    if isinstance(db, Catalog):
        catalog = db
    elif db is None or isinstance(db, (str, Path)):
        catalog = catalog_of_file(resolve_cards_file(db))
    else:  # a loaded CardDatabase (the models): its rows, as the validator reads them
        catalog = catalog_from_db(db)
    code = game_code(catalog.game)
    if code is None or code.card_model != "sengoku":  # another game's database (issue 5): no characters
        refuse_other_game(db, catalog.game, catalog.path)
    return catalog


def load_models(db: CardDatabase | Path | str | None) -> CardDatabase:
    """Return the SENGOKU YUGI card database a deck is played with, as pydantic models (what tune reads)."""
    from sengoku.carddb.models import CardDatabase  # deferred: pydantic's start-up, for tune alone

    loaded = db if isinstance(db, CardDatabase) else load_card_db(db)
    if not isinstance(loaded, CardDatabase):  # another game's database (issue 5) has no characters to play
        refuse_other_game(db, loaded.meta.game, loaded.path)
    return loaded


def refuse_other_game(db: object, game: str, path: str | None) -> NoReturn:
    """Raise the DataError that says the engine plays SENGOKU YUGI databases only."""
    source = "--db" if db is not None else f"${DB_ENV}"
    raise DataError(path, f"a {game} card database; the goldfish engine plays "
                    f"SENGOKU YUGI decks, so {source} must be a SENGOKU YUGI card database")
