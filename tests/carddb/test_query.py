"""`CardQuery`: filters checked against the card rules' enums; cards come back as the file spells them."""

from __future__ import annotations

import json

import pytest

from sengoku.carddb.load import load_card_db
from sengoku.carddb.query import CardQuery, QueryError, card_dicts, find_cards
from sengoku.paths import data_dir

FILE = data_dir("card_db") / "sengoku" / "cards.json"
RAW = json.loads(FILE.read_text(encoding="utf-8"))["cards"]


@pytest.fixture(scope="module")
def db():
    return load_card_db(FILE)


def test_card_dicts_equal_the_file(db) -> None:
    # Same fields, same names (`def`, not `def_`), same values, same order.
    assert card_dicts(db) == RAW
    assert all("def" in c and "def_" not in c for c in card_dicts(db))


@pytest.mark.parametrize("filters, expected", [
    ({"kind": "nameless"}, lambda c: c["kind"] == "nameless"),
    ({"level": "4"}, lambda c: c["level"] == 4),
    ({"weapon": "Dual Blades"}, lambda c: c.get("weapon") == "dual_blades"),
    ({"attribute": "HOLY", "kind": "familiar"}, lambda c: c["attribute"] == "holy" and c["kind"] == "familiar"),
    ({"text": "radiant"}, lambda c: "radiant" in c["name"].lower()),
    ({"text": "sy1-001"}, lambda c: c["id"] == "SY1-001"),
    ({"text": "soma", "level": 3}, lambda c: c["name"] == "Soma" and c["level"] == 3),
])
def test_filters_match_a_scan_of_the_file(db, filters: dict, expected) -> None:
    text = filters.pop("text", None)
    found = find_cards(db, CardQuery.parse(text, **filters))
    assert found == [c for c in RAW if expected(c)]
    assert found  # every case above selects something from the sample set


@pytest.mark.parametrize("field, value", [("weapon", "sword"), ("attribute", "ice"), ("kind", "hero"),
                                          ("level", "5"), ("level", "two")])
def test_bad_filter_values_name_the_choices(field: str, value: str) -> None:
    with pytest.raises(QueryError) as info:
        CardQuery.parse(None, **{field: value})
    assert info.value.field == field
    assert f"not a valid {field}" in str(info.value) and "choose from" in str(info.value)


def test_no_filter_returns_everything(db) -> None:
    assert len(find_cards(db)) == len(RAW)
