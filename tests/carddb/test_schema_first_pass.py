"""The compiled first pass over a card database's schema changes no problem, only the time.

`schema_problems` asks jsonschema-rs whether a file passes; when it does not, jsonschema words
the problems, for the failing cards only. The reference here is jsonschema over the whole file.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sengoku.carddb.load as load
from sengoku.games import bundled_games, game_code
from sengoku.paths import data_dir

SAMPLE = json.loads((data_dir("card_db") / "sengoku" / "cards.json").read_text(encoding="utf-8"))
SCHEMA = "sengoku-card-db.schema.json"


class _WholeFile:
    """A first pass that always fails at the top: jsonschema then checks the whole file."""

    class _Error:
        instance_path: list[Any] = []

    def iter_errors(self, data: Any) -> list[Any]:
        return [self._Error()]


def reference(data: Any, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    with monkeypatch.context() as m:
        m.setattr(load, "_first_pass", lambda schema_file: _WholeFile())
        return load.schema_problems("cards.json", data, SCHEMA)


def test_a_clean_file_has_no_problem_either_way(monkeypatch: pytest.MonkeyPatch) -> None:
    assert load.schema_problems("cards.json", SAMPLE, SCHEMA) == reference(SAMPLE, monkeypatch) == []


def test_problems_of_several_cards_are_the_reference_ones_in_file_order(monkeypatch: pytest.MonkeyPatch) -> None:
    data = copy.deepcopy(SAMPLE)
    data["cards"][40]["level"] = 9
    data["cards"][3]["bogus"] = 1
    data["cards"][12]["kind"] = "hero"
    del data["cards"][77]["atk"]
    got = load.schema_problems("cards.json", data, SCHEMA)
    assert got == reference(data, monkeypatch)
    indices = [int(p.json_path.split("[")[1].split("]")[0]) for p in got]
    assert indices == sorted(indices) and set(indices) == {3, 12, 40, 77}


def test_a_problem_outside_the_cards_checks_the_whole_file(monkeypatch: pytest.MonkeyPatch) -> None:
    data = copy.deepcopy(SAMPLE)
    data["meta"]["name"] = ""
    data["cards"][5]["level"] = 0
    got = load.schema_problems("cards.json", data, SCHEMA)
    assert got == reference(data, monkeypatch)
    assert {p.json_path for p in got} >= {"$.meta.name", "$.cards[5].level"}


@pytest.mark.parametrize("game", sorted(bundled_games()))
def test_every_bundled_database_passes_the_first_pass(game: str) -> None:
    code = game_code(game)
    assert code is not None
    data = json.loads((bundled_games()[game].folder / "cards.json").read_text(encoding="utf-8"))
    assert load._first_pass(code.card_schema).is_valid(data)


FIELDS = ["level", "kind", "atk", "name", "boost", "abilities", "range", "epithet", "id", "bogus"]
VALUES = st.one_of(st.none(), st.integers(-3, 9), st.text(max_size=3), st.lists(st.integers(0, 3), max_size=2),
                   st.sampled_from(["main", "support", "familiar", "near_left"]))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, len(SAMPLE["cards"]) - 1), st.sampled_from(FIELDS), VALUES),
                min_size=1, max_size=6))
def test_mangled_cards_give_the_reference_problems(edits: list[tuple[int, str, Any]]) -> None:
    data = copy.deepcopy(SAMPLE)
    for i, field, value in edits:
        data["cards"][i][field] = value
    with pytest.MonkeyPatch.context() as m:
        assert load.schema_problems("cards.json", data, SCHEMA) == reference(data, m)
