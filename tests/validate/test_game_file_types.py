"""A game.toml with a wrongly typed `max_count` or `keys` is a reported problem, never a traceback."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from sengoku.paths import data_dir


@pytest.mark.parametrize("line, where", [
    ('max_count = "x"', "max_count"),
    ("max_count = [1]", "max_count"),
    ("max_count = true", "max_count"),
    ("keys = [1]", "keys"),
    ("[keys.mode]\ntype = [1]", "keys.mode.type"),
    ("[keys.mode]\ntype = \"string\"\nvalues = 3", "keys.mode.values"),
])
def test_wrong_types_in_game_file(cli, tmp_path: Path, line: str, where: str) -> None:
    db = tmp_path / "db"
    db.mkdir()
    shutil.copy(data_dir("card_db") / "sengoku" / "cards.json", db / "cards.json")
    (db / "game.toml").write_text(f'game = "sengoku-yugi"\nsections = ["main", "nameless", "familiars"]\n{line}\n',
                                  encoding="utf-8")
    code, out, err = cli("db", "check", str(db))
    assert code == 1, err
    assert "Traceback" not in err + out
    assert f"{db / 'game.toml'}" in out and where in out
    code, out, err = cli("validate", str(data_dir("decklists") / "default.toml"), "--db", str(db))
    assert code == 2
    assert "Traceback" not in err and where in err
