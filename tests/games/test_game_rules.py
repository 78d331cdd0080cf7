"""Each game's construction rules: every sample decklist gives exactly its expected rule ids,
in every output (text, json, github, junit, sarif), and each limit holds at its boundary."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

import pytest

from games_support import GAMES, ROOT, check_text, deck_toml, expected_rules, run, sample_decklists

DECKS = sample_decklists()
FOLDERS = [str(ROOT / "decklists" / g) for g in GAMES]


def rel(path: str) -> str:
    """A reported path (relative, absolute, or a SARIF file: URI) relative to the checkout."""
    if path.startswith("file:"):
        from urllib.parse import unquote, urlparse

        path = unquote(urlparse(path).path)
    return Path(path).resolve().relative_to(ROOT).as_posix()


def test_every_game_has_valid_and_invalid_samples() -> None:
    for game in GAMES:
        kinds = {p.parent.name for p in DECKS if p.parts[-3] == game}
        assert kinds == {"valid", "invalid"}, game


@pytest.mark.parametrize("path", DECKS, ids=lambda p: f"{p.parts[-3]}/{p.parts[-2]}/{p.name}")
def test_sample_decklist_gives_its_expected_rules(path: Path, validator) -> None:  # type: ignore[no-untyped-def]
    result = validator.validate_file(path)
    assert {v.rule for v in result.violations} == expected_rules(path), [str(v) for v in result.violations]
    assert result.valid == (path.parent.name == "valid")
    assert result.game == path.parts[-3]
    for v in result.violations:
        assert v.line is not None and v.message


@pytest.fixture(scope="module")
def outputs() -> dict[str, str]:
    """One `sengoku validate` run over the four games' folders per output format."""
    out = {}
    for fmt in ("text", "json", "github", "junit", "sarif"):
        proc = run("validate", *FOLDERS, "--output", fmt)
        assert proc.returncode == 1, proc.stderr  # the invalid samples fail the run
        assert "Traceback" not in proc.stderr
        out[fmt] = proc.stdout
    return out


def expected_by_file() -> dict[str, set[str]]:
    return {p.relative_to(ROOT).as_posix(): expected_rules(p) for p in DECKS}


def test_json_output(outputs) -> None:  # type: ignore[no-untyped-def]
    doc = json.loads(outputs["json"])
    got = {rel(r["path"]): {v["rule"] for v in r["violations"]} for r in doc["results"]}
    assert got == expected_by_file()
    valid = {rel(r["path"]): r["valid"] for r in doc["results"]}
    assert all(valid[f] == ("/valid/" in f) for f in valid)
    assert {db["game"] for db in doc["card_dbs"]} == set(GAMES)
    life = {rel(r["path"]): r.get("info", {}).get("starting_life") for r in doc["results"]}
    assert life["decklists/champions/valid/forty-life.toml"]["Naira, Herald of Yggdrasil"] == 36


def test_text_output(outputs) -> None:  # type: ignore[no-untyped-def]
    got: dict[str, set[str]] = defaultdict(set)
    for line in outputs["text"].splitlines():
        head, _, rest = line.partition(" ")
        path = head.split(":")[0]
        severity, rule = rest.split(" ")[:2]
        if severity in ("error", "warning"):
            got[rel(path)].add(rule)
    assert dict(got) == {f: r for f, r in expected_by_file().items() if r}
    info = [line for line in outputs["text"].splitlines() if "forty-life.toml info starting_life: " in line]
    assert len(info) == 1 and "Naira, Herald of Yggdrasil: 36" in info[0]


def test_github_output(outputs) -> None:  # type: ignore[no-untyped-def]
    got: dict[str, set[str]] = defaultdict(set)
    for line in outputs["github"].splitlines():
        if line.startswith(("::error ", "::warning ")):
            props = dict(kv.split("=", 1) for kv in line.split(" ", 1)[1].split("::")[0].split(","))
            got[rel(props["file"])].add(props["title"])
            assert props["line"].isdigit()
    assert dict(got) == {f: r for f, r in expected_by_file().items() if r}


def test_junit_output(outputs) -> None:  # type: ignore[no-untyped-def]
    suites = ET.fromstring(outputs["junit"])
    cases = {rel(c.get("name")): c for c in suites.iter("testcase")}
    assert set(cases) == set(expected_by_file())
    for path, rules in expected_by_file().items():
        failure = cases[path].find("failure")
        assert (failure is not None) == ("/invalid/" in path), path
        if failure is not None:
            assert all(rule in (failure.text or "") for rule in rules), path


def test_sarif_output(outputs) -> None:  # type: ignore[no-untyped-def]
    doc = json.loads(outputs["sarif"])
    assert doc["version"] == "2.1.0"
    got: dict[str, set[str]] = defaultdict(set)
    for run_ in doc["runs"]:
        rules = run_["tool"]["driver"]["rules"]
        for res in run_["results"]:
            rule = rules[res["ruleIndex"]]
            assert rule["id"] == res["ruleId"]
            path = rel(res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"])
            game = rule.get("properties", {}).get("game")
            if game is not None:  # a game's own rule: the deck's game, never another's (same id)
                assert res["ruleId"] == f"{game}/{rule['name']}" and f"/{game.split('-')[0]}" in f"/{path}"
            got[path].add(rule["name"])
    assert dict(got) == {f: r for f, r in expected_by_file().items() if r}


# --- the Senjutsu example deck of the rules text ----------------------------------------------

def test_senjutsu_rules_example_adds_up_to_thirty_and_is_not_legal(validator) -> None:  # type: ignore[no-untyped-def]
    """The rules text's example deck, counted by hand from its four columns (jade, gold, steel,
    wood): 1 + (1+1+1+1) + (3+2+2+1+1+2+2+1) + (4+3+2+2) = 1 + 4 + 14 + 11 = 30 cards. The deck
    size rule asks for exactly 40, so as printed it is not a legal deck; every rank limit holds."""
    path = ROOT / "decklists/senjutsu/invalid/rules-example.toml"
    result = validator.validate_file(path)
    cards = validator.checker("senjutsu").catalog.cards
    by_rank: dict[str, int] = defaultdict(int)
    for card_id, n in result.sections["deck"].items():
        by_rank[cards[card_id]["rank"]] += n
    assert dict(by_rank) == {"jade": 1, "gold": 4, "steel": 14, "wood": 11}
    assert [(v.rule, v.severity) for v in result.violations] == [("deck-size", "error")]
    assert "holds 30 ability cards" in result.violations[0].message


# --- each limit at its boundary ------------------------------------------------------------

WOOD, WOOD2 = "Quick Stab", "Deep Meditation"


def senjutsu(validator, cards):  # type: ignore[no-untyped-def]
    return {v.rule for v in check_text(deck_toml("senjutsu", cards), validator).violations}


@pytest.mark.parametrize(("cards", "rules"), [
    ([(WOOD, 20), (WOOD2, 20)], set()),                                     # wood: any number
    ([(WOOD, 20), (WOOD2, 19)], {"deck-size"}),
    ([(WOOD, 21), (WOOD2, 20)], {"deck-size"}),
    ([(WOOD, 20), (WOOD2, 19), ("The Ronin's Resolve", 1)], {"deck-size"}),  # passive not counted
    ([(WOOD, 20), (WOOD2, 20), ("The Ronin's Resolve", 1)], set()),
    ([(WOOD, 20), (WOOD2, 20), ("The Ronin's Resolve", 1), ("The Master's Resolve", 1)], {"passive-card"}),
    ([(WOOD, 20), (WOOD2, 17), ("Swift Mind", 3)], set()),                  # steel: three
    ([(WOOD, 20), (WOOD2, 16), ("Swift Mind", 4)], {"copy-limit"}),
    ([(WOOD, 20), (WOOD2, 19), ("War Cry", 1)], set()),                     # gold: one
    ([(WOOD, 20), (WOOD2, 18), ("War Cry", 2)], {"copy-limit"}),
    ([(WOOD, 20), (WOOD2, 19), ("Void Mind", 1)], set()),                   # jade: one in the deck
    ([(WOOD, 20), (WOOD2, 18), ("Void Mind", 1), ("Dragon Moon Slash", 1)], {"jade-limit"}),
    ([(WOOD, 20), (WOOD2, 18), ("Void Mind", 2)], {"jade-limit", "copy-limit"}),
])
def test_senjutsu_limits(cards, rules, validator) -> None:  # type: ignore[no-untyped-def]
    assert senjutsu(validator, cards) == rules


@pytest.mark.parametrize(("size", "ok"), [(29, False), (30, True), (60, True), (61, False)])
def test_fe_tcg_deck_size(size, ok, validator) -> None:  # type: ignore[no-untyped-def]
    result = check_text(deck_toml("fe-tcg", [("Seliph", size // 2), ("Vulnerary", size - size // 2)]), validator)
    assert {v.rule for v in result.violations} == (set() if ok else {"deck-size"})


def _clan_cards(n: int) -> list[tuple[str, int]]:
    """A God, a homebase, and n - 2 other different cards that are neither Gods nor Divine Spirits."""
    cards = json.loads((ROOT / "card_db/clan-tactics/cards.json").read_text(encoding="utf-8"))["cards"]
    others = [c["name"] for c in cards if c["kind"] not in ("god", "homebase") and not c["divine_spirit"]]
    return [("Auriel the Dawnbringer", 1), ("Sanctum Gate", 1)] + [(name, 1) for name in others[: n - 2]]


@pytest.mark.parametrize(("extra", "rules"), [
    ([], set()),
    ([("Lumen Spirit", 1)], set()),
    ([("Lumen Spirit", 1), ("Crimson Wraith", 1)], {"divine-spirit"}),
    ([("Morvane the Blood Count", 1)], {"god-count"}),
    # listed a second time: the entries are summed (a warning), then 2 copies break the limit
    ([("Cross Squire", 1)], {"copy-limit", "duplicate-entry"}),
])
def test_clan_tactics_limits(extra, rules, validator) -> None:  # type: ignore[no-untyped-def]
    result = check_text(deck_toml("clan-tactics", _clan_cards(20) + extra), validator)
    assert {v.rule for v in result.violations} == rules


@pytest.mark.parametrize(("size", "ok"), [(30, True), (31, False)])
def test_clan_tactics_size(size, ok, validator) -> None:  # type: ignore[no-untyped-def]
    cards = _clan_cards(size)
    assert sum(n for _, n in cards) == size
    result = check_text(deck_toml("clan-tactics", cards), validator)
    assert {v.rule for v in result.violations} == (set() if ok else {"deck-size"})


def test_clan_tactics_needs_one_god_and_warns_without_homebase(validator) -> None:  # type: ignore[no-untyped-def]
    result = check_text(deck_toml("clan-tactics", [("Cross Squire", 1)]), validator)
    assert {(v.rule, v.severity) for v in result.violations} == {("god-count", "error"), ("homebase", "warning")}


CHAMPS = ["Naira, Herald of Yggdrasil", "Bram, Oakshield", "Sylve, Windreader", "Orrin the Ash Magus",
          "Kessa, Vault Breaker", "Tobiah, Last Squire", "Ysolde of the Veil"]


def champions_deck(players: int, pool: int, **top: object) -> str:
    main = deck_toml("champions", [("Armored Slime", 3), ("Iron Helm", 3)], section="main", players=players, **top)
    return main + "".join(f'[[champions]]\nname = "{name}"\n' for name in CHAMPS[:pool])


@pytest.mark.parametrize(("players", "pool", "rules"), [
    (3, 3, set()), (6, 6, set()), (6, 7, set()), (4, 3, {"champion-pool"}), (6, 5, {"champion-pool"}),
    (2, 3, {"syntax"}), (7, 7, {"syntax"}),
])
def test_champions_players_and_pool(players, pool, rules, validator) -> None:  # type: ignore[no-untyped-def]
    result = check_text(champions_deck(players, pool), validator)
    assert {v.rule for v in result.violations} == rules


def test_champions_need_players(validator) -> None:  # type: ignore[no-untyped-def]
    text = champions_deck(3, 3).replace("players = 3\n", "")
    result = check_text(text, validator)
    assert [v.rule for v in result.violations] == ["syntax"] and "players" in result.violations[0].message


def test_champions_starting_life_is_base_plus_modifier(validator) -> None:  # type: ignore[no-untyped-def]
    """Base 30 unless the decklist says otherwise; the rules text's example: 40 life, Naira -> 36."""
    cards = {c["name"]: c for c in json.loads((ROOT / "card_db/champions/cards.json").read_text())["cards"]}
    default = check_text(champions_deck(3, 3), validator).info["starting_life"]
    assert default == {n: 30 + cards[n]["life_modifier"] for n in CHAMPS[:3]}
    assert default["Naira, Herald of Yggdrasil"] == 26
    forty = check_text(champions_deck(3, 3, starting_life=40), validator).info["starting_life"]
    assert forty["Naira, Herald of Yggdrasil"] == 36
