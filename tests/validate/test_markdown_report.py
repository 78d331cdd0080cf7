"""`-o markdown`: the table, rendered as GitHub renders it, says what the JSON report says, with no
link or HTML from a stranger's text."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from markdown_table import HEADER, parse, shown  # tests/markdown_table.py
from markdown_table import render as rendered
from sengoku.display import markdown_text, printable
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


# Text GitHub's renderer would make a link of, raw: a bare domain, URLs of each scheme the autolink
# extension knows, e-mail addresses (plain, mailto:, xmpp:), a mention, link syntax and raw HTML.
LINKS = ["www.example.com", "see www.example.com/path?q=1 now", "http://example.com", "https://www.example.com/x",
         "ftp://files.example.com", "user@example.com", "mailto:user@example.com", "xmpp:user@example.com",
         "@octocat", "[click](https://example.com)", "<https://example.com>", "<a href=//example.com>x</a>",
         "![i](https://example.com/i.png)", "[r]: https://example.com", "&lt;b&gt;", "www.a.b.c.d.example.com."]


def _deck_with_names(tmp_path: Path, deck_name: str, card_name: str, file_name: str) -> Path:
    text = (ROOT / "decklists" / "default.toml").read_text(encoding="utf-8")
    text = re.sub(r'^name = ".*"$', lambda _: f"name = {json.dumps(deck_name)}", text, count=1, flags=re.M)
    text = text.replace('name = "Soma"\nlevel = 1', f'name = {json.dumps(card_name)}\nlevel = 1', 1)  # unknown
    deck = tmp_path / file_name
    deck.write_text(text, encoding="utf-8")
    return deck


@pytest.mark.parametrize("name", LINKS)
def test_no_name_becomes_a_link_or_html_when_github_renders_the_report(tmp_path: Path, name: str) -> None:
    """Deck name, unknown card name and file name: plain text in GitHub's rendering, reading as given."""
    deck = _deck_with_names(tmp_path, name, name, name.replace("/", "%") + ".toml")
    markdown = render("markdown", validate_paths([deck]))
    parsed = parse(markdown)
    assert parsed.links == [] and "<a" not in rendered(markdown)  # no link, of any kind
    assert set(parsed.tags) <= {"h2", "h3", "h4", "p", "table", "thead", "tbody", "tr", "th", "td", "ul", "li",
                                "strong", "code"}  # nothing but the report's own markup
    header, row = parsed.rows
    assert row[4] == name and row[0] == str(deck)  # the visible text is the name, as given
    unknown = [i for i in parsed.items if "unknown-card" in i]
    assert unknown and f"[{name}]" in unknown[0]


def test_the_escaping_renders_every_ascii_character_as_itself() -> None:
    """`markdown_text` of each printable ASCII character, alone, between letters and repeated,
    renders as that text where the report puts text: a table cell, a list item, a heading."""
    for c in map(chr, range(0x20, 0x7F)):
        for text in (c, f"a{c}b", f"{c}{c}{c}", f"deck {c}", f"{c} deck"):
            cell = f"| x |\n| --- |\n| {markdown_text(text)} |\n"
            assert parse(cell).rows[1] == [text.strip()] and "<a" not in rendered(cell), text
            item = f"- note: {markdown_text(text)}\n"
            assert parse(item).items == [f"note: {text}".strip()] and "<a" not in rendered(item), text
            heading = f"#### {markdown_text(text)}\n"
            assert shown(heading).strip() == text.strip() and rendered(heading).startswith("<h4>"), text
