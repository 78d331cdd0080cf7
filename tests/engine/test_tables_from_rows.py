"""The engine's tables compiled from the card database's plain rows equal those compiled from its models.

`goldfish` reads the card database as its checked plain rows (`Catalog`), never building a pydantic
model per card; `compile_deck` still takes a loaded `CardDatabase` (the library's typed view). Both
must give the very same tables, field by field: every bundled SENGOKU YUGI deck in its own mode
(and an Ultimate deck in Standard Mode, D7), and cards written with every optional field left out
(the models' defaults: an effect's amount 1 and target self, no cost, no timing).

CI runs this folder on the compiled wheel too, where the tables are mypyc classes without `__dict__`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import sengoku
from sengoku.carddb.models import CardDatabase
from sengoku.engine import DeckTables, compile_deck
from sengoku.engine.board import Geometry, compile_geometry
from sengoku.engine.chance import Lanes
from sengoku.engine.errors import EngineError
from sengoku.paths import data_dir, default_card_db
from sengoku.validate.api import validate_file
from sengoku.carddb.catalog import Catalog, load_catalog

from .conftest import META, char, fam

DECKLISTS = data_dir("decklists")


def fields(tables: DeckTables) -> dict[str, Any]:
    """Every attribute of compiled tables, Lanes by their codes (a compiled class has no `__dict__`)."""
    names = getattr(type(tables), "__mypyc_attrs__", None) or vars(tables)
    out = {}
    for name in names:
        if name.startswith("__") or not hasattr(tables, name):
            continue
        value = getattr(tables, name)
        if isinstance(value, dict) and any(isinstance(v, Lanes) for v in value.values()):
            value = {k: v.codes for k, v in value.items()}
        out[name] = value
    return out


def same_tables(a: DeckTables, b: DeckTables) -> None:
    fa, fb = fields(a), fields(b)
    assert len(fa) > 50 and fa.keys() == fb.keys()
    assert [name for name in fa if fa[name] != fb[name]] == []


def bundled_sengoku_decks() -> list[Path]:
    """Every bundled decklist of SENGOKU YUGI that validates (the invalid ones are refused before compiling)."""
    out = []
    for path in sorted(DECKLISTS.rglob("*.toml")):
        result = validate_file(path)
        if result.valid and result.game == "sengoku-yugi":
            out.append(path)
    return out


DECKS = bundled_sengoku_decks()


@pytest.fixture(scope="module")
def geometry() -> Geometry:
    from sengoku.carddb.board import load_board

    return compile_geometry(load_board(None))


def test_every_bundled_sengoku_deck_is_found() -> None:
    names = {p.relative_to(DECKLISTS).as_posix() for p in DECKS}
    assert {"default.toml", "ultimate.toml", "suite/ultimate-eggs.toml", "suite/low-curve.toml"} <= names
    assert len(DECKS) >= 10


@pytest.mark.parametrize("path", DECKS, ids=lambda p: p.relative_to(DECKLISTS).as_posix())
def test_bundled_deck_compiles_the_same_from_rows_and_from_models(path: Path, geometry: Geometry) -> None:
    models = sengoku.load_card_db()
    rows = load_catalog(default_card_db())
    result = validate_file(path)
    modes = [result.mode] + (["standard"] if result.mode == "ultimate" else [])  # D7: familiars ignored
    for mode in modes:
        same_tables(compile_deck(models, result.sections, mode, board=geometry),
                    compile_deck(rows, result.sections, mode, board=geometry))


def test_the_board_beside_the_database_is_read_alike() -> None:
    result = validate_file(DECKLISTS / "default.toml")
    a = compile_deck(sengoku.load_card_db(), result.sections, result.mode)
    b = compile_deck(load_catalog(default_card_db()), result.sections, result.mode)
    assert (a.board.coords, a.board.perimeter, a.board.neighbours) == (b.board.coords, b.board.perimeter,
                                                                       b.board.neighbours)


def _spare_cards() -> list[dict[str, Any]]:
    """Cards whose rows leave out every optional field the engine reads (the models fill in defaults)."""
    draw = {"name": "Draw", "turn": "your", "category": "card_acquisition", "location": "battlefield",
            "kind": "TRG", "timing": "deployment", "text": "-", "effect": [{"op": "draw"}]}  # amount 1, self
    heal = {"name": "Mend", "turn": "either", "category": "recovery", "location": "battlefield_to_defense",
            "kind": "ACT", "cost": {"ap": 2}, "text": "-", "effect": [{"op": "heal", "amount": 3, "target": "ally"}]}
    no_effect = {"name": "Words", "turn": "your", "category": "other", "location": "battlefield",
                 "kind": "TRG", "timing": "growth", "text": "-"}  # no effect: skipped (C5)
    from_hand = {"name": "Rush", "turn": "your", "category": "other", "location": "hand_to_standby",
                 "kind": "ACT", "cost": {}, "text": "-", "effect": [{"op": "gain_ap", "amount": 2}]}
    paid_other = {"name": "Toll", "turn": "your", "category": "other", "location": "battlefield",
                  "kind": "ACT", "cost": {"ap": 1, "other": "SH→Banish_1 card"}, "text": "-",
                  "effect": [{"op": "draw"}]}
    cards = [
        char("S1", "Soma", 1, 3, 3, abilities=(draw,)), char("S2", "Soma", 2, 4, 2, abilities=(heal, no_effect)),
        char("S3", "Soma", 3, 7, 2, atk=7, abilities=(from_hand, paid_other)),
        char("O1", "Oichi", 1, 3, 3, gender="female", weapon="bow", rng=("near_left", "far_right")),
        char("N1", "Ronin", 1, 2, 1, kind="nameless"),
        fam("F0", "Egg", 1, 2, 1, egg=True), fam("F1", "Kitsune", 2, 4, 1, evolves_from="Egg"),
    ]
    cards[-1]["abilities"] = [
        {"name": "Fetch", "category": "support", "die": 3, "text": "-",
         "effect": [{"op": "weapon", "weapon": "bow"}, {"op": "hp"}, {"op": "cure", "ailment": "burn"}]},
        {"name": "Bite", "category": "combat", "die": 5, "text": "-"},  # no effect: one skipped
        {"name": "Grow", "category": "evolution", "die": 6, "text": "-", "effect": [{"op": "evolution"}]},
    ]
    cards[-1]["arrows"] = ["far_left"]
    return cards


def test_rows_leaving_out_optional_fields_compile_as_the_models_fill_them_in(geometry: Geometry) -> None:
    data = {"meta": META, "cards": _spare_cards()}
    sections = {"main": {"S1": 3, "S2": 3, "S3": 2, "O1": 3}, "nameless": {"N1": 1},
                "familiars": {"F0": 1, "F1": 1}}
    models = CardDatabase.model_validate(data)
    rows = Catalog.from_data(data)
    for mode in ("standard", "ultimate"):
        a = compile_deck(models, sections, mode, board=geometry)
        b = compile_deck(rows, sections, mode, board=geometry)
        same_tables(a, b)
    # what the defaults amount to, worked by hand (C5, A1, A4)
    s1, s2, s3 = (b.index_of(c) for c in ("S1", "S2", "S3"))
    assert b.on_deploy[s1] == ((0, False, ((0, 1, 0),), 1),)  # draw 1, self; no cost; first ability: bit 1
    assert b.act[s2] == ((2, True, ((2, 3, 1),), 2),)  # heal 3 to an ally, 2 AP, then Defense Stance
    assert b.skip_growth[s2] == 1  # a trigger without structured effects
    assert b.hand_act[s3] == ((0, True, ((1, 2, 0),), 4),)  # to the Standby Zone after resolving
    assert b.skip_act[s3] == 1  # a cost the engine cannot pay
    f1 = b.index_of("F1")
    assert b.released_rows[f1] == ((0, 3, ((3, 1, 9), (0, 1, -1)), 1), (1, 5, (), 1), (2, 6, ((4, 1, -1),), 0))
    assert b.evolves_from[f1] == b.name_id[b.index_of("F0")] and b.is_egg[b.index_of("F0")]
    assert b.corners[b.index_of("O1")] == 0b1001 and b.corners[f1] == 0b0100


def test_a_card_in_the_wrong_section_is_refused_alike() -> None:
    data = {"meta": META, "cards": _spare_cards()}
    for db in (CardDatabase.model_validate(data), Catalog.from_data(data)):
        with pytest.raises(EngineError, match=r"deck section 'main': card 'F1' \(familiar\) does not belong in it"):
            compile_deck(db, {"main": {"S1": 3, "F1": 1}})
        with pytest.raises(EngineError, match=r"card 'X9' is not in the card database"):
            compile_deck(db, {"main": {"X9": 1}})
