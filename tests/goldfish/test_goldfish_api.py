"""`sengoku.goldfish()` on the real engine: simulated opening hands within 4 SE of exact values."""

from __future__ import annotations

import json
import math

import pytest

from sengoku.goldfish.statistics import probability as prob
from sengoku.goldfish.api import InvalidDeckError, goldfish
from sengoku.goldfish.play.simulate import chunks


@pytest.fixture(scope="module")
def big():
    # idle: the opening hand does not depend on the policy, and idle games cost least.
    return goldfish(runs=20_000, turns=1, policy="idle", seed=11, jobs=1, wants=["Soma:2", "Oichi", "Sorin"])


def test_exact_vs_simulated_within_4_se(big) -> None:
    n = big.runs
    probs = big.opening_hand["probabilities"]
    assert len(probs) == 7  # 3 built-in + 3 wants + all together
    check = big.opening_hand["check"]
    assert check["events"] == 7 and check["threshold"] == pytest.approx(1e-6 / 7)
    for p in probs:
        se = prob.standard_error(p["exact"], n)
        assert abs(p["simulated"] - p["exact"]) <= 4 * se + 1e-6, p
        assert p["hits"] == round(p["simulated"] * n)
        # the reported tail is the exact binomial one (the exact value is rounded to 6 digits here)
        assert p["tail"] == pytest.approx(prob.binomial_two_sided(p["hits"], n, p["exact"]), rel=0.02, abs=1e-3)
        assert p["ok"] and p["tail"] >= check["threshold"]
    assert big.ok and big.errors == []


def test_exact_values_from_the_default_deck_by_hand(big) -> None:
    probs = {p["event"]: p["exact"] for p in big.opening_hand["probabilities"]}
    oh = big.opening_hand
    assert (oh["deck_size"], oh["hand_size"]) == (51, 5)  # 52 main cards, the Commander left (S1)
    # Soma 1-4 (3/3/3/2) in the default deck; the Commander is a Soma 1 -> 10 Soma left in 51
    assert big.commander["name"] == "Soma"
    assert probs["commander_growth_focus"] == pytest.approx(1 - math.comb(41, 5) / math.comb(51, 5), abs=1e-6)
    soma2 = 1 - (math.comb(41, 5) + 10 * math.comb(41, 4)) / math.comb(51, 5)
    assert probs["want:Soma:2"] == pytest.approx(soma2, abs=1e-6)
    # Level 1: Kagetora/Oichi/Yukimura 3 each + 2 Soma left = 11
    assert probs["level1"] == pytest.approx(1 - math.comb(40, 5) / math.comb(51, 5), abs=1e-6)


def test_hand_distributions_within_4_se(big) -> None:
    n = big.runs
    for row in big.opening_hand["charge_value"]["distribution"]:
        assert abs(row["simulated"] - row["exact"]) <= 4 * prob.standard_error(row["exact"], n) + 2e-6, row
    for lv in big.opening_hand["levels"]:
        assert sum(d["exact"] for d in lv["distribution"]) == pytest.approx(1, abs=1e-5)
        for d in lv["distribution"]:
            assert abs(d["simulated"] - d["exact"]) <= 4 * prob.standard_error(d["exact"], n) + 2e-6, (lv["level"], d)


def test_going_second_turn1_ap_is_15() -> None:
    r = goldfish(runs=50, turns=1, policy="idle", going="second", jobs=1)
    assert r.opening_hand["turn1_ap"] == 15
    assert r.curve[0]["ap_main"]["mean"] == 15


def test_result_round_trips_through_json() -> None:
    r = goldfish(runs=100, turns=3, jobs=1)
    assert json.loads(r.to_json()) == r.to_dict()
    assert r.to_json() == goldfish(runs=100, turns=3, jobs=1).to_json()


def test_chunking_does_not_change_results() -> None:
    # a progress callback splits the runs into 4 chunks; no callback: 1 chunk
    seen: list[int] = []
    a = goldfish(runs=300, turns=4, seed=5, jobs=1, progress=seen.append)
    b = goldfish(runs=300, turns=4, seed=5, jobs=1)
    assert a.to_json() == b.to_json()
    assert seen == [75, 150, 225, 300]


def test_chunks_cover_every_run_once() -> None:
    for runs, parts in ((10, 3), (7, 7), (5, 9), (10_000, 8)):
        spans = chunks(runs, parts)
        assert [i for a, b in spans for i in range(a, b)] == list(range(runs))


def test_invalid_deck_raises_with_the_validation(tmp_path) -> None:
    deck = tmp_path / "d.toml"
    deck.write_text('mode = "standard"\n[[main]]\nname = "Soma"\nlevel = 1\ncount = 4\n', encoding="utf-8")
    with pytest.raises(InvalidDeckError) as info:
        goldfish(deck, runs=10)
    rules = {v.rule for v in info.value.validation.errors}
    assert "deck-size" in rules
