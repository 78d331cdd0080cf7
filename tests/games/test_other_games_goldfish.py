"""Opening hands of the other games (goldfish/other_games.py): exact values against hand-worked
hypergeometric counts, simulated ones within their intervals, and the games that deal none."""

from __future__ import annotations

import json
from math import comb

import pytest

from games_support import ROOT, run
from sengoku.goldfish.api import InvalidDeckError
from sengoku.goldfish.other_games import NoOpeningHandError, opening_hand_report
from sengoku.goldfish.wants import WantError

RONIN = ROOT / "decklists/senjutsu/valid/ronin-forty.toml"  # 40 ability cards + the passive card


@pytest.fixture(scope="module")
def ronin() -> dict:
    return opening_hand_report(RONIN, runs=4000, seed=7, wants=["dragon moon slash", "Quick Stab:2"])


def event(report: dict, label: str) -> dict:
    return next(e for e in report["events"] if e["label"] == label)


def test_senjutsu_hand_is_five_of_the_forty_ability_cards(ronin) -> None:  # type: ignore[no-untyped-def]
    assert (ronin["deck_size"], ronin["hand_size"], ronin["per_round"]) == (40, 5, 1)  # passive not shuffled


def test_exact_values_match_hand_counts(ronin) -> None:  # type: ignore[no-untyped-def]
    hands = comb(40, 5)
    # one Dragon Moon Slash: in the hand with probability 5/40, and (5 + r)/40 by round r
    dms = event(ronin, "≥1 Dragon Moon Slash")
    assert dms["exact"] == pytest.approx(5 / 40, abs=1e-12)
    assert [r["exact"] for r in dms["by_round"]] == pytest.approx([(5 + r) / 40 for r in range(6)], abs=1e-12)
    # at least 2 of the 4 Quick Stab: 1 - P(0) - P(1)
    qs = event(ronin, "≥2 Quick Stab")
    assert qs["exact"] == pytest.approx(1 - (comb(36, 5) + 4 * comb(36, 4)) / hands, abs=1e-12)
    # both together: the Slash and 2+ Stabs in 5 cards, the rest from the other 35
    both = sum(comb(4, k) * comb(35, 4 - k) for k in range(2, 5)) / hands
    assert event(ronin, "all wants together")["exact"] == pytest.approx(both, abs=1e-12)
    # gold: 4 gold cards (one copy each) in the deck
    assert event(ronin, "≥1 gold card (rank)")["exact"] == pytest.approx(1 - comb(36, 5) / hands, abs=1e-12)


def test_simulated_values_agree_with_exact(ronin) -> None:  # type: ignore[no-untyped-def]
    assert ronin["ok"] and ronin["errors"] == []
    for e in ronin["events"]:
        for r in e["by_round"]:
            # the exact two-sided binomial tail is far above the run's alarm threshold
            assert r["tail"] >= ronin["check"]["threshold"], (e["label"], r)
            assert r["hits"] == round(r["simulated"] * ronin["runs"])
            lo, hi = r["interval"]
            assert lo <= r["simulated"] <= hi


def test_same_seed_same_report_other_seed_other_deals() -> None:
    a = opening_hand_report(RONIN, runs=500, seed=3)
    assert a == opening_hand_report(RONIN, runs=500, seed=3)
    b = opening_hand_report(RONIN, runs=500, seed=4)
    assert [e["simulated"] for e in a["events"]] != [e["simulated"] for e in b["events"]]
    assert [e["exact"] for e in a["events"]] == [e["exact"] for e in b["events"]]


def test_champions_hand_comes_from_the_main_deck() -> None:
    report = opening_hand_report(ROOT / "decklists/champions/valid/four-players.toml", runs=500, seed=1)
    assert (report["deck_size"], report["hand_size"], report["rounds"]) == (49, 5, 0)
    monsters = event(report, "≥1 monster card (kind)")
    assert monsters["in_deck"] == [11]
    assert monsters["exact"] == pytest.approx(1 - comb(38, 5) / comb(49, 5), abs=1e-12)


@pytest.mark.parametrize("deck", ["fe-tcg/valid/thirty.toml", "clan-tactics/valid/sacred-cross.toml"])
def test_games_without_an_opening_hand_say_so(deck: str) -> None:
    with pytest.raises(NoOpeningHandError, match="deals no opening hand"):
        opening_hand_report(ROOT / "decklists" / deck, runs=10)
    out = run("goldfish", str(ROOT / "decklists" / deck))
    assert out.returncode == 2 and "deals no opening hand from a shuffled deck" in out.stderr
    assert out.stdout == "" and "Traceback" not in out.stderr


def test_invalid_deck_and_bad_wants_are_refused() -> None:
    with pytest.raises(InvalidDeckError):
        opening_hand_report(ROOT / "decklists/senjutsu/invalid/rules-example.toml", runs=10)
    with pytest.raises(WantError, match="not shuffled|no card of that name"):
        opening_hand_report(RONIN, runs=10, wants=["The Ronin's Resolve"])  # the passive card
    with pytest.raises(WantError, match="twice"):
        opening_hand_report(RONIN, runs=10, wants=["Quick Stab", "quick stab:2"])


def test_goldfish_cli_for_senjutsu() -> None:
    out = run("goldfish", str(RONIN), "--runs", "300", "--want", "War Cry", "--json")
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["game"] == "senjutsu" and report["runs"] == 300
    assert event(report, "≥1 War Cry")["exact"] == pytest.approx(5 / 40, abs=1e-12)
    text = run("goldfish", str(RONIN), "--runs", "300")
    assert text.returncode == 0 and "opening hand of 5 from 40" in text.stdout and "by round" in text.stdout
    invalid = run("goldfish", str(ROOT / "decklists/senjutsu/invalid/rules-example.toml"))
    assert invalid.returncode == 1 and "deck-size" in invalid.stderr
    engine_only = run("goldfish", str(RONIN), "--turns", "3")
    assert engine_only.returncode == 2 and "--turns" in engine_only.stderr
