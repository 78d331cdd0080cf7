"""A card database nested absurdly deep is unusable input (exit 2 with the file), never a RecursionError."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from sengoku.paths import data_dir

DEEP = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize("args", [["db", "check"], ["cards", "--db"], ["goldfish", "--runs", "5", "--db"],
                                  ["import", "LIST", "--db"], ["fmt", "DECK", "--db"]])
def test_deeply_nested_cards_file(cli, tmp_path: Path, args: list[str]) -> None:
    deep = tmp_path / "cards.json"
    deep.write_text(DEEP, encoding="utf-8")
    (tmp_path / "list.txt").write_text("3 Soma Lv1\n", encoding="utf-8")
    shutil.copy(data_dir("decklists") / "default.toml", tmp_path / "deck.toml")
    args = [str(tmp_path / "list.txt") if a == "LIST" else str(tmp_path / "deck.toml") if a == "DECK" else a
            for a in args]
    code, out, err = cli(*args, str(deep))
    assert code == 2
    assert f"{deep}: not valid JSON: nested too deeply" in err


def test_deeply_nested_board_in_a_db_folder(cli, tmp_path: Path) -> None:
    shutil.copy(data_dir("card_db") / "sengoku" / "cards.json", tmp_path / "cards.json")
    (tmp_path / "board.json").write_text(DEEP, encoding="utf-8")
    code, out, err = cli("db", "check", str(tmp_path))
    assert code == 2
    assert "board.json" in out and "not valid JSON: nested too deeply" in out  # listed with the other files
