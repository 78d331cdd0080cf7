"""Error messages of options that are not files name the option, never a placeholder path."""

from __future__ import annotations

import pytest

from sengoku.errors import DataError


def test_data_error_without_a_path_is_just_its_message() -> None:
    assert str(DataError(None, "unknown format 'nope'")) == "unknown format 'nope'"
    assert str(DataError("deck.toml", "bad", line=3, column=2)) == "deck.toml:3:2: bad"


@pytest.mark.parametrize("args, says", [
    (["validate", "decklists/default.toml", "--format", "nope"], "unknown format 'nope'"),
    (["cards", "--game", "nope"], "unknown game 'nope'"),
    (["formats", "--as-of", "garbage"], "--as-of"),
    (["import", "README.md", "--mode", "weird"], "--mode must be one of"),
])
def test_option_errors_have_no_placeholder_path(cli, args: list[str], says: str) -> None:
    from sengoku.paths import data_dir

    args = [str(data_dir("decklists") / "default.toml") if a == "decklists/default.toml" else a for a in args]
    code, out, err = cli(*args)
    assert code == 2
    assert says in err
    assert "<input>" not in err
    assert out == ""
