"""Every report of `validate` keeps its bytes now that it is streamed file by file.

The expected files in `report_bytes/` were written by sengoku 0.3.0, when every report was
built whole in memory before it was written. Only sengoku's own version is left out of the
comparison (SARIF's driver, the registration sheets' footer). A deliberate change to a report
rewrites them: `SENGOKU_WRITE_EXPECTED=1 python -m pytest tests/validate/test_report_bytes.py`.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from sengoku.cli.streams import ascii_json, ascii_xml

ROOT = Path(__file__).resolve().parents[2]
EXPECTED = Path(__file__).parent / "report_bytes"
# every game's decklists, broken ones of every kind, and a format file (skipped: not a decklist)
PATHS = ["decklists", "tests/decklists", "card_db/sengoku/formats/sample-championship.toml"]
CASES = [("text", ""), ("json", ""), ("github", ""), ("junit", ""), ("sarif", ""), ("markdown", ""),
         ("junit", "--strict"), ("markdown", "--strict")]
SHEETS = ["decklists/invalid/syntax.toml", "decklists/invalid/copy-limit.toml", "decklists/ultimate.toml",
          "decklists/champions/valid/four-players.toml", "decklists/senjutsu/valid/wood-only.toml"]
_VERSION = [(re.compile(r'("name": "sengoku",\n *"version": ")[^"]*(")'), r"\1VERSION\2"),
            (re.compile(r"(Checked with sengoku )\S+( \()"), r"\1VERSION\2")]


def _unversioned(text: str) -> str:
    for pattern, repl in _VERSION:
        text = pattern.sub(repl, text)
    return text


def _check(name: str, got: str) -> None:
    path = EXPECTED / name
    if os.environ.get("SENGOKU_WRITE_EXPECTED"):
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(_unversioned(got).encode("utf-8"))
    assert _unversioned(got) == path.read_bytes().decode("utf-8")


@pytest.mark.parametrize(("report", "strict"), CASES, ids=[f"{r}{s}" for r, s in CASES])
def test_report_bytes_unchanged(cli, monkeypatch, report: str, strict: str) -> None:
    monkeypatch.chdir(ROOT)
    code, out, err = cli("validate", *PATHS, "-o", report, *([strict] if strict else []))
    _check(f"{report}{strict}.out", f"exit {code}\n{err}---\n{out}")


def test_registration_sheets_bytes_unchanged(cli, monkeypatch, tmp_path: Path) -> None:
    monkeypatch.chdir(ROOT)
    sheets = tmp_path / "sheets.html"
    code, _, _ = cli("validate", *SHEETS, "--html", str(sheets))
    assert code == 1
    _check("sheets.html", sheets.read_text(encoding="utf-8"))


@pytest.mark.parametrize(("report", "escape"), [("json", ascii_json), ("sarif", ascii_json), ("junit", ascii_xml)])
def test_a_document_on_an_ascii_stdout_is_the_same_document_escaped(cli, monkeypatch, tmp_path: Path, report: str,
                                                                   escape) -> None:
    monkeypatch.chdir(ROOT)
    named = tmp_path / "戦国.toml"
    banners = (ROOT / "decklists/default.toml").read_text(encoding="utf-8")
    named.write_text(banners.replace("Four Banners", "Tōkaidō 戦国"),
                     encoding="utf-8")
    paths = [*PATHS, str(named)]
    expected = cli("validate", *paths, "-o", report)[1]
    assert not expected.isascii()  # the escaping is exercised
    monkeypatch.setattr("sengoku.cli.streams._is_utf", lambda stream: False)
    monkeypatch.setattr("sengoku.cli.streams._can_encode", lambda stream, text: text.isascii())
    code, out, _ = cli("validate", *paths, "-o", report)
    assert code == 1 and out == escape(expected)
