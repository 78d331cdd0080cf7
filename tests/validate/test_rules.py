"""The rule vocabulary's interpreter over plain card dicts: a made-up game written only as data.

The game here ("toy") has its own fields (`rank`, `kind`, `tags`, `holy`) that SENGOKU YUGI
does not; the checker must run it unchanged. Expected counts are worked out by hand.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sengoku.decklist.model import DeckEntry, Decklist
from sengoku.errors import DataError
from sengoku.games import read_game_file
from sengoku.validate.api import Validator
from sengoku.carddb.catalog import Catalog
from sengoku.validate.deck_check import Checker
from sengoku.validate.rules import RuleFileError, compile_filter, load_rules, render, rule_file_problems

CARDS = [
    {"id": "J1", "name": "Jade Dragon", "rank": "jade", "kind": "attack", "tags": ["fire"], "holy": True, "power": 9},
    {"id": "J2", "name": "Jade Tiger", "rank": "jade", "kind": "defence", "tags": [], "holy": False, "power": 7},
    {"id": "G1", "name": "Gold Crane", "rank": "gold", "kind": "attack", "tags": ["wind"], "holy": 1, "power": 5},
    {"id": "S1", "name": "Steel Wall", "rank": "steel", "kind": "defence", "tags": ["earth", "fire"], "power": 3},
    {"id": "W1", "name": "Wood Stick", "rank": "wood", "kind": "meditation", "power": 1},
    {"id": "P1", "name": "Passive", "rank": "none", "kind": "passive"},
]

GAME = '''
game = "toy"
title = "Toy"
sections = ["deck", "side"]
[keys.players]
type = "integer"
min = 2
max = 4
default = 2
[[rules]]
id = "deck-size"
type = "count"
sections = ["deck"]
where = { kind = { not = "passive" } }
min = 4
max = 6
message = "deck holds {count}; {min}..{max} in {sections}"
[[rules]]
id = "jade"
type = "count"
sections = ["deck", "side"]
where = { rank = "jade" }
max = 1
show_cards = true
message = "{count} jade: {cards}"
[[rules]]
id = "per-rank"
type = "copies"
sections = ["deck"]
per = ["name"]
limit_by = "rank"
limits = { gold = 1, steel = 3 }
message = "{count} x {key} ({card.rank}) > {max}"
[[rules]]
id = "players-side"
type = "count"
sections = ["side"]
min = "players"
message = "side holds {count}, players {min}"
[[rules]]
id = "no-passive-in-side"
type = "forbid"
sections = ["side"]
where = { kind = "passive" }
message = "{card} ({card.kind}) not in {section}"
[[rules]]
id = "four-player-warning"
type = "count"
when = { players = 4 }
sections = ["deck"]
max = 5
severity = "warning"
message = "4 players: at most {max}"
'''


@pytest.fixture
def toy(tmp_path: Path) -> Validator:
    (tmp_path / "cards.json").write_text(json.dumps({"meta": {"game": "toy", "name": "Toy", "version": "1"},
                                                     "cards": CARDS}))
    (tmp_path / "game.toml").write_text(GAME)
    catalog = Catalog.from_data(json.loads((tmp_path / "cards.json").read_text()), str(tmp_path / "cards.json"))
    return Validator(catalog)


def deck(*entries: tuple[str, str, int], **settings) -> Decklist:
    return Decklist(game="toy", entries=[DeckEntry(section=s, id=i, count=n, line=k + 1, column=1)
                                         for k, (s, i, n) in enumerate(entries)],
                    extra=settings, positions={"deck": (1, 1), "side": (9, 1)})


def rules_of(result) -> list[str]:
    return [v.rule for v in result.violations]


def test_a_legal_toy_deck(toy: Validator) -> None:
    result = toy.validate_deck(deck(("deck", "J1", 1), ("deck", "S1", 3), ("deck", "W1", 2), ("deck", "P1", 1),
                                    ("side", "W1", 2), players=2))
    assert result.violations == [] and result.sections == {"deck": {"J1": 1, "S1": 3, "W1": 2, "P1": 1},
                                                           "side": {"W1": 2}}


def test_count_excludes_by_filter_and_renders_message(toy: Validator) -> None:
    result = toy.validate_deck(deck(("deck", "W1", 3), ("deck", "P1", 1), ("side", "W1", 2), players=2))
    (v,) = result.violations
    assert (v.rule, v.message, v.line) == ("deck-size", "deck holds 3; 4..6 in [[deck]]", 1)


def test_count_over_two_sections_names_the_cards(toy: Validator) -> None:
    result = toy.validate_deck(deck(("deck", "J1", 1), ("deck", "W1", 4), ("side", "J2", 1), ("side", "W1", 1),
                                    players=2))
    (v,) = result.violations
    assert v.rule == "jade" and v.cards == ("J1", "J2")
    assert v.message == "2 jade: Jade Dragon (J1), Jade Tiger (J2)"


def test_per_value_limits_and_unlimited_values(toy: Validator) -> None:
    result = toy.validate_deck(deck(("deck", "G1", 2), ("deck", "S1", 4), ("deck", "W1", 9 - 6 + 0),
                                    ("side", "W1", 2), players=2))
    got = {v.message for v in result.violations if v.rule == "per-rank"}
    assert got == {"2 x Gold Crane (gold) > 1", "4 x Steel Wall (steel) > 3"}  # wood: no limit
    assert "deck-size" in rules_of(result)  # 9 cards


def test_bound_from_a_decklist_key(toy: Validator) -> None:
    base = [("deck", "W1", 4)]
    assert rules_of(toy.validate_deck(deck(*base, ("side", "W1", 2), players=3))) == ["players-side"]
    assert toy.validate_deck(deck(*base, ("side", "W1", 3), players=3)).violations == []


def test_forbid_names_card_field_and_section(toy: Validator) -> None:
    result = toy.validate_deck(deck(("deck", "W1", 4), ("side", "P1", 1), ("side", "W1", 1), players=2))
    (v,) = result.violations
    assert v.message == "Passive (P1) (passive) not in side" and v.line == 2


def test_when_selects_rules_by_decklist_keys(toy: Validator) -> None:
    d = [("deck", "W1", 6), ("side", "W1", 4)]
    assert toy.validate_deck(deck(*d, players=2)).violations == []
    (v,) = toy.validate_deck(deck(*d, players=4)).violations
    assert (v.rule, v.severity) == ("four-player-warning", "warning")


def test_the_interpreter_knows_no_sengoku_fields(toy: Validator) -> None:
    checker = toy.checker("toy")
    assert isinstance(checker, Checker) and checker.catalog.game == "toy"


@pytest.mark.parametrize("where, ids", [
    ({"rank": "jade"}, {"J1", "J2"}),
    ({"rank": ["gold", "steel"]}, {"G1", "S1"}),
    ({"rank": {"not": "jade"}}, {"G1", "S1", "W1", "P1"}),
    ({"rank": {"not": ["jade", "none"]}}, {"G1", "S1", "W1"}),
    ({"rank": {"in": ["wood"]}}, {"W1"}),
    ({"rank": {"not_in": ["wood", "none", "jade"]}}, {"G1", "S1"}),
    ({"power": {"min": 5}}, {"J1", "J2", "G1"}),
    ({"power": {"min": 3, "max": 7}}, {"J2", "G1", "S1"}),
    ({"power": {"max": 100}}, {"J1", "J2", "G1", "S1", "W1"}),  # a missing field is no number
    ({"tags": "fire"}, {"J1", "S1"}),  # a list field holds a value when it contains it
    ({"holy": True}, {"J1"}),  # TOML true is not the integer 1
    ({"holy": 1}, {"G1"}),
    ({"holy": {"not": True}}, {"J2", "G1", "S1", "W1", "P1"}),
    ({"kind": "attack", "rank": "gold"}, {"G1"}),  # every condition must hold
    ({}, {"J1", "J2", "G1", "S1", "W1", "P1"}),
])
def test_filters(where: dict, ids: set[str]) -> None:
    pred = compile_filter(where)
    assert {c["id"] for c in CARDS if pred is None or pred(c)} == ids


def test_render_leaves_unknown_placeholders_and_never_raises() -> None:
    assert render("{count} of {max} {nope} {card.kind} {", {"count": 3, "max": None, "card.kind": "god"}) == \
        "3 of {max} {nope} god {"


def _game(tmp_path: Path, text: str):
    (tmp_path / "game.toml").write_text(text)
    return read_game_file(tmp_path / "game.toml")


def test_rule_file_problems_are_all_reported(tmp_path: Path) -> None:
    game = _game(tmp_path, '''
game = "bad"
sections = ["deck"]
checks = ["no-such-check"]
[[rules]]
id = "a"
type = "count"
sections = ["deck", "hand"]
min = "players"
message = "{count} {card}"
''')
    problems = rule_file_problems(game)
    assert any("no-such-check" in p for p in problems)
    assert any("{card}" in p for p in problems)
    assert any("'hand'" in p for p in problems)
    assert any("'players'" in p for p in problems)
    with pytest.raises(RuleFileError) as info:
        load_rules(game)
    assert isinstance(info.value, DataError) and info.value.line == 5  # the [[rules]] header


@pytest.mark.parametrize("rule", [
    'id = "a"\ntype = "count"\nsections = ["deck"]\nmessage = "m"',  # count needs min or max
    'id = "a"\ntype = "copies"\nsections = ["deck"]\nmax = 1\nmessage = "m"',  # copies needs per
    'id = "a"\ntype = "copies"\nsections = ["deck"]\nper = ["name"]\nmax = 1\nlimit_by = "rank"\nlimits = {}\nmessage = "m"',
    'id = "a"\ntype = "forbid"\nsections = ["deck"]\nmax = 1\nmessage = "m"',
    'id = "a"\ntype = "sum"\nsections = ["deck"]\nmessage = "m"',
    'id = "A b"\ntype = "forbid"\nsections = ["deck"]\nmessage = "m"',
    'id = "a"\ntype = "forbid"\nsections = ["deck"]\nwhere = { x = { like = "y" } }\nmessage = "m"',
    'id = "a"\ntype = "forbid"\nsections = ["deck"]\nseverity = "fatal"\nmessage = "m"',
    'id = "a"\ntype = "forbid"\nsections = ["deck"]\nmesage = "m"',
])
def test_schema_rejects_malformed_rules(tmp_path: Path, rule: str) -> None:
    game = _game(tmp_path, f'game = "bad"\nsections = ["deck"]\n[[rules]]\n{rule}\n')
    assert rule_file_problems(game)


def test_every_bundled_game_file_is_clean() -> None:
    from sengoku.games import bundled_games

    games = bundled_games()
    assert {"sengoku-yugi", "senjutsu", "fe-tcg", "clan-tactics", "champions"} <= set(games)
    for game in games.values():
        assert rule_file_problems(game) == [], game.id


def test_sengoku_rule_ids_and_spec_ids() -> None:
    from sengoku.games import get_game

    book = load_rules(get_game("sengoku-yugi"))
    by_id = {(r.id, r.spec) for r in book.rules}
    assert by_id == {("deck-size", "D1"), ("nameless-count", "D2"), ("copy-limit", "D3"), ("commander", "D4"),
                     ("familiar-deck-size", "D5"), ("familiar-singleton", "D5"), ("familiar-egg", "D6"),
                     ("familiars-in-standard", "D7"), ("wrong-section", "D8")}
    assert book.checks == ("nameless-cannot-grow", "familiar-cannot-contract")


def test_a_db_folder_with_its_own_game_file_is_a_new_game(tmp_path: Path, write) -> None:
    (tmp_path / "cards.json").write_text(json.dumps({"meta": {"game": "toy", "name": "Toy", "version": "1"},
                                                     "cards": CARDS}))
    (tmp_path / "game.toml").write_text(GAME)
    # the card DB loader knows only registered schemas, so hand the catalog in directly
    catalog = Catalog.from_data(json.loads((tmp_path / "cards.json").read_text()), str(tmp_path / "cards.json"))
    validator = Validator(catalog)
    path = write('game = "toy"\nplayers = 2\n[[deck]]\nname = "wood stick"\ncount = 4\n[[side]]\nid = "W1"\ncount = 2\n')
    result = validator.validate_file(path)
    assert result.game == "toy" and result.violations == [] and result.sections["deck"] == {"W1": 4}
    result = validator.validate_file(write('game = "toy"\nplayers = 9\n'))
    assert [v.rule for v in result.violations] == ["syntax"] and "from 2 to 4" in result.violations[0].message
