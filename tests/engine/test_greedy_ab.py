"""benchmarks/greedy_ab.py: a setting it is given is checked by greedy's own record before any game; two builds are paired deal by deal."""

from __future__ import annotations

import json

import pytest

from .conftest import BENCHMARKS, benchmark_script


@pytest.fixture(scope="module")
def bench():
    with benchmark_script("greedy_ab") as script:
        yield script


@pytest.mark.parametrize(("change", "said"), [
    ("risky_hit=0.0", "greedy's setting risky_hit was removed"),
    ("no_such_rule=1", "greedy has no setting 'no_such_rule'"),
    ("hp_charge=maybe", "hp_charge=maybe: 'maybe' is not a Python literal"),
    ("hp_charge=1", "greedy's setting hp_charge takes a bool, not 1"),
])
def test_a_bad_setting_stops_before_any_game_naming_it(bench, capsys, change, said):
    with pytest.raises(SystemExit) as info:
        bench.main([change, "--deals", "2"])
    out, err = capsys.readouterr()
    assert info.value.code == 2 and said in err and out == ""  # (no game played: nothing printed)


def test_on_a_deck_set_a_change_of_nothing_the_deck_plays_is_no_gap(bench, capsys):
    # contracts are Ultimate's (U3): on a Standard deck of a generated database the same games
    fit = str(BENCHMARKS / "decksets" / "fit.toml")
    assert bench.main(["contracts=False", "--set", fit, "--deck", "gen-2001/low-curve-101", "--setting", "second",
                       "--deals", "6"]) == 0
    out = capsys.readouterr().out
    assert "gen-2001/low-curve-101       second         greedy" in out
    assert "second: pooled gap +0.0000 ± 0.0000 (6 deals)" in out


def test_the_test_set_is_refused_a_change_is_looked_for_on_the_fit_set(bench, capsys):
    with pytest.raises(SystemExit) as info:
        bench.main(["contracts=False", "--set", str(BENCHMARKS / "decksets" / "test.toml"), "--deals", "2"])
    assert info.value.code == 2 and "shares with the test set" in capsys.readouterr().err


def test_two_builds_pair_deal_by_deal_and_other_deals_are_refused(bench, capsys, tmp_path):
    # --save writes this build's kill turns; --builds pairs this build with them: the same build
    # against itself is no gap on every deal, and a file of other deals is refused, naming them.
    fit = str(BENCHMARKS / "decksets" / "fit.toml")
    rows = ["--set", fit, "--deck", "gen-2001/low-curve-101", "--setting", "second", "--setting", "first"]
    saved = tmp_path / "before.json"
    assert bench.main([*rows, "--deals", "5", "--save", str(saved)]) == 0
    data = json.loads(saved.read_text(encoding="utf-8"))
    assert [(r["deck"], r["setting"], len(r["kills"])) for r in data["rows"]] == [
        ("gen-2001/low-curve-101", "second", 5), ("gen-2001/low-curve-101", "first", 5)]
    capsys.readouterr()
    assert bench.main([*rows, "--deals", "5", "--builds", str(saved)]) == 0
    out = capsys.readouterr().out
    assert "every row: pooled gap +0.0000 ± 0.0000 (10 deals)" in out
    with pytest.raises(SystemExit) as info:
        bench.main([*rows, "--deals", "4", "--builds", str(saved)])
    assert "holds other deals" in str(info.value.code)
    with pytest.raises(SystemExit) as info:
        bench.main(["contracts=False", *rows, "--deals", "5", "--builds", str(saved)])
    assert info.value.code == 2 and "--save or --builds goes with --set and no NAME=VALUE" in capsys.readouterr().err
