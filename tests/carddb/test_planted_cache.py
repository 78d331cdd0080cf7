"""A planted or damaged pass-cache entry is a miss, never a pass.

An entry's file name is a hash of public data, so anyone can put a file there. Only an entry
whose content is what sengoku writes for exactly these bytes, this schema and this version
counts; an empty file, a wrong digest, a truncated entry, another content's entry, a folder or
a FIFO in its place each leave the malformed database checked and reported as such.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest

from sengoku.carddb.load import CardDBError, load_card_db
from sengoku.pass_cache import PassKey, pass_key, passed_before, remember_pass
from sengoku.paths import data_dir, schema_path

BUNDLED = data_dir("card_db") / "sengoku"
SCHEMA = schema_path("sengoku-card-db.schema.json")


@pytest.fixture
def malformed(tmp_path: Path) -> tuple[Path, PassKey]:
    """A card database folder whose first card has a level the schema (and the model) refuse."""
    folder = tmp_path / "db"
    folder.mkdir()
    shutil.copy(BUNDLED / "board.json", folder / "board.json")
    data = json.loads((BUNDLED / "cards.json").read_text(encoding="utf-8"))
    data["cards"][0]["level"] = "high"
    del data["cards"][1]["name"]
    (folder / "cards.json").write_text(json.dumps(data, indent=1), encoding="utf-8")
    return folder, pass_key((folder / "cards.json").read_bytes(), SCHEMA)


def _other_key(key: PassKey) -> PassKey:
    return PassKey(("0" if key.data_sha256[0] != "0" else "1") + key.data_sha256[1:], key.schema_sha256)


def _plant(cache: Path, key: PassKey, how: str) -> None:
    folder = cache / "checked"
    folder.mkdir(parents=True, exist_ok=True)
    entry = folder / key.name
    whole = key.entry()
    if how == "empty file":
        entry.write_bytes(b"")
    elif how == "wrong digest":
        entry.write_bytes(whole.replace(key.data_sha256.encode(), _other_key(key).data_sha256.encode()))
    elif how == "wrong digest, checksum redone":
        forged = _other_key(key).entry()  # a whole entry, but for other bytes, under this name
        entry.write_bytes(forged)
    elif how == "truncated":
        entry.write_bytes(whole[: len(whole) // 2])
    elif how == "one byte more":
        entry.write_bytes(whole + b"\n")
    elif how == "checksum damaged":
        entry.write_bytes(whole[:-3] + (b"0" if whole[-3:-2] != b"0" else b"1") + whole[-2:])
    elif how == "other content's entry":
        remember_pass(_other_key(key))
        os.rename(folder / _other_key(key).name, entry)
    elif how == "folder":
        entry.mkdir()
    elif how == "fifo":
        os.mkfifo(entry)
    else:  # pragma: no cover
        raise AssertionError(how)


PLANTED = ["empty file", "wrong digest", "wrong digest, checksum redone", "truncated", "one byte more",
           "checksum damaged", "other content's entry", "folder", "fifo"]


@pytest.mark.parametrize("how", PLANTED)
def test_a_planted_entry_is_a_miss(cache: Path, malformed: tuple[Path, PassKey], how: str) -> None:
    _, key = malformed
    _plant(cache, key, how)
    assert not passed_before(key)


def test_an_entry_sengoku_wrote_is_a_pass_and_only_for_its_content(cache: Path) -> None:
    raw = (BUNDLED / "cards.json").read_bytes()
    key = pass_key(raw, SCHEMA)
    assert not passed_before(key)
    remember_pass(key)
    assert passed_before(key)
    assert not passed_before(pass_key(raw + b" ", SCHEMA))
    assert not passed_before(pass_key(raw, schema_path("board.schema.json")))


@pytest.mark.parametrize("how", PLANTED)
def test_a_malformed_database_under_a_planted_entry_is_reported(
        cache: Path, malformed: tuple[Path, PassKey], how: str) -> None:
    folder, key = malformed
    _plant(cache, key, how)
    with pytest.raises(CardDBError) as caught:
        load_card_db(folder)
    message = str(caught.value)
    assert "$.cards[0].level" in message and "'name'" in message
    assert "validation error" not in message and "pydantic" not in message


@pytest.mark.parametrize("how", ["empty file", "truncated", "fifo"])
def test_validate_reports_the_malformed_database_cleanly(
        cli, cache: Path, malformed: tuple[Path, PassKey], how: str) -> None:
    folder, key = malformed
    _plant(cache, key, how)
    deck = data_dir("decklists") / "default.toml"
    for command in (["validate", str(deck), "--db", str(folder)], ["goldfish", str(deck), "--db", str(folder),
                                                                   "--runs", "10"]):
        code, out, err = cli(*command)
        assert code == 2, (command, out, err)
        assert "level" in err and "Traceback" not in err and "validation error" not in err, err
        assert not re.search(r"\{[a-z_]*\}", err), err  # no placeholder left unfilled


def test_what_the_checks_miss_the_model_refuses_in_words(
        cache: Path, malformed: tuple[Path, PassKey], monkeypatch: pytest.MonkeyPatch) -> None:
    """Defence in depth: were the checks skipped or short of the model, its refusal is still a
    problem with a JSON path, never pydantic's raw text with its links."""
    import sengoku.carddb.load as load

    folder, _ = malformed
    monkeypatch.setattr(load, "check_data", lambda *args, **kwargs: [])
    with pytest.raises(CardDBError) as caught:
        load_card_db(folder)
    message = str(caught.value)
    assert "$.cards[0].level" in message and "integer" in message
    assert "validation error" not in message and "errors.pydantic.dev" not in message


@pytest.mark.parametrize("how", ["empty file", "other content's entry", "fifo"])
def test_a_rule_file_under_a_planted_entry_is_still_checked(
        cli, cache: Path, tmp_path: Path, how: str) -> None:
    """A rule message with a placeholder no rule fills: checked, so never shown half-filled."""
    folder = tmp_path / "rules-db"
    shutil.copytree(BUNDLED, folder)
    rules = folder / "game.toml"
    text = rules.read_text(encoding="utf-8")
    rules.write_text(text.replace("it must hold {min} to {max}", "it must hold {min} to {bogus}", 1), encoding="utf-8")
    _plant(cache, pass_key(rules.read_bytes(), schema_path("game-rules.schema.json")), how)
    deck = tmp_path / "small.toml"
    deck.write_text('[[main]]\nname = "Soma"\nlevel = 1\ncount = 3\n', encoding="utf-8")  # breaks the deck-size rule
    code, out, err = cli("validate", str(deck), "--db", str(folder))
    assert code == 2, out + err
    assert "placeholder {bogus} cannot be filled" in err
    assert "to {bogus}" not in out
