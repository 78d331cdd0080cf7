"""fmt --db: a database that cannot be read stops fmt before any file is touched (exit 2)."""

from __future__ import annotations

from pathlib import Path

import pytest

# A Nameless card (SY1-033) listed above a Level 2 Main card: canonical order puts Main first
# (kind from the card database), but level-and-name-only order would keep the Nameless first.
DECK = '[[main]]\nid = "SY1-033"\n\n[[main]]\nname = "Soma"\nlevel = 2\n'


@pytest.mark.parametrize("db", ["no-such-db", "broken.json"])
def test_unreadable_db_leaves_files_untouched(cli, tmp_path: Path, db: str) -> None:
    (tmp_path / "broken.json").write_text("{ not json", encoding="utf-8")
    deck = tmp_path / "deck.toml"
    deck.write_text(DECK, encoding="utf-8")
    code, out, err = cli("fmt", str(deck), "--db", str(tmp_path / db))
    assert code == 2
    assert str(tmp_path / db) in err
    assert deck.read_text(encoding="utf-8") == DECK
