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


def test_formats_with_a_missing_db_is_unusable_input(cli, tmp_path, monkeypatch) -> None:
    missing = tmp_path / "no-such-db"
    code, out, err = cli("formats", "--db", str(missing))
    assert (code, out) == (2, "")
    assert f"{missing}: no such card database" in err
    monkeypatch.setenv("SENGOKU_DB", str(missing))
    code, out, err = cli("formats", "--json")
    assert (code, out) == (2, "")
    assert str(missing) in err


def test_formats_of_a_db_without_formats_folder_is_an_empty_list(cli, tmp_path) -> None:
    (tmp_path / "cards.json").write_text("{}", encoding="utf-8")
    code, out, err = cli("formats", "--db", str(tmp_path), "--json")
    assert (code, out.strip()) == (0, "[]")


def test_import_with_an_unusable_db_says_why(cli, tmp_path) -> None:
    listing = tmp_path / "list.txt"
    listing.write_text("3 Soma Lv1\n", encoding="utf-8")
    missing = tmp_path / "nope"
    code, out, err = cli("import", str(listing), "--db", str(missing))
    assert (code, out) == (2, "")
    assert err.strip() == f"error: {missing}: no such card database file"
    broken = tmp_path / "broken.json"
    broken.write_text('{"meta": {},\n  "cards": [,]}', encoding="utf-8")
    code, out, err = cli("import", str(listing), "--db", str(broken))
    assert (code, out) == (2, "")
    assert err.startswith(f"error: {broken}:2:")  # the line of the JSON error
    assert "entries sorted by" not in err  # fmt's own fallback note does not leak into import


def test_sengoku_db_naming_another_games_database_is_a_clear_usage_error(cli, monkeypatch) -> None:
    # $SENGOKU_DB is SENGOKU YUGI's card database; pointed at Senjutsu's, a SENGOKU YUGI deck is not
    # checked against the wrong cards and rules (which would call every card unknown): exit 2.
    from sengoku.paths import data_dir

    monkeypatch.setenv("SENGOKU_DB", str(data_dir("card_db") / "senjutsu"))
    deck = str(data_dir("decklists") / "default.toml")
    code, out, err = cli("validate", deck)
    assert code == 2 and "unknown-card" not in out
    assert "$SENGOKU_DB names a senjutsu card database; sengoku-yugi decks need a sengoku-yugi one" in err
    code, out, err = cli("goldfish", deck, "--runs", "10")
    assert (code, out) == (2, "")
    assert "so $SENGOKU_DB must be a SENGOKU YUGI card database" in err
    # Senjutsu decks are unaffected: they use their own bundled database.
    code, out, err = cli("validate", str(data_dir("decklists") / "senjutsu" / "valid" / "wood-only.toml"))
    assert code == 0, err
