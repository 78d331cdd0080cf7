"""Data-driven card DB checks: tests/carddb/valid/* must pass, invalid/* must fail exactly as
tests/carddb/invalid/expected.toml says (schema C1-C5 and the semantic checks)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from sengoku.carddb.load import CardDBError, card_lines, load_card_db
from sengoku.db_check import check_card_db
from sengoku.paths import data_dir, schema_path

HERE = Path(__file__).parent
VALID = sorted((HERE / "valid").glob("*.json"))
INVALID = sorted((HERE / "invalid").glob("*.json"))
EXPECTED = tomllib.loads((HERE / "invalid" / "expected.toml").read_text(encoding="utf-8"))
BUNDLED = data_dir("card_db") / "sengoku"


@pytest.mark.parametrize("schema", ["sengoku-card-db.schema.json", "board.schema.json"])
def test_schema_is_a_valid_2020_12_schema(schema: str) -> None:
    doc = json.loads(schema_path(schema).read_text(encoding="utf-8"))
    assert doc["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(doc)


@pytest.mark.parametrize("data_file, schema", [("cards.json", "sengoku-card-db.schema.json"),
                                               ("board.json", "board.schema.json")])
def test_bundled_file_is_valid_against_its_schema(data_file: str, schema: str) -> None:
    # Checked with jsonschema directly, not through our loader, so a loader bug cannot hide it.
    validator = Draft202012Validator(json.loads(schema_path(schema).read_text(encoding="utf-8")))
    data = json.loads((BUNDLED / data_file).read_text(encoding="utf-8"))
    assert [e.message for e in validator.iter_errors(data)] == []


def test_bundled_database_passes_every_check_without_warnings() -> None:
    report = check_card_db(BUNDLED)
    assert report.problems == []
    names = [Path(f).name for f in report.files]
    assert names[:2] == ["cards.json", "board.json"]  # plus game.toml and format files when present


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.stem)
def test_valid_file_passes(path: Path) -> None:
    assert check_card_db(path).problems == []
    assert len(load_card_db(path).cards) == len(json.loads(path.read_text())["cards"])


def test_every_invalid_file_has_expectations_and_back() -> None:
    assert {p.stem for p in INVALID} == set(EXPECTED)


@pytest.mark.parametrize("path", INVALID, ids=lambda p: p.stem)
def test_invalid_file_reports_exactly_the_expected_problems(path: Path) -> None:
    report = check_card_db(path)
    got = sorted((p.rule, p.json_path, p.card_id or "") for p in report.problems)
    want = sorted((e["code"], e["json_path"], e["card_id"]) for e in EXPECTED[path.stem])
    assert got == want
    assert not report.ok
    for expected in EXPECTED[path.stem]:
        [problem] = [p for p in report.problems if (p.rule, p.json_path) == (expected["code"], expected["json_path"])]
        assert expected["message"] in problem.message
        assert problem.path == str(path)
        if problem.card_id:  # the card's own line in the file: cards are one per line from line 4
            index = int(problem.json_path.split("[")[1].split("]")[0])
            assert problem.line == 4 + index


@pytest.mark.parametrize("path", INVALID, ids=lambda p: p.stem)
def test_load_refuses_an_invalid_database_listing_every_problem(path: Path) -> None:
    with pytest.raises(CardDBError) as info:
        load_card_db(path)
    assert len(info.value.problems) == len(EXPECTED[path.stem])
    assert str(path) in str(info.value)


def test_card_lines_point_at_each_card_of_the_bundled_file() -> None:
    text = (BUNDLED / "cards.json").read_text(encoding="utf-8")
    cards = json.loads(text)["cards"]
    lines = text.splitlines()
    found = card_lines(text)
    assert len(found) == len(cards)
    for card, line in zip(cards, found):
        assert f'"id": "{card["id"]}"' in lines[line - 1]


def test_card_lines_of_a_pretty_printed_file() -> None:
    text = json.dumps({"meta": {"x": [1, {"cards": 2}]}, "cards": [{"a": "}]"}, {"b": 1}]}, indent=2)
    assert card_lines(text) == [11, 14]  # the lines of the two opening braces
    assert card_lines("[]") == []
