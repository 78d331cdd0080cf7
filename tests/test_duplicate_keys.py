"""A key given twice is an error with its line, in every file sengoku loads.

With `"name": "Soma", "name": "Evil"` a reviewer reads Soma and a JSON parser keeps Evil. JSON
parsers accept it silently, so sengoku checks: a card database (`db check`, and every load for
use: validate, goldfish, fmt --db), a board file. TOML refuses it itself (decklists, format and
game rule files); sengoku's message then says "duplicate" and names the key and line.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from sengoku.carddb.board import load_board
from sengoku.carddb.load import load_card_db
from sengoku.errors import DataError
from sengoku.files import duplicate_keys, loads_json, loads_toml
from sengoku.paths import data_dir

BUNDLED = data_dir("card_db") / "sengoku"
DECK = data_dir("decklists") / "default.toml"


@pytest.fixture
def twice(tmp_path: Path) -> tuple[Path, int]:
    """A copy of the bundled database whose first card is named twice: Soma, then Evil. Returns (folder, line)."""
    folder = tmp_path / "db"
    shutil.copytree(BUNDLED, folder)
    text = (folder / "cards.json").read_text(encoding="utf-8")
    at = text.index('"name": "Soma"')
    text = text[:at] + '"name": "Soma", "name": "Evil"' + text[at + len('"name": "Soma"'):]
    (folder / "cards.json").write_text(text, encoding="utf-8")
    return folder, text.count("\n", 0, at) + 1


def test_json_parsers_keep_the_last_value_silently() -> None:
    """Why the check is needed: the standard parser takes Evil without a word."""
    assert json.loads('{"name": "Soma", "name": "Evil"}') == {"name": "Evil"}


def test_loading_the_database_refuses_it_naming_the_line(twice: tuple[Path, int]) -> None:
    folder, line = twice
    with pytest.raises(DataError) as caught:
        load_card_db(folder)
    assert caught.value.line == line
    assert "duplicate key 'name'" in caught.value.message


@pytest.mark.parametrize("command", [
    ["db", "check", "{db}"],
    ["db", "check", "{db}/cards.json"],
    ["validate", str(DECK), "--db", "{db}"],
    ["goldfish", str(DECK), "--db", "{db}", "--runs", "10"],
    ["fmt", "--check", str(DECK), "--db", "{db}"],
])
def test_every_command_reports_it_with_file_and_line(cli, twice: tuple[Path, int], command: list[str]) -> None:
    folder, line = twice
    code, out, err = cli(*[a.replace("{db}", str(folder)) for a in command])
    assert code == 2, out + err
    said = out + err
    assert f"{folder / 'cards.json'}:{line}" in said and "duplicate key 'name'" in said, said
    assert "Traceback" not in said


def test_it_is_refused_at_every_load_never_remembered(twice: tuple[Path, int]) -> None:
    """Only passes are remembered: the second load checks again and refuses again."""
    folder, _ = twice
    for _ in range(2):
        with pytest.raises(DataError, match="duplicate key"):
            load_card_db(folder)


def test_a_board_file_with_a_key_twice(tmp_path: Path, cli) -> None:
    folder = tmp_path / "db"
    shutil.copytree(BUNDLED, folder)
    text = (folder / "board.json").read_text(encoding="utf-8")
    text = text.replace('  "game": "sengoku-yugi",\n', '  "game": "sengoku-yugi",\n  "game": "other",\n', 1)
    (folder / "board.json").write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as caught:
        load_board(folder)
    assert caught.value.line == 4 and "duplicate key 'game'" in caught.value.message
    code, out, err = cli("db", "check", str(folder))
    assert code == 2 and f"{folder / 'board.json'}:4" in out + err and "duplicate key 'game'" in out + err


def test_every_duplicate_is_found_at_its_own_line_not_in_a_nested_object() -> None:
    text = ('{"name": "a",\n "inner": {"name": "b", "list": [{"name": 1}, {"name": 2}]},\n'
            ' "name": "c",\n "cards": [{"id": 1, "i\\u0064": 2}]}')
    found = [(key, text.count("\n", 0, at) + 1) for key, at, _ in duplicate_keys(text)]
    assert found == [("name", 3), ("id", 4)]
    with pytest.raises(DataError) as caught:
        loads_json(text, "x.json")
    assert (caught.value.line, caught.value.column) == (3, 2)
    assert "first at line 1, column 2" in caught.value.message and "1 more duplicate" in caught.value.message
    # the same keys in different objects, and key-like text inside strings, are not duplicates
    assert loads_json('{"a": {"a": 1}, "b": "\\"a\\": 1, \\"a\\": 2"}', "x.json") == {"a": {"a": 1}, "b": '"a": 1, "a": 2'}


@pytest.mark.parametrize(("toml", "line", "said"), [
    ('name = "Soma"\nname = "Evil"\n', 2, "duplicate key: `name` already has a value"),
    ('[[main]]\nname = "Soma"\nname = "Evil"\ncount = 1\n', 3, "duplicate key: `name` already has a value"),
    ('a.b = 1\na.b = 2\n', 2, "duplicate key: `a.b` already has a value"),
    ('[players]\nx = 1\n[players]\ny = 2\n', 3, "duplicate table: [players] is declared twice"),
    ('main = [{name = "Soma", name = "Evil"}]\n', 1, "duplicate key: `name` is given twice in one inline table"),
])
def test_toml_keys_given_twice_are_named(toml: str, line: int, said: str) -> None:
    with pytest.raises(DataError) as caught:
        loads_toml(toml, "deck.toml")
    assert caught.value.line == line and said in caught.value.message, caught.value.message


def test_a_decklist_with_a_key_twice_is_a_syntax_error_at_its_line(cli, tmp_path: Path) -> None:
    deck = tmp_path / "deck.toml"
    deck.write_text('name = "x"\n\n[[main]]\nname = "Soma"\nlevel = 1\nname = "Evil"\ncount = 3\n', encoding="utf-8")
    code, out, err = cli("validate", str(deck))
    assert code == 1
    assert f"{deck}:6:" in out + err and "duplicate key: `name`" in out + err


def test_a_format_file_with_a_key_twice(cli, tmp_path: Path) -> None:
    folder = tmp_path / "db"
    shutil.copytree(BUNDLED, folder)
    path = folder / "formats" / "sample-championship.toml"
    text = path.read_text(encoding="utf-8")
    text = text.replace('title = "Sample Championship"\n', 'title = "Sample Championship"\ntitle = "Other"\n', 1)
    path.write_text(text, encoding="utf-8")
    line = text.splitlines().index('title = "Other"') + 1
    code, out, err = cli("db", "check", str(folder))
    assert code in (1, 2) and f"{path}:{line}" in out + err and "duplicate key: `title`" in out + err


def test_bytes_that_passed_before_are_parsed_without_the_check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check costs parsing time; bytes remembered as passed (`pass_cache`) passed it already."""
    import sengoku.carddb.load as load

    monkeypatch.setenv("SENGOKU_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("SENGOKU_NO_CACHE", raising=False)
    folder = tmp_path / "db"
    shutil.copytree(BUNDLED, folder)
    asked: list[bool] = []
    real = load.loads_json

    def recorded(text, path, error=DataError, *, unique_keys=True):  # type: ignore[no-untyped-def]
        asked.append(unique_keys)
        return real(text, path, error, unique_keys=unique_keys)

    monkeypatch.setattr(load, "loads_json", recorded)
    load_card_db(folder)
    load_card_db(folder)
    assert asked == [True, False]
