"""A file that passed every check is not checked again until its bytes (or schema, or version) change."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import sengoku.carddb.load as load
from sengoku.carddb.load import CardDBError, load_card_db
from sengoku.paths import data_dir

BUNDLED = data_dir("card_db") / "sengoku" / "cards.json"


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Count the calls of the full check (schema + semantic checks)."""
    calls: list[str] = []
    real = load.check_data

    def counted(path, data, text=None):  # type: ignore[no-untyped-def]
        calls.append(path)
        return real(path, data, text)

    monkeypatch.setattr(load, "check_data", counted)
    return calls


def test_second_load_of_the_same_bytes_skips_the_check(tmp_path: Path, cache: Path, checks: list[str]) -> None:
    copy = tmp_path / "cards.json"
    shutil.copy(BUNDLED, copy)
    first = load_card_db(copy)
    second = load_card_db(copy)
    assert len(checks) == 1
    assert first.cards == second.cards and first.content_hash == second.content_hash
    assert len(list((cache / "checked").iterdir())) == 1


def test_changed_bytes_are_checked_again(tmp_path: Path, cache: Path, checks: list[str]) -> None:
    copy = tmp_path / "cards.json"
    shutil.copy(BUNDLED, copy)
    load_card_db(copy)
    data = json.loads(copy.read_text(encoding="utf-8"))
    data["cards"][0]["level"] = 9  # out of the schema's range
    copy.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(CardDBError, match="level"):
        load_card_db(copy)
    with pytest.raises(CardDBError):  # problems are never remembered
        load_card_db(copy)
    assert len(checks) == 3


def test_no_cache_switch_checks_every_time(tmp_path: Path, cache: Path, checks: list[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SENGOKU_NO_CACHE", "1")
    load_card_db(BUNDLED)
    load_card_db(BUNDLED)
    assert len(checks) == 2
    assert not cache.exists()


def test_unwritable_cache_folder_is_not_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 checks: list[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("SENGOKU_CACHE_DIR", str(blocker))
    assert load_card_db(BUNDLED).meta.sample
    assert load_card_db(BUNDLED).meta.sample
    assert len(checks) == 2


def test_board_is_checked_once_per_content(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import sengoku.carddb.board as board

    calls: list[object] = []
    real = board.check_board_file
    monkeypatch.setattr(board, "check_board_file", lambda path: calls.append(path) or real(path))
    first, second = board.load_board(), board.load_board()
    assert first == second and len(calls) == 1


def test_validator_catalog_shares_the_pass_memory(tmp_path: Path, cache: Path, checks: list[str]) -> None:
    # The validator's catalog used to check cards.json against its schema on every run.
    from sengoku.carddb.catalog import _load_catalog, load_catalog

    copy = tmp_path / "cards.json"
    shutil.copy(BUNDLED, copy)
    load_card_db(copy)
    _load_catalog.cache_clear()
    catalog = load_catalog(copy)
    _load_catalog.cache_clear()
    assert load_catalog(copy).cards == catalog.cards
    assert len(checks) == 1


def test_validator_catalog_reports_a_bad_database_with_lines(tmp_path: Path, cache: Path) -> None:
    from sengoku.carddb.catalog import load_catalog

    data = json.loads(BUNDLED.read_text(encoding="utf-8"))
    data["cards"][1]["level"] = 9
    copy = tmp_path / "cards.json"
    copy.write_text(json.dumps(data, indent=1), encoding="utf-8")
    with pytest.raises(CardDBError) as caught:
        load_catalog(copy)
    text = copy.read_text(encoding="utf-8")
    assert {p.line for p in caught.value.problems} == {load.card_lines(text)[1]}
