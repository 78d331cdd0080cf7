"""A card name holding control characters (newline, ESC) never reaches the report raw."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

DECK = '[[main]]\nname = "So\\nma\\u001b[31mRED"\nlevel = 1\n'


def _deck(tmp_path: Path) -> Path:
    path = tmp_path / "odd.toml"
    path.write_text(DECK, encoding="utf-8")
    return path


def test_text_report_keeps_one_line_per_violation_and_no_escape_codes(cli, tmp_path: Path) -> None:
    path = _deck(tmp_path)
    code, out, err = cli("validate", str(path))
    assert code == 1
    assert "\x1b" not in out
    lines = out.splitlines()
    assert all(line.startswith(str(path)) for line in lines)  # no line split by the name's newline
    unknown = next(line for line in lines if " unknown-card " in line)
    assert unknown.endswith(r"[So\nma\x1b[31mRED]")


def test_junit_is_well_formed_xml(cli, tmp_path: Path) -> None:
    code, out, err = cli("validate", str(_deck(tmp_path)), "-o", "junit")
    assert code == 1
    failure = ET.fromstring(out).find("./testsuite/testcase/failure")
    assert failure is not None and r"So\nma\x1b[31mRED" in failure.text
