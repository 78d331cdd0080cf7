"""Generated card databases (issue 36): `sengoku db check` passes them, they differ in balance by seed, their
abilities are only what the engine runs (a goldfish game skips none), and their decks goldfish."""

from __future__ import annotations

import json

import pytest

import sengoku
from sengoku.db_check import check_card_db
from sengoku.generate import PROFILES, Balance, GenerateError, card_db_json, generate_card_db, generate_deck
from sengoku.generate.decks import cards_of

from cli_run import run_captured

ENGINE_CHARACTER_OPS = {"draw", "gain_ap", "heal"}  # C5: the character effects tables.py compiles
ENGINE_FAMILIAR_OPS = {"hp", "mp", "troop", "weapon", "evolution", "draw", "gain_ap", "heal"}  # A4, C5


@pytest.mark.parametrize("seed", range(10))
def test_a_generated_database_passes_db_check(tmp_path, seed):
    (tmp_path / "cards.json").write_text(card_db_json(generate_card_db(seed)), encoding="utf-8")
    report = check_card_db(tmp_path)
    assert report.problems == [], [p.message for p in report.problems]


def test_sengoku_db_check_passes_a_generated_folder(generated_dbs, capsys):
    for folder in generated_dbs.values():
        outcome = run_captured(capsys, "db", "check", str(folder))
        assert outcome.code == 0, outcome.out + outcome.err


def test_the_same_seed_gives_the_same_bytes_and_seeds_differ_in_names_and_balance():
    assert card_db_json(generate_card_db(5)) == card_db_json(generate_card_db(5))
    a, b = generate_card_db(5), generate_card_db(6)
    names = [{c["name"] for c in d["cards"] if c["kind"] == "main"} for d in (a, b)]
    assert not names[0] & names[1]
    balances = {json.dumps(generate_card_db(s)["meta"]["source"]) for s in range(6)}
    assert len(balances) == 6
    bundled = {c["name"] for c in cards_of(None)}
    assert not bundled & {c["name"] for c in a["cards"]}  # other names than the bundled set's


def test_a_balance_given_sets_each_levels_attack_and_cost():
    balance = Balance(attack=(20, 30, 40, 50), defense=0.5, cost=(2, 4, 6, 8), charge=(1, 2), corners=0.2,
                      abilities=0.3, magic=0.2)
    cards = generate_card_db(3, balance)["cards"]
    for c in cards:
        if c["kind"] in ("main", "support"):
            power = max(c["atk"], c["mat"])
            assert abs(power - balance.attack[c["level"] - 1]) <= 2, c  # jittered by at most 2
            assert abs(c["deployment_cost"] - balance.cost[c["level"] - 1]) <= 1, c
            assert 1 <= c["charge_value"] <= 2


def test_abilities_are_only_effects_the_engine_runs():
    for seed in range(10):
        for c in generate_card_db(seed)["cards"]:
            for ab in c["abilities"]:
                ops = {e["op"] for e in ab["effect"]}
                if c["kind"] == "familiar":
                    assert ops <= ENGINE_FAMILIAR_OPS and ab["category"] in ("support", "evolution"), ab
                else:
                    assert ops <= ENGINE_CHARACTER_OPS and "condition" not in ab, ab
                    assert set(ab.get("cost", {})) <= {"ap"}, ab


def test_generated_decks_of_every_profile_goldfish_and_skip_no_ability(databases):
    for db_name in ("gen-11", "gen-12"):
        path, cards = databases[db_name]
        for profile in PROFILES:
            deck = generate_deck(cards, profile, 1)
            result = sengoku.goldfish(deck, path, runs=20, turns=12, jobs=1, seed=2)
            where = f"{db_name} {profile}"
            assert result.runs == 20, where
            assert result.skipped_abilities["total"] == 0, where  # C5: every ability of the set runs
            assert 2 <= result.kill_turn["mean"] <= 12, (where, result.kill_turn)  # S8: no kill before turn 2


def test_bad_seed_is_refused():
    with pytest.raises(GenerateError, match="seed"):
        generate_card_db(-3)
    with pytest.raises(GenerateError, match="seed"):
        generate_card_db(True)
