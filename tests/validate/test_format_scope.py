"""An explicit --format applies to the decks of its own game; the other games' decks are left alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from sengoku.errors import DataError
from sengoku.validate.api import validate_paths

ROOT = Path(__file__).resolve().parents[2]
SENJUTSU = ROOT / "decklists" / "senjutsu" / "valid" / "ronin-forty.toml"


def test_format_of_one_game_is_not_applied_to_another_games_deck() -> None:
    run = validate_paths([ROOT / "decklists" / "default.toml", SENJUTSU],
                         format="sample-championship", as_of="2026-03-01")
    sengoku, senjutsu = run.results
    # The list in force on 2026-03-01 restricts Kagetora Lv4, of which the default deck has 2.
    assert sengoku.format == "sample-championship"
    assert "restricted" in {v.rule for v in sengoku.violations}
    assert senjutsu.valid and senjutsu.format is None
    assert "another game" in senjutsu.info["format"]
    assert not [v for v in senjutsu.violations if v.rule in {"banned", "restricted", "not-legal", "unknown-format"}]


def test_a_format_no_game_has_is_still_a_usage_error() -> None:
    with pytest.raises(DataError, match="unknown format"):
        validate_paths([SENJUTSU], format="no-such-format")


def test_db_of_another_game_is_said(tmp_path) -> None:  # type: ignore[no-untyped-def]
    run = validate_paths([SENJUTSU], db=ROOT / "card_db" / "sengoku")
    (result,) = run.results
    assert result.valid
    assert result.info["card_db"] == ("--db is a sengoku-yugi card database; this senjutsu deck was "
                                      "checked against the bundled senjutsu cards")
