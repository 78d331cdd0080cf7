"""Resolving entries to cards (tolerant names, levels, epithets, ids) and the checks kept in code."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

import sengoku
from sengoku.decklist.model import DeckEntry, Decklist
from sengoku.validate import validate_deck
from sengoku.validate.api import Validator
from sengoku.carddb.catalog import load_catalog
from sengoku.validate.resolve import resolve_entry

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(ROOT / "card_db" / "sengoku")


def e(**kw) -> DeckEntry:
    return DeckEntry(section=kw.pop("section", "main"), line=7, **kw)


@pytest.mark.parametrize("entry, card", [
    (e(name="Soma", level=2), "SY1-002"),
    (e(name="soma", level=2), "SY1-002"),
    (e(name="  SOMA\t ", level=2), "SY1-002"),
    (e(name="ＳＯＭＡ", level=2), "SY1-002"),  # full-width (NFKC)
    (e(name="Ｓｏｍａ", level=3), "SY1-003"),
    (e(name="Soma", epithet="storm  captain"), "SY1-003"),  # epithet alone picks one
    (e(name="Benkei", level=3, epithet="Pilgrim of Mount Hiei"), "SY2-025"),
    (e(id="SY1-004"), "SY1-004"),
    (e(id="sy1-004"), "SY1-004"),
    (e(id="ＳＹ１－００４"), "SY1-004"),  # full-width id: folded as fmt and import fold it
    (e(id="SY1-004", name="soma"), "SY1-004"),  # a name that agrees with the id is fine
    (e(name="Ronin", section="nameless"), "SY1-033"),  # one card: no level needed
])
def test_entries_resolve(catalog, entry: DeckEntry, card: str) -> None:
    assert resolve_entry(entry, catalog) == (card, None)


def test_nfc_and_nfd_spellings_match(catalog) -> None:
    from sengoku.carddb.catalog import Catalog

    data = {"meta": {"game": "sengoku-yugi", "name": "t", "version": "1"},
            "cards": [{"id": "X", "name": "Café", "level": 1}]}
    small = Catalog.from_data(data)
    assert resolve_entry(e(name="Cafe\u0301"), small)[0] == "X"  # decomposed e + accent
    assert resolve_entry(e(name="CAFÉ"), small)[0] == "X"


def test_unknown_name_suggests_close_names(catalog) -> None:
    card, v = resolve_entry(e(name="Kagetoro", level=1), catalog)
    assert card is None and v.rule == "unknown-card" and "did you mean 'Kagetora'" in v.message
    assert v.line == 7 and v.cards == ("Kagetoro",)


def test_unknown_level_lists_the_levels(catalog) -> None:
    _, v = resolve_entry(e(name="Soma", level=5), catalog)
    assert v.rule == "unknown-card" and "Level 1" in v.message and "Level 4" in v.message


def test_unknown_id_suggests_ids(catalog) -> None:
    _, v = resolve_entry(e(id="SY1-0001"), catalog)
    assert v.rule == "unknown-card" and "SY1-001" in v.message


def test_ambiguous_needs_level_or_epithet(catalog) -> None:
    _, v = resolve_entry(e(name="Soma"), catalog)
    assert v.rule == "ambiguous-card" and "give `level`" in v.message and len(v.cards) == 4
    _, v = resolve_entry(e(name="Benkei", level=3), catalog)
    assert v.rule == "ambiguous-card" and "give `epithet`" in v.message and set(v.cards) == {"SY1-027", "SY2-025"}


def test_id_and_name_that_disagree(catalog) -> None:
    _, v = resolve_entry(e(id="SY1-004", name="Oichi"), catalog)
    assert v.rule == "ambiguous-card" and "Oichi" in v.message


def test_the_same_card_twice_is_summed_with_a_warning() -> None:
    deck = sengoku.load_decklist(ROOT / "decklists" / "default.toml")
    first = next(e for e in deck.entries if e.name == "Soma" and e.level == 1)
    deck.entries.append(DeckEntry(section="main", name="soma", level=1, count=1, line=200))
    result = validate_deck(deck)
    assert result.sections["main"]["SY1-001"] == first.count + 1
    dup = [v for v in result.violations if v.rule == "duplicate-entry"]
    assert len(dup) == 1 and dup[0].severity == "warning" and dup[0].line == 200
    assert f"line {first.line}" in dup[0].message
    assert {v.rule for v in result.violations} == {"duplicate-entry", "copy-limit"}  # 3 + 1 = 4 copies


def test_validate_deck_fills_sections_and_db_identity() -> None:
    deck = sengoku.load_decklist(ROOT / "decklists" / "ultimate.toml")
    result = validate_deck(deck)
    assert result.valid and result.mode == "ultimate"
    assert sum(result.sections["main"].values()) == 50
    assert sum(result.sections["nameless"].values()) == 2
    assert len(result.sections["familiars"]) == 12
    raw = (ROOT / "card_db" / "sengoku" / "cards.json").read_bytes()
    assert result.db_hash == hashlib.sha256(raw).hexdigest()
    assert result.db_name == "SENGOKU YUGI sample set"


def test_validate_deck_accepts_a_loaded_card_database_or_a_path() -> None:
    deck = sengoku.load_decklist(ROOT / "decklists" / "default.toml")
    db = sengoku.load_card_db()
    by_model = validate_deck(deck, db)
    by_path = validate_deck(deck, ROOT / "card_db" / "sengoku" / "cards.json")
    assert by_model.valid and by_path.valid
    assert by_model.sections == by_path.sections and by_model.db_hash == by_path.db_hash


def test_a_deck_built_in_code() -> None:
    deck = Decklist(entries=[DeckEntry("main", 3, "Soma", level=1), DeckEntry("main", 1, "Soma", level=2),
                             DeckEntry("nameless", 2, "Ronin")])
    result = validate_deck(deck)
    (v,) = result.violations
    assert v.rule == "deck-size" and "holds 4 Main/Support cards" in v.message and v.line is None


# --- checks kept in code -----------------------------------------------------------------------

def deck_of(main, nameless, familiars=(), mode="standard") -> Decklist:
    entries = [DeckEntry("main", n, id=i, line=k) for k, (i, n) in enumerate(main, 1)]
    entries += [DeckEntry("nameless", n, id=i, line=100 + k) for k, (i, n) in enumerate(nameless)]
    entries += [DeckEntry("familiars", n, id=i, line=200 + k) for k, (i, n) in enumerate(familiars)]
    return Decklist(entries=entries, mode=mode)


def warnings_of(deck: Decklist) -> list[tuple[str, tuple[str, ...], int | None]]:
    return [(v.rule, v.cards, v.line) for v in validate_deck(deck).warnings]


def test_nameless_grows_only_into_a_higher_level_card_of_its_gender_and_weapon() -> None:
    # Ronin: male longsword. Soma (male longsword) Lv1 cannot be grown into (M2: higher level);
    # Tomoe Lv2 is a longsword but female.
    assert warnings_of(deck_of([("SY1-001", 3), ("SY2-018", 3)], [("SY1-033", 1)])) == [
        ("nameless-cannot-grow", ("SY1-033",), 100)]
    assert warnings_of(deck_of([("SY1-001", 3), ("SY1-002", 1)], [("SY1-033", 1)])) == []


def test_familiar_above_every_character_level() -> None:
    eggs = [("SY1-037", 1), ("SY1-038", 1), ("SY2-035", 1)]  # Egg Lv1, Harbee Lv2, Sojobo Lv4
    base = [("SY1-001", 3), ("SY1-002", 3), ("SY1-003", 3)]  # Soma up to Lv3
    assert warnings_of(deck_of(base, [("SY1-033", 2)], eggs, "ultimate")) == [
        ("familiar-cannot-contract", ("SY2-035",), 202)]
    assert warnings_of(deck_of(base + [("SY1-004", 1)], [("SY1-033", 2)], eggs, "ultimate")) == []
    # Standard Mode ignores the familiars (D7), so only that warning shows.
    assert [w[0] for w in warnings_of(deck_of(base, [("SY1-033", 2)], eggs))] == ["familiars-in-standard"]


# --- tournament formats through the validator ----------------------------------------------------

def test_format_from_the_command_and_from_the_decklist(write) -> None:
    text = (ROOT / "decklists" / "default.toml").read_text(encoding="utf-8")
    early, late = "2026-02-01", "2026-08-01"
    v = Validator(format="sample-championship", as_of=early)
    result = v.validate_file(write(text))
    assert [x.rule for x in result.violations] == ["restricted"]  # Kagetora Lv4 x2, restricted at launch
    assert result.violations[0].cards == ("SY1-008",) and result.format == "sample-championship"
    assert Validator(format="sample-championship", as_of=late).validate_file(write(text)).violations == []
    own = text.replace('mode = "standard"', 'mode = "standard"\nformat = "sample-championship"')
    assert [x.rule for x in Validator(as_of=early).validate_file(write(own)).violations] == ["restricted"]


def test_unknown_format_named_by_a_decklist_is_a_violation_on_its_line(write) -> None:
    text = 'format = "nope"\n' + (ROOT / "decklists" / "default.toml").read_text(encoding="utf-8")
    result = Validator().validate_file(write(text))
    assert [(v.rule, v.line) for v in result.violations] == [("unknown-format", 1)]


def test_unknown_format_given_by_the_caller_is_a_data_error(write) -> None:
    from sengoku.errors import DataError

    with pytest.raises(DataError):
        Validator(format="nope").validate_file(write((ROOT / "decklists" / "default.toml").read_text()))
