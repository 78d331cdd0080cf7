"""The four sample card databases and rule files: sizes the issue asks for, strict schemas, db check."""

from __future__ import annotations

import copy
import json
from collections import Counter

import pytest

from games_support import GAMES, ROOT, run
from sengoku.carddb.load import check_data, load_card_db
from sengoku.db_check import check_card_db


def cards_of(game: str) -> list[dict]:
    return json.loads((ROOT / "card_db" / game / "cards.json").read_text(encoding="utf-8"))["cards"]


@pytest.mark.parametrize("game", GAMES)
def test_database_is_clean_sample_data_of_its_game(game: str) -> None:
    report = check_card_db(ROOT / "card_db" / game)
    assert report.problems == []
    assert [p.rsplit("/", 1)[-1] for p in report.files] == ["cards.json", "game.toml"]
    db = load_card_db(ROOT / "card_db" / game)
    assert db.meta.game == game and db.meta.sample is True and "SAMPLE" in (db.meta.description or "")


def test_senjutsu_has_two_cards_of_every_rank_and_a_legal_forty() -> None:
    cards = cards_of("senjutsu")
    ranks = Counter(c.get("rank") for c in cards if c["kind"] != "passive")
    assert all(ranks[r] >= 2 for r in ("jade", "gold", "steel", "wood")), ranks
    assert {c["kind"] for c in cards} == {"attack", "defence", "meditation", "passive"}
    # enough for 40 under the limits: 1 jade + every gold once + every steel thrice (+ wood)
    assert 1 + ranks["gold"] + 3 * ranks["steel"] >= 30 and ranks["wood"] >= 1


def test_fe_tcg_has_ten_cards_of_the_six_kinds() -> None:
    cards = cards_of("fe-tcg")
    assert len(cards) >= 10
    assert {c["kind"] for c in cards} == {"unit", "weapon", "tome", "item", "surprise", "land"}


def test_clan_tactics_has_two_gods_two_divine_spirits_and_thirty_others() -> None:
    cards = cards_of("clan-tactics")
    gods = [c for c in cards if c["kind"] == "god"]
    spirits = [c for c in cards if c["divine_spirit"]]
    others = [c for c in cards if c["kind"] != "god" and not c["divine_spirit"]]
    assert len(gods) >= 2 and len(spirits) >= 2 and len(others) >= 30
    assert {c["kind"] for c in cards} == {"god", "ally", "homebase", "equipment", "inventory", "runic_art", "terrain"}


def test_champions_has_six_champions_and_the_rules_example_naira() -> None:
    cards = cards_of("champions")
    champions = [c for c in cards if c["kind"] == "champion"]
    assert len(champions) >= 6
    assert {c["kind"] for c in cards} == {"champion", "equipment", "monster", "familiar", "incantation", "potion"}
    naira = next(c for c in champions if c["name"] == "Naira, Herald of Yggdrasil")
    assert naira["life_modifier"] == -4  # rules text: 40 starting life -> 36 with Naira


def _data(game: str) -> dict:
    return json.loads((ROOT / "card_db" / game / "cards.json").read_text(encoding="utf-8"))


BREAKAGES = [
    ("senjutsu", lambda d: d["cards"][0].update(bogus=1), "$.cards[0].bogus"),
    ("senjutsu", lambda d: d["cards"][0].pop("rank"), "$.cards[0]"),  # an ability card needs a rank
    ("senjutsu", lambda d: next(c for c in d["cards"] if c["kind"] == "passive").update(rank="gold"), None),
    ("senjutsu", lambda d: d["cards"][0].update(rank="bronze"), "$.cards[0].rank"),
    ("fe-tcg", lambda d: d["cards"][0].update(kind="spell"), "$.cards[0].kind"),
    ("fe-tcg", lambda d: d["cards"][0].pop("energy"), "$.cards[0]"),
    ("clan-tactics", lambda d: d["cards"][0].update(divine_spirit=True), "$.cards[0].divine_spirit"),  # a God
    ("clan-tactics", lambda d: d["cards"][5].update(divine_spirit="yes"), "$.cards[5].divine_spirit"),
    ("champions", lambda d: d["cards"][0].pop("life_modifier"), "$.cards[0]"),
    ("champions", lambda d: d["meta"].update(game="senjutsu"), None),  # wrong schema for these cards
]


@pytest.mark.parametrize(("game", "breaks", "where"), BREAKAGES)
def test_schema_rejects_broken_cards(game, breaks, where) -> None:  # type: ignore[no-untyped-def]
    data = copy.deepcopy(_data(game))
    breaks(data)
    problems = check_data("cards.json", data)
    assert problems, "a broken card database must not pass"
    assert all(p.severity == "error" for p in problems)
    if where is not None:
        assert where in {p.json_path for p in problems}, [str(p) for p in problems]


def test_duplicate_ids_are_errors_and_duplicate_names_warnings() -> None:
    data = copy.deepcopy(_data("fe-tcg"))
    data["cards"][1]["id"] = data["cards"][0]["id"]
    data["cards"][3]["name"] = data["cards"][2]["name"]
    problems = check_data("cards.json", data)
    assert {(p.rule, p.severity) for p in problems} == {("duplicate-id", "error"), ("duplicate-name", "warning")}
    assert sum(p.rule == "duplicate-id" for p in problems) == 2


def test_db_check_cli_checks_game_toml_with_line(tmp_path) -> None:  # type: ignore[no-untyped-def]
    for game in GAMES:
        out = run("db", "check", str(ROOT / "card_db" / game))
        assert out.returncode == 0, out.stdout + out.stderr
        assert "game.toml: ok" in out.stderr
    (tmp_path / "cards.json").write_text((ROOT / "card_db/senjutsu/cards.json").read_text(encoding="utf-8"))
    rules = (ROOT / "card_db/senjutsu/game.toml").read_text(encoding="utf-8")
    (tmp_path / "game.toml").write_text(
        rules.replace("{count} ability cards", "{count} {nope} ability cards").replace('game = "senjutsu"', 'game = "fe-tcg"'))
    out = run("db", "check", str(tmp_path))
    assert out.returncode == 1
    line = next(n for n, text in enumerate(rules.splitlines(), 1) if text.startswith("[[rules]]"))
    assert f"game.toml:{line} at $.rules[0]" in out.stdout and "{nope}" in out.stdout
    assert "cards.json is for 'senjutsu'" in out.stdout
    (tmp_path / "game.toml").write_text("game = [\n")
    out = run("db", "check", str(tmp_path))
    assert out.returncode == 2 and "not valid TOML" in out.stdout and "Traceback" not in out.stderr
