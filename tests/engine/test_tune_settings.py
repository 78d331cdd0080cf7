"""benchmarks/tune_settings.py: greedy's settings chosen by tune's paired race on the fit set only; on a planted
case (one change that wins a turn on every third deal, one that loses, the rest alike) it takes the one that wins."""

from __future__ import annotations

import argparse
import json

import pytest

from sengoku.engine.policies.greedy import GreedySettings

from .conftest import benchmark_script


@pytest.fixture(scope="module")
def bench():
    with benchmark_script("tune_settings") as script:
        yield script


def race_args(**changes):
    values = dict(screen=30, finalists=3, confirm=60, looks=2, steps=3, name=["fitted_margin", "abilities", "contracts"],
                  min_gain=0.005, alpha=0.05)
    values.update(changes)
    return argparse.Namespace(**values)


def planted(records, start, stop):
    """Two rows of deals: 3 turns, 4 on every fifth deal; fitted_margin=0.01 wins one turn sooner on every third deal,
    abilities=False loses one on every other deal; any other record plays as greedy's own."""
    out = []
    for r in records:
        kills = []
        for row in range(2):
            for i in range(start, stop):
                k = 4 if (i + row) % 5 == 0 else 3
                if r.fitted_margin == 0.01 and i % 3 == 0:
                    k -= 1
                if not r.abilities and i % 2 == 0:
                    k += 1
                kills.append(k)
        out.append(kills)
    return out


def test_the_neighbours_of_a_record_change_one_setting_each(bench):
    record = GreedySettings()
    assert bench.neighbours(record, ["abilities", "extra_charge", "fitted_margin", "focus_margin", "draw_first_turns"]) == [
        {"extra_charge": 2}, {"extra_charge": 4}, {"fitted_margin": 0.01}, {"fitted_margin": 0.03},
        {"focus_margin": 0.01}, {"abilities": False}, {"draw_first_turns": 0},
        {"draw_first_turns": 2}]  # (0 - 0.01 is below 0)


def test_the_tuner_takes_the_planted_gain_and_nothing_else(bench):
    lines = []
    record, accepted = bench.tune(GreedySettings(), planted, race_args(), say=lines.append)
    assert record == GreedySettings(fitted_margin=0.01)
    assert [a["change"] for a in accepted] == [{"fitted_margin": 0.01}]
    # the gain is 1 turn on every third deal: deals 1,000,030 to 1,000,089 of each row hold 20 such
    assert accepted[0]["mean"] == pytest.approx(1 / 3) and accepted[0]["bound"] > 0
    # the loss and the changes that play alike are dropped at screening; the gain is accepted at the first look
    assert lines[:3] == ["step 1: screening, 4 changes on 30 deals a row: fitted_margin=0.01 +0.3333 go on (3 dropped)",
                         "  look 1 (60 deals a row): fitted_margin=0.01 +0.3333 (95% +0.2478 to +0.4189, bound +0.2422) "
                         "accepted", "step 1: accepted fitted_margin=0.01"]
    assert accepted[0]["pairs"] == 2 * 60  # two rows, 60 deals each
    assert lines[-1] == "step 2: no change earns its place; the record stays"


def test_nothing_is_accepted_when_no_change_differs(bench):
    def alike(records, start, stop):
        return [[3 + (i % 2) for i in range(start, stop)] for _ in records]

    record, accepted = bench.tune(GreedySettings(), alike, race_args(), say=lambda line: None)
    assert record == GreedySettings() and accepted == []


def test_the_chosen_record_is_written_whole(bench, tmp_path):
    record, accepted = bench.tune(GreedySettings(), planted, race_args(steps=1), say=lambda line: None)
    text = bench.document(record, accepted, {"set": "fit"})
    data = json.loads(text)
    assert data["changed"] == {"fitted_margin": 0.01} and data["settings"]["fitted_margin"] == 0.01
    assert GreedySettings.from_mapping(data["settings"]) == record  # the record reads back as greedy checks it


def test_the_test_set_is_refused_as_a_set_to_choose_on(bench, capsys):
    with pytest.raises(SystemExit) as info:
        bench.main(["--set", str(bench.set_rows.TEST_SET), "--out", "never-written.json"])
    err = capsys.readouterr().err
    assert info.value.code == 2 and "chosen on the fit set only" in err and "deck bundled/climb-1" in err


def test_a_manifest_that_is_not_there_is_refused_naming_it(bench, tmp_path, capsys):
    with pytest.raises(SystemExit) as info:
        bench.main(["--set", str(tmp_path / "nowhere.toml")])
    assert info.value.code == 2 and "nowhere.toml" in capsys.readouterr().err


def test_the_fit_set_shares_nothing_with_the_test_set(bench, tmp_path):
    rows = bench.set_rows
    _, fit = rows.build_set(rows.FIT_SET, tmp_path / "fit")
    _, test = rows.build_set(rows.TEST_SET, tmp_path / "test")
    assert rows.overlap(fit, test) == []
    assert len(rows.overlap(test, test)) == len(test.decks) + 2  # every deck, and both generated databases
