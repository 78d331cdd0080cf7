"""One `Problem` type for every finding: a card database's (`db check`) and a deck's (`validate`).

Each command keeps its own documented JSON shape: `db check --json` names the rule id `code`
and one `card_id`; `validate -o json` names it `rule` and lists `cards`.
"""

from __future__ import annotations

import json
from pathlib import Path

import sengoku
import sengoku.problems
from sengoku.paths import data_dir
from sengoku.problems import Problem

INVALID_DB = Path(__file__).parent / "carddb" / "invalid"
DECKS = data_dir("decklists")


def test_db_check_and_validate_report_the_same_type() -> None:
    report = sengoku.check_card_db(INVALID_DB / "duplicate_id.json")
    run = sengoku.validate_paths([DECKS / "invalid"])
    found = list(report.problems) + [v for r in run.results for v in r.violations]
    assert report.problems and len(found) > len(report.problems)
    assert {type(p) for p in found} == {Problem}
    assert sengoku.Problem is Problem
    assert not hasattr(sengoku.problems, "Violation")


def test_db_check_json_keeps_its_documented_keys(cli) -> None:
    code, out, _ = cli("db", "check", str(INVALID_DB / "duplicate_id.json"), "--json")
    problems = json.loads(out)
    assert code == 1 and problems
    for p in problems:
        assert list(p) == ["path", "message", "card_id", "json_path", "severity", "code", "line"]
    assert problems[0]["code"] == "duplicate-id" and problems[0]["card_id"] is not None


def test_validate_json_keeps_its_documented_keys(cli) -> None:
    code, out, _ = cli("validate", str(DECKS / "invalid"), "-o", "json")
    violations = [v for r in json.loads(out)["results"] for v in r["violations"]]
    assert code == 1 and violations
    for v in violations:
        assert list(v) == ["rule", "severity", "message", "line", "column", "cards"]


def test_a_problem_about_one_card_names_it_in_its_location() -> None:
    p = Problem("duplicate-id", "error", "two cards share this id", line=4, cards=("SY1-001",),
                path="cards.json", json_path="$.cards[1].id")
    assert p.card_id == "SY1-001"
    assert str(p) == "cards.json:4 card SY1-001 at $.cards[1].id: two cards share this id"
    assert Problem("syntax", "error", "x").card_id is None
