"""Every string a report shows is bounded: the card database and the decklist refuse absurd ones.

An 8 MB epithet made the goldfish text report run for minutes (wrapping is quadratic in the
length of a word). The card databases' schemas give every string a `maxLength` (names 120,
epithets 200, ids 100, texts 4000 characters), the decklist reader bounds the strings a deck
names (card names, ids, epithets, the deck's name and format), and a message quotes a long
string only by its start and its length.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from sengoku.decklist.read import parse_decklist
from sengoku.paths import data_dir, schema_path

SCHEMAS = sorted(p.name for p in schema_path("x").parent.glob("*.schema.json"))
BIG = 8_000_000


def _fixed_length(pattern: Any) -> bool:
    """Tell whether a pattern is anchored and repeats nothing without a bound (`^[0-9]{4}-[0-9]{2}$`)."""
    return (isinstance(pattern, str) and pattern.startswith("^") and pattern.endswith("$")
            and not re.search(r"[*+]|\{\d*,\}", pattern))


def _unbounded(node: Any, where: str = "$") -> list[str]:
    """Return where a schema allows a string of any length (no maxLength, no fixed-length pattern)."""
    found = []
    if isinstance(node, dict):
        kind = node.get("type")
        if ((kind == "string" or (isinstance(kind, list) and "string" in kind)) and "maxLength" not in node
                and not _fixed_length(node.get("pattern"))):
            found.append(where)
        for key, value in node.items():
            found += _unbounded(value, f"{where}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found += _unbounded(value, f"{where}[{i}]")
    return found


@pytest.mark.parametrize("name", SCHEMAS)
def test_every_string_of_every_data_schema_has_a_limit(name: str) -> None:
    assert _unbounded(json.loads(schema_path(name).read_text(encoding="utf-8"))) == []


def test_the_walk_finds_an_unbounded_string() -> None:
    assert _unbounded({"properties": {"a": {"type": "string"}, "b": {"type": "string", "maxLength": 3},
                                      "c": {"enum": ["x"]}, "d": {"type": "string", "pattern": "^[0-9]{4}$"},
                                      "e": {"type": "string", "pattern": "^[a-z]+$"}}}) == ["$/properties/a", "$/properties/e"]


@pytest.mark.parametrize("game", sorted(p.name for p in data_dir("card_db").iterdir() if p.is_dir()))
def test_the_bundled_databases_are_within_the_limits(cli, game: str) -> None:
    code, out, err = cli("db", "check", str(data_dir("card_db") / game))
    assert code == 0, out + err


@pytest.fixture
def huge_epithet(tmp_path: Path) -> Path:
    data = json.loads((data_dir("card_db") / "sengoku" / "cards.json").read_text(encoding="utf-8"))
    for card in data["cards"]:
        if card.get("level") == 4:  # a Commander candidate of the default deck
            card["epithet"] = "x" * BIG
            break
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize("command", [["goldfish", "--runs", "20"], ["validate"], ["db", "check"]])
def test_an_8_mb_epithet_is_refused_quickly_and_quoted_short(huge_epithet: Path, command: list[str]) -> None:
    args = [*command, str(huge_epithet)] if command[0] == "db" else \
        [command[0], str(data_dir("decklists") / "default.toml"), *command[1:], "--db", str(huge_epithet)]
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "sengoku", *args], capture_output=True, text=True, timeout=120)
    took = time.monotonic() - started
    assert done.returncode in (1, 2), done.stderr[:2000]
    said = done.stdout + done.stderr
    assert "too long: 8,000,000 characters, at most 200" in said and ".epithet" in said
    assert len(said) < 5000 and "Traceback" not in said
    assert took < 60  # minutes before: a report wrapped the whole epithet


@pytest.mark.parametrize(("toml", "line", "said"), [
    ('[[main]]\nname = "{x}"\nlevel = 1\ncount = 3\n', 2, "`name` is too long: 1,000 characters, at most 120"),
    ('[[main]]\nname = "Soma"\nepithet = "{x}"\ncount = 3\n', 3, "`epithet` is too long: 1,000 characters, at most 200"),
    ('[[main]]\nid = "{x}"\ncount = 3\n', 2, "`id` is too long: 1,000 characters, at most 100"),
    ('name = "{x}"\n[[main]]\nname = "Soma"\nlevel = 1\ncount = 3\n', 1, "`name` is too long: 1,000 characters, at most 200"),
    ('format = "{x}"\n[[main]]\nname = "Soma"\nlevel = 1\ncount = 3\n', 1, "`format` is too long: 1,000 characters, at most 100"),
    ('{x} = 1\n[[main]]\nname = "Soma"\nlevel = 1\ncount = 3\n', 1, "unknown key `xxxxxxxx"),
])
def test_a_decklist_string_past_its_limit_is_a_syntax_error_at_its_line(toml: str, line: int, said: str) -> None:
    _, problems = parse_decklist(toml.replace("{x}", "x" * 1000), "deck.toml")
    assert [(p.rule, p.line) for p in problems] == [("syntax", line)], problems
    assert said in problems[0].message and len(problems[0].message) < 400


def test_strings_at_the_limits_are_accepted() -> None:
    toml = (f'name = "{"D" * 200}"\n[[main]]\nname = "{"n" * 120}"\nepithet = "{"e" * 200}"\ncount = 1\n'
            f'[[main]]\nid = "{"i" * 100}"\ncount = 1\n')
    deck, problems = parse_decklist(toml, "deck.toml")
    assert problems == [] and len(deck.entries) == 2


def test_import_quotes_a_long_unknown_name_by_its_start(cli, tmp_path: Path) -> None:
    listing = tmp_path / "list.txt"
    listing.write_text("3 " + "x" * 500_000 + " Lv1\n", encoding="utf-8")
    code, out, err = cli("import", str(listing))
    assert code == 1 and out == ""
    assert "no card is named 'xxxx" in err and "(500,000 characters)" in err and len(err) < 1000
