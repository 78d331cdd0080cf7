"""`validate --html FILE`: a printable registration sheet per deck, read back with html.parser."""

from __future__ import annotations

import json
import os
import re
import stat
from html.parser import HTMLParser
from pathlib import Path

import pytest

from sengoku.display import printable
from sengoku.validate import validate_paths
from sengoku.validate.reporters import render as report
from sengoku.validate.reporters.registration import render

ROOT = Path(__file__).resolve().parents[2]
FILES = [ROOT / "decklists" / "default.toml", ROOT / "decklists" / "ultimate.toml",
         ROOT / "decklists" / "invalid" / "copy-limit.toml", ROOT / "decklists" / "invalid" / "unknown-card.toml"]


class Sheets(HTMLParser):
    """Read the sheets back: per <article>, its title, facts (dt -> dd), tables (rows of cells), findings."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.sheets: list[dict] = []
        self.tags: list[tuple[str, dict]] = []
        self.style = ""
        self._stack: list[tuple[str, list[str]]] = []  # open elements whose text is collected
        self._dt = ""

    def handle_starttag(self, tag, attrs) -> None:
        attrs = dict(attrs)
        self.tags.append((tag, attrs))
        if tag == "article":
            self.sheets.append({"title": "", "facts": {}, "tables": [], "headers": [], "findings": [],
                                "signatures": []})
        sheet = self.sheets[-1] if self.sheets else None
        if tag == "table" and sheet is not None:
            sheet["tables"].append([])
        elif tag == "tr" and sheet is not None:
            sheet["tables"][-1].append([])
        elif tag == "th" and sheet is not None:
            sheet["headers"].append(attrs.get("scope"))
        if tag in ("h1", "dt", "dd", "td", "th", "li", "span", "style"):
            self._stack.append((tag, []))

    def handle_endtag(self, tag) -> None:
        if not self._stack or self._stack[-1][0] != tag:
            return
        value = "".join(self._stack.pop()[1])
        sheet = self.sheets[-1] if self.sheets else None
        if tag == "style":
            self.style = value
        elif tag == "h1":
            sheet["title"] = value
        elif tag == "dt":
            self._dt = value
        elif tag == "dd":
            sheet["facts"][self._dt] = value
        elif tag in ("td", "th"):
            sheet["tables"][-1][-1].append(value)
        elif tag == "li":
            sheet["findings"].append(value)
        elif tag == "span" and not self._stack:  # the labels under the signature lines
            sheet["signatures"].append(value)

    def handle_data(self, data) -> None:
        for _, buffer in self._stack:
            buffer.append(data)


def parse(page: str) -> Sheets:
    parser = Sheets()
    parser.feed(page)
    parser.close()
    return parser


@pytest.fixture(scope="module")
def run():
    return validate_paths(FILES)


def test_one_sheet_per_deck_says_what_the_json_report_says(run) -> None:
    data = json.loads(report("json", run))
    sheets = parse(render(run)).sheets
    assert len(sheets) == len(data["results"]) == 4
    for sheet, result in zip(sheets, data["results"]):
        assert sheet["title"] == result["deck_name"]
        assert sheet["facts"]["File"] == result["path"]
        assert sheet["facts"]["Verdict"].split(" (")[0] == ("✔ VALID" if result["valid"] else "✘ INVALID")
        assert sheet["facts"]["Deck hash"] == (result["deck_hash"] or "none: the deck's cards are not all known")
        assert data["card_db"]["hash"] in sheet["facts"]["Card database"]
        # the cards of each section: count and id, as the report's `sections`, with a total row
        shown = {}
        for table in sheet["tables"]:
            header, *rows, total = table
            assert header == ["Count", "Card", "Id"]
            counts = {row[2]: int(row[0]) for row in rows}
            assert int(total[0]) == sum(counts.values())
            shown[len(shown)] = counts
        assert list(shown.values()) == list(result["sections"].values())
        assert set(sheet["headers"]) == {"col"}  # every header cell says what it heads
        assert len(sheet["findings"]) == len(result["violations"]) + sum(isinstance(v, str) for v in
                                                                          result.get("info", {}).values())
        assert {"Player's name", "Player's signature and date"} <= set(sheet["signatures"])


def test_cards_are_named_with_level_and_epithet(run) -> None:
    first = parse(render(run)).sheets[0]["tables"][0]
    assert ["3", "Soma (Level 1, “Wandering Blade”)", "SY1-001"] in first


def test_the_page_is_self_contained_and_prints_one_deck_a_page(run) -> None:
    page = render(run)
    parsed = parse(page)
    tags = {t for t, _ in parsed.tags}
    assert not tags & {"script", "link", "img", "iframe", "object", "embed"}
    assert not [a for _, attrs in parsed.tags for a in attrs if a in ("src", "href") or a.startswith("on")]
    assert "url(" not in parsed.style and "@import" not in parsed.style and "http" not in page
    assert re.search(r"@media print\s*{[^@]*break-after: page", parsed.style)
    assert page.startswith("<!DOCTYPE html>") and '<html lang="en">' in page and '<meta charset="utf-8">' in page
    body = re.search(r"body \{[^}]*font-size: (\d+)pt", parsed.style)
    assert body and int(body.group(1)) >= 11  # readable on screen and on paper


def test_strangers_text_is_shown_not_run(tmp_path: Path) -> None:
    hostile = '<script>alert(1)</script> & "quoted" \u202e\x1b[2J'
    text = (ROOT / "decklists" / "default.toml").read_text(encoding="utf-8")
    text = re.sub(r'^name = ".*"$', lambda _: f"name = {json.dumps(hostile)}", text, count=1, flags=re.M)
    deck = tmp_path / "<b>deck<\\b>.toml"
    deck.write_text(text, encoding="utf-8")
    page = render(validate_paths([deck]))
    parsed = parse(page)
    assert parsed.sheets[0]["title"] == printable(hostile)
    assert parsed.sheets[0]["facts"]["File"] == str(deck)
    assert "script" not in {t for t, _ in parsed.tags} and "b" not in {t for t, _ in parsed.tags}
    assert "\x1b" not in page and "\u202e" not in page


def test_the_cli_writes_it_through_the_one_write_path(cli, tmp_path: Path) -> None:
    out = tmp_path / "sheets.html"
    old = os.umask(0o027)
    try:
        code, stdout, err = cli("validate", str(FILES[0]), str(FILES[2]), "--html", str(out))
    finally:
        os.umask(old)
    assert code == 1 and "registration sheets written to" in err
    assert [s["title"] for s in parse(out.read_text(encoding="utf-8")).sheets] == ["Sample Standard: Four Banners",
                                                                                 "Too many copies"]
    assert stat.S_IMODE(out.stat().st_mode) == 0o666 & ~0o027
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary file left
    # an existing file is kept unless --force, and refused before any decklist is read
    before = out.read_bytes()
    code, stdout, err = cli("validate", str(tmp_path / "missing.toml"), "--html", str(out))
    assert code == 2 and "already exists; pass --force" in err and out.read_bytes() == before
    code, stdout, err = cli("validate", str(FILES[0]), "--html", str(out), "--force")
    assert code == 0 and len(parse(out.read_text(encoding="utf-8")).sheets) == 1


def test_the_cli_never_replaces_what_is_not_a_regular_file(cli, tmp_path: Path) -> None:
    folder = tmp_path / "a-folder"
    folder.mkdir()
    fifo = tmp_path / "a-fifo"
    os.mkfifo(fifo)
    for target in (folder, fifo):
        code, stdout, err = cli("validate", str(FILES[0]), "--html", str(target), "--force")
        assert code == 2 and "not a regular file" in err and stdout == ""
    assert folder.is_dir() and stat.S_ISFIFO(fifo.stat().st_mode)
