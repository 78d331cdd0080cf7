"""A deck's name and a file's path are a stranger's text: the trace shows them, never obeys them.

The text form escapes every hidden character the way goldfish's own report does
(`display.printable`): an ESC, an OSC title sequence, a bidi override or a line separator in a
deck's name reaches the terminal as `\\x1b`, `\\u202e`. The JSON Lines form writes each
character that `str.splitlines` splits on as a `\\u` escape, so a reader splitting lines gets
one event a line.
"""

from __future__ import annotations

import json
import re
import sys
import unicodedata
from pathlib import Path

import pytest

from sengoku.display import HIDDEN
from sengoku.trace import render_jsonl, render_text

ROOT = Path(__file__).resolve().parents[2]
# ESC + an OSC window-title sequence ended by BEL, a right-to-left override, the three separators
# that str.splitlines splits on beyond ASCII, and a colour sequence.
HOSTILE = "x\x1b]0;pwned\x07y\u202ez\u2028a\x85b\u2029c\x1b[31m"
HOSTILE_TOML = "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in HOSTILE)
SHOWN = "x\\x1b]0;pwned\\x07y\\u202ez\\u2028a\\x85b\\u2029c\\x1b[31m"  # as goldfish's report shows it
# Every character Python's str.splitlines splits a line at.
LINE_BREAKS = [chr(c) for c in range(sys.maxunicode + 1) if len(f"a{chr(c)}b".splitlines()) == 2]


def _hostile_deck(folder: Path, file_name: str = "deck.toml") -> Path:
    text = (ROOT / "decklists" / "default.toml").read_text(encoding="utf-8")
    deck = folder / file_name
    deck.write_text(re.sub(r'^name = ".*"$', lambda _: f'name = "{HOSTILE_TOML}"', text, count=1, flags=re.M),
                    encoding="utf-8")
    return deck


def _raw_hidden(text: str) -> list[str]:
    return sorted({c for c in text if c != "\n" and unicodedata.category(c) in HIDDEN})


def test_the_line_breaks_are_the_ones_a_reader_splits_on() -> None:
    assert {"\n", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"} == set(LINE_BREAKS)


def test_the_text_trace_escapes_a_hostile_deck_name_as_goldfishs_report_does(cli, tmp_path: Path) -> None:
    deck = _hostile_deck(tmp_path)
    traced = cli("goldfish", str(deck), "--runs", "5", "--turns", "2", "--trace", "0", "--jobs", "1")
    assert traced.code == 0, traced.err
    assert _raw_hidden(traced.out) == []
    first = traced.out.splitlines()[0]
    assert first.startswith(f"Run 0 of 5 (seed 0): {SHOWN}, going first")
    report = cli("goldfish", str(deck), "--runs", "5", "--turns", "2", "--jobs", "1")
    assert report.code == 0, report.err
    assert report.out.splitlines()[0].startswith(f"Goldfish {SHOWN} — ")  # the same escaping, one function


@pytest.mark.skipif(sys.platform == "win32", reason="a file name with ESC")
def test_the_text_trace_escapes_a_hostile_opponent_path(cli, tmp_path: Path) -> None:
    opponent = _hostile_deck(tmp_path, "opp\x1b[2J\u202e.toml")
    traced = cli("goldfish", "--runs", "5", "--turns", "2", "--trace", "0", "--jobs", "1", "--opponent",
                 str(opponent))
    assert traced.code == 0, traced.err
    assert _raw_hidden(traced.out) == []
    assert "opp\\x1b[2J\\u202e.toml" in traced.out.splitlines()[1]


def test_the_json_lines_give_one_event_a_line_to_a_reader_splitting_as_python_does(cli, tmp_path: Path) -> None:
    deck = _hostile_deck(tmp_path)
    traced = cli("goldfish", str(deck), "--runs", "5", "--turns", "2", "--trace", "0", "--jobs", "1", "--json")
    assert traced.code == 0, traced.err
    lines = traced.out.splitlines()
    assert len(lines) == traced.out.count("\n")
    events = [json.loads(line) for line in lines]
    assert events[0]["event"] == "trace" and events[0]["deck"] == HOSTILE  # lossless
    assert events[-1]["event"] == "end"
    assert _raw_hidden(traced.out) == []
    assert render_text(events) == cli("goldfish", str(deck), "--runs", "5", "--turns", "2", "--trace", "0",
                                      "--jobs", "1").out


def test_every_line_break_in_any_string_is_escaped_in_the_json_lines() -> None:
    events = [{"event": "trace", "deck": f"a{c}b", "n": i} for i, c in enumerate(LINE_BREAKS)]
    text = render_jsonl(events)
    assert text.splitlines() == text.split("\n")[:-1]
    assert [json.loads(line) for line in text.splitlines()] == events
