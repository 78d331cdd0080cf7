"""Streaming histograms: exact means and percentiles, identical after merging."""

import math
import random

from sengoku.goldfish.statistics.stats import CurveTally, Histogram, first_turn_distribution


def brute_percentile(values: list[int], p: float) -> int:
    # nearest-rank definition, on the explicit list of every game's value
    ordered = sorted(values)
    return ordered[max(1, math.ceil(p * len(ordered) / 100)) - 1]


def test_percentiles_and_mean_match_brute_force() -> None:
    rng = random.Random(7)
    for n in (1, 2, 3, 10, 99, 1000):
        values = [rng.randint(-3, 40) for _ in range(n)]
        h = Histogram()
        for v in values:
            h.add(v)
        for p in (1, 10, 25, 50, 90, 99, 100):
            assert h.percentile(p) == brute_percentile(values, p), (n, p)
        assert h.mean() == sum(values) / n


def test_merge_is_the_same_as_one_histogram() -> None:
    rng = random.Random(3)
    values = [rng.randint(0, 9) for _ in range(500)]
    whole, a, b = Histogram(), Histogram(), Histogram()
    for i, v in enumerate(values):
        whole.add(v)
        (a if i < 217 else b).add(v)
    a.merge(b)
    assert a.counts == whole.counts
    assert a.summary() == whole.summary()


def test_curve_tally_splits_rows_by_turn() -> None:
    measures = ("x", "y")
    games = [[(1, 10), (2, 20), (3, 30)], [(1, 11), (5, 20), (3, 31)], [(0, 10), (2, 22), (9, 30)]]
    tally = CurveTally(measures, 3)
    tally.add_rows([row for g in games for row in g])
    curve = tally.curve()
    assert [c["turn"] for c in curve] == [1, 2, 3]
    assert curve[1]["x"] == {"mean": 3.0, "p10": 2, "p50": 2, "p90": 5}
    assert curve[2]["y"]["mean"] == round((30 + 31 + 30) / 3, 4)
    assert curve[0]["x"]["p50"] == 1


def test_first_turn_distribution_counts_never() -> None:
    from collections import Counter

    d = first_turn_distribution(Counter({2: 3, 4: 1, None: 6}), turns=5, runs=10)
    assert [r["games"] for r in d["by_turn"]] == [0, 3, 0, 1, 0]
    assert d["never"] == {"games": 6, "fraction": 0.6}
    assert d["median"] is None  # only 4 of 10 games reach it
    assert d["mean_when_reached"] == 2.5
