"""Candidates: every legal one-card change, each deck checked by the validator (tournament format included)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sengoku.carddb.load import load_card_db
from sengoku.decklist.fmt import canonical_decklist
from sengoku.decklist.read import read_decklist
from sengoku.errors import DataError
from sengoku.tune.candidates import changes, default_pool, legal_candidates, read_pool
from sengoku.tune.deck import Change, Deck, decklist
from sengoku.validate.api import Validator

ROOT = Path(__file__).resolve().parents[2]
DEFAULT = ROOT / "decklists" / "default.toml"


@pytest.fixture(scope="module")
def db():  # type: ignore[no-untyped-def]
    return load_card_db(None)


def _start(db, path: Path = DEFAULT):  # type: ignore[no-untyped-def]
    deck, syntax = read_decklist(path)
    result = Validator(db).validate_deck(deck, syntax)
    return deck, Deck.from_sections(result.sections)


def test_every_one_card_change_is_listed(db) -> None:  # type: ignore[no-untyped-def]
    like, deck = _start(db)
    kinds = {c.id: c.kind for c in db.cards}
    pool = default_pool(db, "standard")
    main_pool = sum(kinds[c] in ("main", "support") for c in pool)
    nameless_pool = sum(kinds[c] == "nameless" for c in pool)
    assert (main_pool, nameless_pool) == (62, 5)  # the sample set: 54 Main + 8 Support; 5 Nameless
    held_main, held_nameless = 19, 2  # the default deck's distinct cards
    found = changes(deck, pool, kinds, "standard")
    # swaps (out x every other pool card), adds, removes, per section; familiars: none in Standard (D7)
    assert len(found) == (held_main * (main_pool - 1) + main_pool + held_main
                          + held_nameless * (nameless_pool - 1) + nameless_pool + held_nameless)
    assert len(set(found)) == len(found)
    assert not any(c.section == "familiars" for c in found)


def test_only_legal_decks_race_and_every_refused_one_breaks_a_rule(db) -> None:  # type: ignore[no-untyped-def]
    like, deck = _start(db)
    validator = Validator(db)
    legal, refused = legal_candidates(deck, like, default_pool(db, "standard"), db, validator)
    assert refused > 0 and len(legal) > 500
    for cand in legal:
        assert validator.validate_deck(decklist(cand.deck, like)).valid
    changes_made = {c.change for c in legal}
    # D3: a fourth Kagetora Lv1 (SY1-005, 3 copies held) is never proposed; D2: the Nameless stay two
    assert Change("main", None, "SY1-005") not in changes_made
    assert not any(c.section == "nameless" and (c.out is None or c.into is None) for c in changes_made)
    # a Nameless swap that keeps two distinct Nameless is legal
    assert Change("nameless", "SY1-034", "SY1-035") in changes_made
    # D1: the deck holds 52 Main/Support cards, so one more or one fewer is legal
    assert Change("main", None, "SY1-017") in changes_made and Change("main", "SY1-029", None) in changes_made


def test_the_tournament_format_limits_the_candidates(db, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    text = DEFAULT.read_text(encoding="utf-8").replace('mode = "standard"', 'mode = "standard"\nformat = "sample-championship"')
    path = tmp_path / "deck.toml"
    path.write_text(text, encoding="utf-8")
    like, deck = _start(db, path)
    legal, _ = legal_candidates(deck, like, default_pool(db, "standard"), db, Validator(db))
    ins = {c.change.into for c in legal}
    assert "SY2-012" not in ins  # Chiyome Lv4: banned in the format's list in force
    assert "SY2-011" in ins  # Chiyome Lv3 is not


def test_a_pool_file_names_the_cards_that_may_go_in(db, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    text_pool = tmp_path / "pool.txt"
    text_pool.write_text("Main:\n2 Kagetora Lv4\nHanzo Lv1\n1 Benkei Lv3 \"Pilgrim of Mount Hiei\"\n", encoding="utf-8")
    assert read_pool(text_pool, db) == ("SY1-008", "SY1-017", "SY2-025")
    bad = tmp_path / "bad.txt"
    bad.write_text("1 Kagetoraa Lv4\n", encoding="utf-8")
    with pytest.raises(DataError, match="Kagetora"):
        read_pool(bad, db)
    assert "SY1-004" in read_pool(DEFAULT, db)  # a decklist as a pool: its cards


def test_the_written_deck_is_canonical_and_reads_back_the_same(db) -> None:  # type: ignore[no-untyped-def]
    from sengoku.tune.deck import deck_text

    like, deck = _start(db)
    changed = deck.apply(Change("main", "SY1-013", "SY2-025"))  # Benkei Lv3 shares name and level: epithet kept
    text = deck_text(changed, like, db, ["a comment"])
    assert canonical_decklist(text).changed is False  # fmt would change nothing
    assert 'epithet = "Pilgrim of Mount Hiei"' in text and text.startswith("# a comment\n")
    path = Path(__import__("tempfile").mkdtemp()) / "t.toml"
    path.write_text(text, encoding="utf-8")
    again, syntax = read_decklist(path)
    result = Validator(db).validate_deck(again, syntax)
    assert result.valid and Deck.from_sections(result.sections) == changed
