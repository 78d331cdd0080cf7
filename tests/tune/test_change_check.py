"""A one-card change checked from the counts it touches (`tune.check`) gets the validator's verdict, every time.

The oracle is the validator itself: every one-card change of each deck (the whole database as
the pool) is checked both ways, the deck it makes validated whole, and the verdicts must agree
change for change. The decks cover every rule a change can break: D1 (a deck at 50 and at 60
cards), D2, D3 (three copies held), D4 (one Commander), D5-D6 (Ultimate Mode), D8, and a
tournament format's banned and limited cards; a rule book whose copy limit depends on the card
(`limit_by`) and one with an error-severity code check (checked whole) too.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from sengoku.carddb.load import load_card_db
from sengoku.decklist.read import read_decklist
from sengoku.generate import card_db_json, deck_toml, generate_card_db, generate_deck
from sengoku.tune.candidates import changes, default_pool, legal_candidates
from sengoku.tune.check import ChangeCheck
from sengoku.tune.deck import Change, Deck, decklist
from sengoku.validate import code_checks
from sengoku.validate.api import Validator

ROOT = Path(__file__).resolve().parents[2]
SAMPLE_DB = ROOT / "card_db" / "sengoku"
DECKS = [ROOT / "decklists" / "default.toml", ROOT / "decklists" / "ultimate.toml",
         ROOT / "decklists" / "tune" / "no-level3-4.toml", *sorted((ROOT / "decklists" / "suite").glob("*.toml"))]


def _verdicts(db_path: Path | None, deck_path: Path) -> tuple[list[bool], list[bool], ChangeCheck]:
    db = load_card_db(db_path)
    like, syntax = read_decklist(deck_path)
    validator = Validator(db)
    result = validator.validate_deck(like, syntax)
    assert result.valid, result.errors
    deck = Deck.from_sections(result.sections)
    every = changes(deck, default_pool(db, like.mode), {c.id: c.kind for c in db.cards}, like.mode)
    check = ChangeCheck(validator, deck, like)
    fast = [check.legal(c) for c in every]
    whole = [validator.validate_deck(decklist(deck.apply(c), like)).valid for c in every]
    return fast, whole, check


@pytest.mark.parametrize("deck_path", DECKS, ids=lambda p: p.stem)
def test_every_change_of_the_bundled_decks_gets_the_validators_verdict(deck_path: Path) -> None:
    fast, whole, check = _verdicts(None, deck_path)
    assert not check.whole  # the sums were used, not the validator
    assert fast == whole
    assert 0 < sum(whole) < len(whole)  # some changes are refused, most are not: both sides were exercised


def test_a_tournament_formats_banned_and_limited_cards(tmp_path: Path) -> None:
    text = (ROOT / "decklists" / "default.toml").read_text(encoding="utf-8")
    path = tmp_path / "deck.toml"
    path.write_text(text.replace('mode = "standard"', 'mode = "standard"\nformat = "sample-championship"'),
                    encoding="utf-8")
    fast, whole, check = _verdicts(None, path)
    assert not check.whole and check._format is not None
    assert fast == whole
    plain, _, _ = _verdicts(None, ROOT / "decklists" / "default.toml")
    assert sum(whole) < sum(plain)  # the format refused changes the rules alone allow


@pytest.mark.parametrize("seed", [3, 11])
def test_generated_databases_and_decks(tmp_path: Path, seed: int) -> None:
    folder = tmp_path / "db"
    shutil.copytree(SAMPLE_DB, folder)
    (folder / "cards.json").write_text(card_db_json(generate_card_db(seed)), encoding="utf-8")
    rows = json.loads((folder / "cards.json").read_text(encoding="utf-8"))["cards"]
    for k, profile in enumerate(("sixty", "one-commander", "ultimate", "low-curve")):
        deck = tmp_path / f"{profile}.toml"
        deck.write_text(deck_toml(generate_deck(rows, profile, seed + k)), encoding="utf-8")
        fast, whole, _ = _verdicts(folder, deck)
        assert fast == whole, profile


def test_a_copy_limit_that_depends_on_the_card(tmp_path: Path) -> None:
    """A `limit_by` copy limit: the checker takes the limit of the group's first card, and so must a change.

    Benkei Lv3 has two epithets: "Seven-Weapon Giant" (SY1-027, limit 3 here) and "Pilgrim of Mount
    Hiei" (SY2-025, limit 2). The deck holds two Pilgrims: a Giant joins them (three in the group,
    under the Giant's limit, the group's first card), a third Pilgrim does not.
    """
    folder = tmp_path / "db"
    shutil.copytree(SAMPLE_DB, folder)
    rules = (folder / "game.toml").read_text(encoding="utf-8")
    rules = rules.replace('per = ["name", "level"]\nmax = 3\n', 'per = ["name", "level"]\nlimit_by = "epithet"\n'
                          'limits = { "Seven-Weapon Giant" = 3, "Pilgrim of Mount Hiei" = 2 }\n')
    rules = rules.replace("{count} copies of {key.name} Level {key.level}; at most {max} of each name and level "
                          "(epithets share the limit)", "{count} copies of {key}; at most {max}")
    (folder / "game.toml").write_text(rules, encoding="utf-8")
    deck = tmp_path / "deck.toml"
    deck.write_text((ROOT / "decklists" / "default.toml").read_text(encoding="utf-8")
                    + '\n[[main]]\nid = "SY2-025"\ncount = 2\n', encoding="utf-8")
    fast, whole, check = _verdicts(folder, deck)
    assert any(not c.fixed for c in check._copies)
    assert fast == whole and 0 < sum(whole) < len(whole)
    legal = {c for c, ok in zip(check_changes(folder, deck), fast) if ok}
    assert Change("main", None, "SY1-027") in legal and Change("main", None, "SY2-025") not in legal


def check_changes(db_path: Path, deck_path: Path) -> list[Change]:
    db = load_card_db(db_path)
    like, _ = read_decklist(deck_path)
    deck = Deck.from_sections(Validator(db).validate_deck(like).sections)
    return changes(deck, default_pool(db, like.mode), {c.id: c.kind for c in db.cards}, like.mode)


def test_a_code_check_that_reports_errors_is_checked_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    name = "nameless-cannot-grow"
    strict = code_checks.CODE_CHECKS[name]
    monkeypatch.setitem(code_checks.CODE_CHECKS, name, type(strict)(strict.name, strict.rule, "error",
                                                                    strict.description, strict.spec, strict.run))
    fast, whole, check = _verdicts(None, ROOT / "decklists" / "default.toml")
    assert check.whole and fast == whole


def test_legal_candidates_are_the_changes_the_validator_passes() -> None:
    db = load_card_db(None)
    like, _ = read_decklist(ROOT / "decklists" / "default.toml")
    validator = Validator(db)
    deck = Deck.from_sections(validator.validate_deck(like).sections)
    found, refused = legal_candidates(deck, like, default_pool(db, "standard"), db, validator)
    every = changes(deck, default_pool(db, "standard"), {c.id: c.kind for c in db.cards}, "standard")
    passed = [c for c in every if validator.validate_deck(decklist(deck.apply(c), like)).valid]
    assert [c.change for c in found] == passed and refused == len(every) - len(passed)
    assert len({c.deck for c in found}) == len(found)  # one deck per change
