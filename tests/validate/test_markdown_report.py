"""`-o markdown`: the table, read back by a CommonMark parser, says what the JSON report says."""

from __future__ import annotations

import json
import re
from pathlib import Path

from markdown_table import HEADER, parse  # tests/markdown_table.py
from sengoku.display import printable
from sengoku.validate import validate_paths
from sengoku.validate.reporters import render

ROOT = Path(__file__).resolve().parents[2]
FILES = [ROOT / "decklists" / "default.toml", ROOT / "decklists" / "ultimate.toml",
         ROOT / "decklists" / "invalid" / "copy-limit.toml", ROOT / "decklists" / "invalid" / "nameless-cannot-grow.toml",
         ROOT / "decklists" / "invalid" / "syntax.toml", ROOT / "decklists" / "invalid" / "unknown-card.toml"]


def _expected_row(result: dict) -> list[str]:
    status = "valid" if result["valid"] else "invalid"
    errors = sum(v["severity"] == "error" for v in result["violations"])
    return [printable(result["path"]), status, str(errors), str(len(result["violations"]) - errors),
            printable(result["deck_name"]) if result["deck_name"] else "—", result["deck_hash"] or "—"]


def _check_against_json(run) -> _Tables:
    report = json.loads(render("json", run))
    parsed = parse(render("markdown", run))
    header, *rows = parsed.rows
    assert header == HEADER
    got = [[cell.split(" ", 1)[1] if i == 1 else cell for i, cell in enumerate(row)] for row in rows]
    assert got == [_expected_row(r) for r in report["results"]]
    # the findings: one list item per violation, in order, naming its rule, line and message
    items = [i for i in parsed.items if not i.startswith("note: ")]
    expected = [f"{v['severity']} {v['rule']}" + (f", line {v['line']}" if v["line"] is not None else "")
                for r in report["results"] for v in r["violations"]]
    assert [re.sub(r"(, column \d+)?: .*", "", i, flags=re.S) for i in items] == expected
    messages = [printable(v["message"]) for r in report["results"] for v in r["violations"]]
    assert all(m in i for m, i in zip(messages, items))
    return parsed


def test_the_table_matches_the_json_report() -> None:
    run = validate_paths(FILES)
    _check_against_json(run)
    assert "✅ valid" in render("markdown", run) and "❌ invalid" in render("markdown", run)


def test_strict_fails_warnings_in_the_table_too() -> None:
    run = validate_paths(FILES[3:4], strict=True)
    parsed = _check_against_json(run)
    assert parsed.rows[1][1] == "❌ invalid"


def test_strangers_text_cannot_break_the_table_or_inject_markup(tmp_path: Path) -> None:
    hostile = "a | b <img src=x onerror=alert(1)> *bold* [link](https://example.com) `code` $x$ @user \\ \u202e\x1b[31m"
    name = json.dumps(hostile)  # a TOML basic string accepts JSON's escapes
    text = (ROOT / "decklists" / "default.toml").read_text(encoding="utf-8")
    text = re.sub(r'^name = ".*"$', lambda _: f"name = {name}", text, count=1, flags=re.M)
    text = text.replace('name = "Soma"\nlevel = 1', 'name = "Soma | <b>x</b>"\nlevel = 1', 1)  # an unknown card
    deck = tmp_path / "pipe | *star* <b>.toml"
    deck.write_text(text, encoding="utf-8")
    run = validate_paths([deck, FILES[0]])
    parsed = _check_against_json(run)
    assert all(len(row) == len(HEADER) for row in parsed.rows)  # no pipe split a row
    assert parsed.rows[1][4] == printable(hostile)  # shown literally, hidden characters escaped
    # nothing but the report's own markup: no img, b, em, a, or math from the strangers' text
    assert set(parsed.tags) <= {"h2", "h3", "h4", "p", "table", "thead", "tbody", "tr", "th", "td", "ul", "li",
                                "strong", "code"}
    assert "\x1b" not in render("markdown", run) and "\u202e" not in render("markdown", run)
    assert parsed.tags.count("code") == 2  # the card database's hash and the valid deck's hash


def test_the_cli_writes_it(cli) -> None:
    code, out, err = cli("validate", str(FILES[0]), str(FILES[2]), "-o", "markdown")
    assert code == 1 and out.startswith("## sengoku validate\n")
    assert parse(out).rows[0] == HEADER and "2 file(s)" in err
