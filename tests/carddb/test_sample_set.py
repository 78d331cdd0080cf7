"""The bundled sample set meets issue 2's requirements and the sample decklists SPEC D1-D8.

Counted straight from the JSON and TOML files, independent of the loader and the validator.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections import Counter

import pytest

from sengoku.paths import data_dir

CARDS = json.loads((data_dir("card_db") / "sengoku" / "cards.json").read_text(encoding="utf-8"))
META, ALL = CARDS["meta"], CARDS["cards"]
CHARS = [c for c in ALL if c["kind"] != "familiar"]
MAIN = [c for c in ALL if c["kind"] == "main"]
FAMILIARS = [c for c in ALL if c["kind"] == "familiar"]
WEAPONS = {"greatsword", "longsword", "dual_blades", "dagger", "greatshield", "battle_axe", "warhammer",
           "magic_stone", "spear", "bow"}
ATTRIBUTES = {"fire", "water", "lightning", "earth", "wind", "dark", "holy"}


def levels_of(name: str) -> set[int]:
    return {c["level"] for c in MAIN if c["name"] == name}


def test_marked_as_sample_data() -> None:
    assert META["sample"] is True
    assert "not an official card list" in META["description"].casefold()


def test_character_names_and_levels() -> None:
    names = {c["name"] for c in CHARS if c["kind"] in ("main", "support")}
    assert len(names) >= 16
    full = [n for n in {c["name"] for c in MAIN} if levels_of(n) == {1, 2, 3, 4}]
    assert len(full) > len(names) / 2  # "Levels 1-4 for most"


def test_support_cards_are_level_2_or_3() -> None:
    support = [c for c in CHARS if c["kind"] == "support"]
    assert len({c["name"] for c in support}) >= 2
    assert {c["level"] for c in support} == {2, 3}


def test_nameless_differ_and_can_grow() -> None:
    nameless = [c for c in CHARS if c["kind"] == "nameless"]
    assert len(nameless) >= 4
    assert all(c["level"] == 1 and c["epithet"].startswith("Nameless") for c in nameless)
    assert len({(c["gender"], c["weapon"]) for c in nameless}) == len(nameless)
    for c in nameless:  # M2: a Nameless grows into a character of the same gender and weapon
        assert any((m["gender"], m["weapon"]) == (c["gender"], c["weapon"]) for m in MAIN), c["name"]


def test_every_weapon_attribute_and_gender() -> None:
    assert {c["weapon"] for c in CHARS} == WEAPONS
    assert {c["attribute"] for c in CHARS} == ATTRIBUTES
    assert {c["gender"] for c in CHARS} == {"male", "female"}


def chain_length(card: dict) -> int:
    by_name = {f["name"]: f for f in FAMILIARS}
    n = 1
    while card["evolves_from"] is not None:
        card, n = by_name[card["evolves_from"]], n + 1
    return n


def test_familiars_eggs_and_three_form_chains() -> None:
    assert len(FAMILIARS) >= 24
    eggs = [f for f in FAMILIARS if f["is_egg"]]
    assert len(eggs) >= 2
    by_name = {f["name"]: f for f in FAMILIARS}
    three_from_egg = [f for f in FAMILIARS if chain_length(f) >= 3
                      and by_name[by_name[f["evolves_from"]]["evolves_from"]]["is_egg"]]
    assert len(three_from_egg) >= 2
    # The guide's own example: Raibee <- Harbee <- Radiant Stone of Yellow, released with 4 HP (U5).
    raibee = by_name["Raibee"]
    assert raibee["evolves_from"] == "Harbee" and by_name["Harbee"]["evolves_from"] == "Radiant Stone of Yellow"
    assert raibee["charge_value"] + by_name["Harbee"]["charge_value"] + by_name["Radiant Stone of Yellow"]["charge_value"] == 4


def test_evolution_raises_the_level() -> None:
    by_name = {f["name"]: f for f in FAMILIARS}
    for f in FAMILIARS:
        if f["evolves_from"]:
            assert f["level"] > by_name[f["evolves_from"]]["level"], f["name"]


def abilities(name: str) -> list[dict]:
    return [a for c in ALL for a in c["abilities"] if a["name"] == name]


def test_guide_example_abilities() -> None:
    troop = abilities("Troop Request I")
    assert troop and all(a["kind"] == "TRG" and a["timing"] == "deployment" and a["cost"] == {"ap": 3}
                         and a["effect"] == [{"op": "draw", "amount": 1}] for a in troop)
    rations = abilities("Rations I")
    assert rations and all(a["kind"] == "ACT" and a["location"] == "hand_to_standby" and a["cost"]["ap"] == 3
                           and "Banish" in a["cost"]["other"]
                           and a["effect"] == [{"op": "heal", "amount": 1, "target": "ally"}] for a in rations)
    intimidation = abilities("Intimidation I")
    assert intimidation and all(a["kind"] == "TRG" and a["timing"] == "growth_frontline"
                                and a["category"] == "disruption" and "counter" in a and "effect" not in a
                                for a in intimidation)


def test_structured_and_text_only_abilities() -> None:
    every = [a for c in ALL for a in c["abilities"]]
    ops = Counter(e["op"] for a in every for e in a.get("effect", []))
    assert {"draw", "gain_ap", "heal"} <= set(ops)
    assert sum(1 for a in every if "effect" not in a) >= 5  # C5: the engine must skip these


@pytest.mark.parametrize("level, low, high", [(1, 2, 3), (2, 4, 5), (3, 6, 7), (4, 8, 10)])
def test_deployment_cost_by_level(level: int, low: int, high: int) -> None:
    assert all(low <= c["deployment_cost"] <= high for c in CHARS if c["level"] == level)


def test_stats_rise_with_level() -> None:
    for name in {c["name"] for c in MAIN}:
        ladder = sorted((c for c in MAIN if c["name"] == name), key=lambda c: c["level"])
        for lower, higher in zip(ladder, ladder[1:]):
            if lower["level"] == higher["level"]:
                continue
            assert higher["deployment_cost"] > lower["deployment_cost"], name
            assert max(higher["atk"], higher["mat"]) > max(lower["atk"], lower["mat"]), name
    assert all(1 <= c["charge_value"] <= 3 for c in ALL)


def test_ids_and_sets() -> None:
    assert len({c["id"] for c in ALL}) == len(ALL)
    for c in ALL:
        assert re.fullmatch(r"SY\d-\d{3}", c["id"]) and c["id"].startswith(c["set"] + "-")
    assert {c["set"] for c in ALL} == {"SY1", "SY2"}


# ---- the two sample decklists against SPEC D1-D8, counted by hand -----------------------------

def deck(name: str) -> dict:
    return tomllib.loads((data_dir("decklists") / f"{name}.toml").read_text(encoding="utf-8"))


def find(entry: dict, kinds: tuple[str, ...]) -> list[dict]:
    return [c for c in ALL if c["kind"] in kinds and c["name"] == entry["name"]
            and ("level" not in entry or c["level"] == entry["level"])]


@pytest.mark.parametrize("name, mode", [("default", "standard"), ("ultimate", "ultimate")])
def test_sample_decklist_is_legal(name: str, mode: str) -> None:
    d = deck(name)
    assert d["mode"] == mode
    copies: Counter = Counter()
    for entry in d["main"]:
        [card] = find(entry, ("main", "support"))  # D8: Main/Support in main; one card per entry
        copies[(card["name"], card["level"])] += entry.get("count", 1)
    assert 50 <= sum(copies.values()) <= 60  # D1
    assert max(copies.values()) <= 3  # D3
    assert any(lv == 1 and find({"name": n, "level": 1}, ("main",)) for n, lv in copies)  # D4
    assert sum(e.get("count", 1) for e in d["nameless"]) == 2  # D2
    assert all(find(e, ("nameless",)) for e in d["nameless"])
    familiars = d.get("familiars", [])
    if mode == "standard":
        assert familiars == []  # D7
    else:
        names = [e["name"] for e in familiars]
        assert 10 <= len(names) <= 20 and len(set(names)) == len(names)  # D5
        assert all(e.get("count", 1) == 1 for e in familiars)
        assert any(c["is_egg"] for e in familiars for c in find(e, ("familiar",)))  # D6


def test_default_deck_can_grow_and_focus() -> None:
    d = deck("default")
    ladders = Counter(e["name"] for e in d["main"])
    assert sum(1 for n, k in ladders.items() if k == 4) >= 3  # several names at Levels 1-4
