"""benchmarks/refit.py: the two fitted rules refitted in order, on the fit set only, by one command."""

from __future__ import annotations

import argparse
import importlib.util
import sys

import pytest

from .conftest import benchmark_script


@pytest.fixture(scope="module")
def refit():
    pytest.importorskip("numpy")  # the fit extra (CI installs it: tests/engine/test_fit_charges.py insists)
    with benchmark_script("refit") as script:
        yield script


def test_the_fits_run_in_order_each_on_the_set(refit, tmp_path):
    ns = argparse.Namespace(only=None, set=refit.set_rows.FIT_SET, out_dir=tmp_path, seed=[5], deals=3, rollouts=None,
                            deck=None, jobs=2)
    lines = refit.commands(ns)
    assert [line[1].rsplit("/", 1)[-1] for line in lines] == ["fit_charges.py", "fit_focus.py"]
    assert [line[line.index("--out") + 1] for line in lines] == [
        str(tmp_path / "charge_weights.py"), str(tmp_path / "focus_weights.py")]
    for line in lines:
        assert line[0] == sys.executable and line[line.index("--set") + 1] == str(refit.set_rows.FIT_SET)
        assert line[-6:] == ["--jobs", "2", "--seed", "5", "--deals", "3"]
    ns.only = ["focus"]
    assert [line[1].rsplit("/", 1)[-1] for line in refit.commands(ns)] == ["fit_focus.py"]


def test_a_small_refit_writes_weights_fitted_on_fit_set_decks(refit, tmp_path, capsys):
    assert refit.main(["--only", "charges", "--out-dir", str(tmp_path), "--deals", "2", "--rollouts", "1",
                       "--seed", "3", "--deck", "gen-2001/low-curve-101", "--deck", "bundled/climb-101"]) == 0
    text = (tmp_path / "charge_weights.py").read_text(encoding="utf-8")
    # 2 deals x 4 settings x 2 decks: 16 turn-1 hands; the command that writes the same file names the set
    assert "(16 turn-1 hands" in text
    assert ("python benchmarks/fit_charges.py --seed 3 --deals 2 --rollouts 1 --deck gen-2001/low-curve-101 "
            "--deck bundled/climb-101 --set ") in text
    spec = importlib.util.spec_from_file_location("fitted", tmp_path / "charge_weights.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert len(module.CARD) == 3 and len(module.SIZE) == 5


def test_the_test_set_is_refused(refit, tmp_path, capsys):
    code = refit.main(["--only", "charges", "--set", str(refit.set_rows.TEST_SET), "--out-dir", str(tmp_path),
                       "--deals", "1", "--rollouts", "1"])
    assert code != 0 and not (tmp_path / "charge_weights.py").exists()
