"""Data-driven: every sample decklist produces exactly the rule ids its `# expect:` header names.

Files without a header must be valid. This covers SENGOKU YUGI (decklists/, decklists/invalid/,
tests/decklists/) and the other games' samples (decklists/<game>/), all through one checker.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from sengoku.validate import validate_paths

ROOT = Path(__file__).resolve().parents[2]
DECKLISTS = ROOT / "decklists"
TEST_DECKLISTS = ROOT / "tests" / "decklists"

_EXPECT = re.compile(r"^#\s*expect:\s*(.+)$", re.MULTILINE)


def expected(path: Path) -> set[str] | None:
    m = _EXPECT.search(path.read_text(encoding="utf-8"))
    return {r.strip() for r in m.group(1).split(",") if r.strip()} if m else None


VALID = sorted([*DECKLISTS.glob("*.toml"), *TEST_DECKLISTS.glob("valid/*.toml"), *DECKLISTS.glob("*/valid/*.toml")])
INVALID = sorted([*DECKLISTS.glob("invalid/*.toml"), *TEST_DECKLISTS.glob("invalid/*.toml"),
                  *DECKLISTS.glob("*/invalid/*.toml")])


def _id(p: Path) -> str:
    return str(p.relative_to(ROOT))


@pytest.fixture(scope="module")
def results():
    run = validate_paths([*VALID, *INVALID])
    return {r.path: r for r in run.results}


def test_there_are_samples_for_every_sengoku_rule() -> None:
    covered = set().union(*(expected(p) or set() for p in DECKLISTS.glob("invalid/*.toml")))
    rule_ids = {"deck-size", "nameless-count", "copy-limit", "commander", "familiar-deck-size",
                "familiar-singleton", "familiar-egg", "familiars-in-standard", "wrong-section",
                "unknown-card", "ambiguous-card", "syntax", "duplicate-entry", "nameless-cannot-grow",
                "familiar-cannot-contract"}
    assert rule_ids <= covered, rule_ids - covered


@pytest.mark.parametrize("path", VALID, ids=_id)
def test_valid_decklist_has_no_error(path: Path, results) -> None:
    result = results[str(path)]
    want = expected(path)
    assert result.valid, [str(v) for v in result.errors]
    if want is not None:  # a valid file may still expect warnings
        assert {v.rule for v in result.violations} == want
    elif path.is_relative_to(TEST_DECKLISTS) or path.parent == DECKLISTS:
        assert result.violations == []


@pytest.mark.parametrize("path", INVALID, ids=_id)
def test_invalid_decklist_breaks_exactly_the_expected_rules(path: Path, results) -> None:
    want = expected(path)
    assert want, f"{path} has no '# expect:' header"
    result = results[str(path)]
    assert {v.rule for v in result.violations} == want, [f"{v.rule}: {v.message}" for v in result.violations]
    for v in result.violations:
        assert v.severity in ("error", "warning") and v.message


def test_every_violation_of_the_samples_points_at_a_line(results) -> None:
    # Deck-level rules point at the section; only a missing section leaves no line.
    for path in INVALID:
        for v in results[str(path)].violations:
            if v.rule != "nameless-count" and "familiar" not in v.rule:
                assert v.line is not None, (path, v)


@pytest.fixture(scope="module")
def decklist_schema():
    return Draft202012Validator(json.loads((ROOT / "schemas" / "decklist.schema.json").read_text()))


@pytest.mark.parametrize("path", VALID, ids=_id)
def test_editor_schema_accepts_valid_decklists(path: Path, decklist_schema) -> None:
    errors = list(decklist_schema.iter_errors(tomllib.loads(path.read_text(encoding="utf-8"))))
    assert not errors, [e.message for e in errors]


def test_editor_schema_rejects_what_the_reader_calls_syntax(decklist_schema) -> None:
    doc = tomllib.loads((DECKLISTS / "invalid" / "syntax.toml").read_text(encoding="utf-8"))
    messages = [e.message for e in decklist_schema.iter_errors(doc)]
    assert len(messages) >= 3  # 2.5, "3", the misspelt key, -1
    bad = [{"game": "senjutsu", "main": []}, {"mode": "quick"}, {"main": [{"count": 2}]},
           {"main": [{"name": "Soma", "count": 100}]}, {"game": "champions", "main": []}]
    for doc in bad:
        assert list(decklist_schema.iter_errors(doc)), doc
