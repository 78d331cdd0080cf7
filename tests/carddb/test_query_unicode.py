"""`sengoku cards QUERY` reads a name the way decklists do: full-width forms, case and spaces do not matter."""

from __future__ import annotations

import pytest

from sengoku.carddb.load import load_card_db
from sengoku.carddb.query import CardQuery, find_cards
from sengoku.paths import data_dir


@pytest.fixture(scope="module")
def db():
    return load_card_db(data_dir("card_db") / "sengoku")


@pytest.mark.parametrize("typed", ["ＳＯＭＡ", "  soma ", "Ｓｏｍａ"])
def test_full_width_and_spaced_names_find_the_same_cards(db, typed: str) -> None:
    ids = [c["id"] for c in find_cards(db, CardQuery.parse(typed))]
    assert ids == ["SY1-001", "SY1-002", "SY1-003", "SY1-004"]


def test_full_width_id_finds_its_card(db) -> None:
    assert [c["id"] for c in find_cards(db, CardQuery.parse("ＳＹ１－００１"))] == ["SY1-001"]
