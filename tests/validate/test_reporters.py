"""Every output format, checked for its structure (parsed back, not string-matched only)."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from sengoku.validate import validate_paths
from sengoku.validate.reporters import REPORTERS, get_reporter, render

ROOT = Path(__file__).resolve().parents[2]
FILES = [ROOT / "decklists" / "default.toml", ROOT / "decklists" / "invalid" / "copy-limit.toml",
         ROOT / "decklists" / "invalid" / "nameless-cannot-grow.toml", ROOT / "decklists" / "invalid" / "syntax.toml"]


@pytest.fixture(scope="module")
def run():
    return validate_paths(FILES)


def test_reporters_are_chosen_by_name() -> None:
    assert list(REPORTERS) == ["text", "json", "github", "junit", "sarif", "markdown"]
    from sengoku.errors import DataError

    with pytest.raises(DataError, match="unknown output format"):
        get_reporter("yaml")


def test_text_lines(run) -> None:
    lines = render("text", run).splitlines()
    assert lines[0] == f"{FILES[0]} valid (sengoku-yugi, standard, 54 cards)"
    pattern = re.compile(r"^(\S+):(\d+):(\d+) (error|warning) ([a-z-]+) (.+)$")
    notes = [line for line in lines[1:] if " info " in line]
    assert notes == [f"{FILES[3]} info deck-level rules were not checked: fix the syntax errors first"], notes
    parsed = [pattern.match(line) for line in lines[1:] if line not in notes]
    assert all(parsed), lines
    assert {m.group(5) for m in parsed} == {"copy-limit", "nameless-cannot-grow", "syntax"}
    assert any(line.endswith("[SY2-025, SY1-027]") for line in lines)  # the cards involved, in deck order


def test_json_shape(run) -> None:
    data = json.loads(render("json", run))
    assert set(data) == {"card_db", "card_dbs", "strict", "results", "summary"}
    assert set(data["card_db"]) == {"name", "version", "hash"} and len(data["card_db"]["hash"]) == 64
    assert data["summary"] == {"files": 4, "passed": 2, "failed": 2, "errors": 6, "warnings": 1}
    assert [r["valid"] for r in data["results"]] == [True, False, True, False]
    for result in data["results"]:
        assert {"path", "valid", "violations", "game", "mode", "sections"} <= set(result)
        for v in result["violations"]:
            assert set(v) == {"rule", "severity", "message", "line", "column", "cards"}
            assert isinstance(v["line"], int) and isinstance(v["cards"], list)
    assert data["results"][0]["sections"]["main"]["SY1-001"] == 3


def test_json_valid_follows_strict() -> None:
    run = validate_paths(FILES[2:3], strict=True)
    data = json.loads(render("json", run))
    assert data["strict"] is True and data["results"][0]["valid"] is False and run.exit_code == 1


def test_github_workflow_commands(run) -> None:
    lines = render("github", run).splitlines()
    pattern = re.compile(r"^::(error|warning) file=([^,]+),line=(\d+),col=(\d+),title=([a-z-]+)::(.+)$")
    assert lines and all(pattern.match(line) for line in lines), lines
    kinds = {pattern.match(line).group(1) for line in lines}
    assert kinds == {"error", "warning"}
    assert not any(str(FILES[0]) in line for line in lines)  # a clean file says nothing


def test_github_escapes_newlines_and_percent() -> None:
    from sengoku.validate.reporters.github import line_for
    from sengoku.problems import Problem

    line = line_for("a,b:c.toml", Problem("syntax", "error", "50%\nnext", 3, None))
    assert line == "::error file=a%2Cb%3Ac.toml,line=3,title=syntax::50%25%0Anext"


def test_junit_one_testcase_per_file(run) -> None:
    root = ET.fromstring(render("junit", run))
    cases = root.findall("./testsuite/testcase")
    assert [c.get("name") for c in cases] == [str(f) for f in FILES]
    failed = [c.get("name") for c in cases if c.find("failure") is not None]
    assert failed == [str(FILES[1]), str(FILES[3])]
    assert root.get("tests") == "4" and root.get("failures") == "2"
    assert cases[2].find("system-out") is not None  # the warning of a passing file


def test_sarif_2_1_0(run) -> None:
    log = json.loads(render("sarif", run))
    assert log["version"] == "2.1.0" and "sarif" in log["$schema"]
    (sarif_run,) = log["runs"]
    rules = sarif_run["tool"]["driver"]["rules"]
    ids = [r["id"] for r in rules]
    assert {"sengoku-yugi/deck-size", "sengoku-yugi/copy-limit", "syntax", "unknown-card",
            "sengoku-yugi/nameless-cannot-grow"} <= set(ids)  # a game's own rules carry its id
    assert all(r["shortDescription"]["text"] for r in rules)
    assert next(r for r in rules if r["id"] == "sengoku-yugi/copy-limit")["properties"] == {
        "game": "sengoku-yugi", "spec": "D3"}
    results = sarif_run["results"]
    assert len(results) == 7
    for res in results:
        assert ids[res["ruleIndex"]] == res["ruleId"] and res["level"] in ("error", "warning")
        loc = res["locations"][0]["physicalLocation"]
        assert loc["artifactLocation"]["uri"] and loc["region"]["startLine"] >= 1


def test_sarif_validates_against_a_minimal_sarif_schema(run) -> None:
    # The official schema is not bundled (no network); check the parts code scanning requires.
    from jsonschema import validate

    schema = {
        "type": "object", "required": ["version", "runs"],
        "properties": {"version": {"const": "2.1.0"}, "runs": {"type": "array", "items": {
            "type": "object", "required": ["tool", "results"],
            "properties": {"tool": {"type": "object", "required": ["driver"], "properties": {"driver": {
                "type": "object", "required": ["name", "rules"]}}},
                "results": {"type": "array", "items": {
                    "type": "object", "required": ["ruleId", "message", "locations"],
                    "properties": {"message": {"type": "object", "required": ["text"]}}}}}}}}}
    validate(json.loads(render("sarif", run)), schema)
