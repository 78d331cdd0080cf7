"""`db check FOLDER` reports every file's problems even when one file cannot be read."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from sengoku.db_check import check_card_db
from sengoku.paths import data_dir


def broken_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "db"
    shutil.copytree(data_dir("card_db") / "sengoku", folder)
    (folder / "board.json").write_text('{"rows": [\n', encoding="utf-8")  # not JSON
    data = json.loads((folder / "cards.json").read_text(encoding="utf-8"))
    data["cards"][0]["weapon"] = "sword"
    (folder / "cards.json").write_text(json.dumps(data, indent=1), encoding="utf-8")
    return folder


def test_unreadable_board_does_not_hide_the_cards_problems(tmp_path: Path) -> None:
    folder = broken_folder(tmp_path)
    report = check_card_db(folder)
    assert report.unreadable == [str(folder / "board.json")]
    by_file = {(Path(p.path).name, p.rule) for p in report.problems}
    assert ("board.json", "unreadable") in by_file and ("cards.json", "schema") in by_file
    card = next(p for p in report.problems if p.path.endswith("cards.json"))
    assert card.card_id == json.loads((folder / "cards.json").read_text())["cards"][0]["id"]


def test_cli_lists_both_and_exits_2(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    folder = broken_folder(tmp_path)
    code, out, err = cli("db", "check", str(folder))
    assert code == 2
    assert "'sword' is not one of" in out and "board.json:2" in out and "not valid JSON" in out
    assert "Traceback" not in out + err
