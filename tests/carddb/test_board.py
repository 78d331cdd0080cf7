"""Board geometry (SPEC B1): the bundled layout worked by hand, other layouts, broken boards."""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path

import pytest

from sengoku.carddb.board import BoardError, check_board_file, load_board
from sengoku.paths import data_dir

HERE = Path(__file__).parent / "boards"
INVALID = sorted((HERE / "invalid").glob("*.json"))
EXPECTED = tomllib.loads((HERE / "invalid" / "expected.toml").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def board():
    return load_board(data_dir("card_db") / "sengoku")


def test_bundled_layout(board) -> None:
    # The bundled file: 5 columns, Backline (row 0) behind Frontline (row 1), Stronghold mid-Backline.
    assert (board.columns, board.rows) == (5, ("backline", "frontline"))
    assert board.stronghold == (0, 2)
    assert set(board.perimeter) == {(0, 1), (0, 3), (1, 1), (1, 2), (1, 3)}
    assert board.enemy_stronghold == (3, 2)  # mirrored across the centre line
    assert board.invasion_zone == {(2, c) for c in range(5)}  # the opponent's Frontline
    assert len(board.own_spaces) == 9  # 10 spaces, one of them the Stronghold
    assert board.assumptions and all(isinstance(a, str) for a in board.assumptions)


def test_lines(board) -> None:
    assert board.line((0, 0)) == "backline"
    assert board.is_frontline((1, 4))
    assert board.line((2, 3)) == "invasion"


def test_neighbours_are_orthogonal_and_avoid_the_stronghold(board) -> None:
    # M4: one step up/down/left/right; the Stronghold (0, 2) is never entered.
    assert set(board.neighbours((0, 1))) == {(0, 0), (1, 1)}
    assert set(board.neighbours((1, 2))) == {(1, 1), (1, 3), (2, 2)}
    assert set(board.neighbours((0, 0))) == {(0, 1), (1, 0)}
    # The Invasion Zone is the last row an ally may enter: nothing beyond it.
    assert set(board.neighbours((2, 0))) == {(1, 0), (2, 1)}
    assert board.neighbours((3, 0)) == ()


def test_attack_range_common_and_corners(board) -> None:
    # Common range: 1 and 2 straight ahead; corners add left/right of those.
    assert set(board.attack_range((1, 2))) == {(2, 2), (3, 2)}
    assert set(board.attack_range((1, 2), ["near_left", "far_right"])) == {(2, 2), (3, 2), (2, 1), (3, 3)}
    # Off-board corners are dropped.
    assert set(board.attack_range((1, 0), ["near_left", "far_left"])) == {(2, 0), (3, 0)}
    # A Backline ally's range sits one row further back: it never reaches the enemy Backline (row 3).
    assert all(row <= 2 for row, _ in board.attack_range((0, 1), ["near_left", "near_right", "far_left", "far_right"]))


def test_who_reaches_the_enemy_stronghold(board) -> None:
    assert board.reaches_enemy_stronghold((1, 2))  # Perimeter space in front of the Stronghold (K4)
    assert not board.reaches_enemy_stronghold((1, 1))
    assert board.reaches_enemy_stronghold((1, 1), ["far_right"])
    assert board.reaches_enemy_stronghold((2, 3), ["near_left"])  # from the Invasion Zone
    assert not board.reaches_enemy_stronghold((0, 1), ["near_left", "near_right", "far_left", "far_right"])


def test_a_wider_board_from_its_own_folder(tmp_path) -> None:
    shutil.copy(HERE / "valid" / "wide_three_rows.json", tmp_path / "board.json")
    board = load_board(tmp_path)
    assert (board.columns, len(board.rows)) == (7, 3)
    assert board.enemy_stronghold == (5, 3)
    assert board.invasion_zone == {(r, c) for r in (3, 4) for c in range(7)}
    assert board.reaches_enemy_stronghold((3, 3))


def test_a_folder_without_a_board_uses_the_bundled_one(tmp_path) -> None:
    (tmp_path / "cards.json").write_text("{}")
    assert load_board(tmp_path).path == str(data_dir("card_db") / "sengoku" / "board.json")
    assert load_board(tmp_path / "cards.json").columns == 5


def test_every_invalid_board_has_expectations() -> None:
    assert {p.stem for p in INVALID} == set(EXPECTED)


@pytest.mark.parametrize("path", INVALID, ids=lambda p: p.stem)
def test_invalid_board(path: Path, tmp_path) -> None:
    problems = check_board_file(path)
    got = sorted((p.rule, p.json_path, p.severity) for p in problems)
    want = sorted((e["code"], e["json_path"], e["severity"]) for e in EXPECTED[path.stem])
    assert got == want
    for e, p in zip(sorted(EXPECTED[path.stem], key=lambda e: e["json_path"]), sorted(problems, key=lambda p: p.json_path)):
        assert e["message"] in p.message
    shutil.copy(path, tmp_path / "board.json")
    if any(e["severity"] == "error" for e in EXPECTED[path.stem]):
        with pytest.raises(BoardError, match="board file has"):
            load_board(tmp_path)
    else:
        load_board(tmp_path)  # warnings do not stop loading


def test_valid_boards_pass() -> None:
    for path in sorted((HERE / "valid").glob("*.json")):
        assert check_board_file(path) == [], path
        assert json.loads(path.read_text())["game"] == "sengoku-yugi"
