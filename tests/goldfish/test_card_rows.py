"""goldfish reads the card database as its checked plain rows (`load_cards`), not as pydantic models.

Same checks and messages as the models' loader (`load_card_db`), same results whichever form the
database is given in, and a bad database still named by file, line and card, exit 2.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import sengoku
from sengoku.carddb.catalog import Catalog
from sengoku.carddb.load import CardDBError, load_card_db
from sengoku.carddb.playable import load_cards
from sengoku.goldfish.api import goldfish
from sengoku.paths import data_dir, default_card_db

BUNDLED = default_card_db()


@pytest.mark.parametrize("deck", ["default.toml", "ultimate.toml"])
def test_the_same_games_whether_the_database_is_a_path_the_rows_or_the_models(deck: str) -> None:
    path = data_dir("decklists") / deck
    from_path = goldfish(path, None, runs=40, jobs=1, seed=7).to_json()
    from_rows = goldfish(path, load_cards(None), runs=40, jobs=1, seed=7).to_json()
    from_models = goldfish(path, sengoku.load_card_db(), runs=40, jobs=1, seed=7).to_json()
    assert from_path == from_rows == from_models
    assert json.loads(from_path)["card_db"]["sha256"] == sengoku.load_card_db().content_hash


def test_the_rows_are_the_files_cards_and_meta() -> None:
    rows = load_cards(BUNDLED)
    data = json.loads((BUNDLED / "cards.json").read_text(encoding="utf-8"))
    assert isinstance(rows, Catalog) and list(rows.cards.values()) == data["cards"]
    assert (rows.name, rows.version, rows.sample) == (data["meta"]["name"], data["meta"]["version"],
                                                     data["meta"].get("sample", False))


def _broken_copy(tmp_path: Path) -> tuple[Path, str, int]:
    """The bundled database with one card's level out of range: (folder, the card's id, its line)."""
    folder = tmp_path / "db"
    shutil.copytree(BUNDLED, folder)
    data = json.loads((folder / "cards.json").read_text(encoding="utf-8"))
    data["cards"][3]["level"] = 9
    text = json.dumps(data, indent=2, ensure_ascii=False)
    (folder / "cards.json").write_text(text, encoding="utf-8")
    card_id = data["cards"][3]["id"]
    line = text[:text.index(f'"id": "{card_id}"')].count("\n")  # the line of the card's opening brace
    return folder, card_id, line


def test_a_broken_database_is_refused_with_the_models_loaders_message(cli, tmp_path) -> None:
    folder, card_id, line = _broken_copy(tmp_path)
    with pytest.raises(CardDBError) as refused:
        load_card_db(folder)
    message = str(refused.value)
    assert f"cards.json:{line} card {card_id} at $.cards[3].level: 9 is greater than the maximum of 4" in message
    r = cli("goldfish", "--db", str(folder), "--runs", "10")
    assert (r.code, r.out) == (2, "")
    assert message in r.err and "Traceback" not in r.err
    with pytest.raises(CardDBError) as again:
        load_cards(folder)
    assert str(again.value) == message


def test_a_missing_database_is_named_as_given(cli, tmp_path) -> None:
    missing = tmp_path / "nope"
    r = cli("goldfish", "--db", str(missing), "--runs", "10")
    assert (r.code, r.out) == (2, "")
    assert r.err.strip() == f"error: {missing}: no such card database file"


def test_another_games_database_is_refused_as_before(cli) -> None:
    senjutsu = data_dir("card_db") / "senjutsu"
    r = cli("goldfish", "--db", str(senjutsu), "--runs", "10")
    assert (r.code, r.out) == (2, "")
    assert r.err.strip() == (f"error: {senjutsu / 'cards.json'}: a senjutsu card database; the goldfish engine plays "
                           "SENGOKU YUGI decks, so --db must be a SENGOKU YUGI card database")


def test_goldfish_of_a_checked_database_imports_no_pydantic(tmp_path) -> None:
    """Once the card database passed its checks, `goldfish` never imports pydantic and the card models."""
    code = ("import sys; sys.argv = ['sengoku', 'goldfish', '--runs', '20', '--jobs', '1']\n"
            "from sengoku.cli import main\n"
            "try:\n    main()\n"
            "except SystemExit as exc:\n"
            "    print(exc.code, 'pydantic' in sys.modules, 'sengoku.carddb.models' in sys.modules, file=sys.stderr)")
    env = {**os.environ, "SENGOKU_CACHE_DIR": str(tmp_path)}
    subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)  # checks and remembers
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.stderr.strip().splitlines()[-1] == "0 False False", out.stderr
