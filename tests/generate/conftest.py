"""Generated card databases written once per test session, and the rows of a database as the checks read them."""

from __future__ import annotations

from pathlib import Path

import pytest

from sengoku.generate import card_db_json, generate_card_db
from sengoku.generate.decks import cards_of

GENERATED = (11, 12)  # seeds of the generated databases the deck tests draw from


@pytest.fixture(scope="session")
def generated_dbs(tmp_path_factory) -> dict[int, Path]:
    """Generated databases by seed, each a folder holding only its cards.json (the bundled board and rules apply)."""
    root = tmp_path_factory.mktemp("generated-dbs")
    folders = {}
    for seed in GENERATED:
        folder = root / f"gen-{seed}"
        folder.mkdir()
        (folder / "cards.json").write_text(card_db_json(generate_card_db(seed)), encoding="utf-8")
        folders[seed] = folder
    return folders


@pytest.fixture(scope="session")
def databases(generated_dbs) -> dict[str, tuple[Path | None, list]]:
    """name -> (path for --db, None for the bundled database; its checked card rows)."""
    out = {"bundled": (None, cards_of(None))}
    for seed, folder in generated_dbs.items():
        out[f"gen-{seed}"] = (folder, cards_of(folder))
    return out
