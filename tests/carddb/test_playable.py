"""The card database the engine plays (`carddb.playable`): one SENGOKU YUGI database, as rows or as models."""

from __future__ import annotations

import pytest

from sengoku.carddb.catalog import Catalog
from sengoku.carddb.load import load_card_db
from sengoku.carddb.playable import load_cards, load_models
from sengoku.errors import DataError
from sengoku.paths import data_dir, default_card_db


def test_rows_and_models_are_the_same_database() -> None:
    rows, models = load_cards(None), load_models(None)
    assert isinstance(rows, Catalog)
    assert rows.content_hash == models.content_hash == load_card_db(default_card_db()).content_hash
    assert sorted(rows.cards) == sorted(card.id for card in models.cards)
    assert load_cards(rows) is rows and load_models(models) is models  # a loaded database is taken as it is
    assert load_cards(models).content_hash == models.content_hash  # the models' rows


@pytest.mark.parametrize("loader", [load_cards, load_models])
def test_another_games_database_is_refused_by_both(loader) -> None:  # type: ignore[no-untyped-def]
    senjutsu = data_dir("card_db") / "senjutsu"
    with pytest.raises(DataError) as refused:
        loader(senjutsu)
    assert str(refused.value) == (f"{senjutsu / 'cards.json'}: a senjutsu card database; the goldfish engine plays "
                                  "SENGOKU YUGI decks, so --db must be a SENGOKU YUGI card database")
