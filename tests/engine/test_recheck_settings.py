"""benchmarks/recheck_settings.py: each of greedy's settings as it ships against turned off, on the same deals of
the test set, a row of the table written as each setting is measured; the verdict worked by hand."""

from __future__ import annotations

import pytest

from .conftest import benchmark_script


@pytest.fixture(scope="module")
def bench():
    with benchmark_script("recheck_settings") as script:
        yield script


def test_a_setting_turned_off(bench):
    assert bench.off_value(True) is False and bench.off_value(False) is True
    assert bench.off_value(3) == 0 and type(bench.off_value(3)) is int
    assert bench.off_value(0.04) == 0.0 and type(bench.off_value(0.04)) is float
    assert bench.off_value(0.0) is None and bench.off_value(0) is None  # nothing to turn off


def test_the_verdict_pools_every_deal_and_counts_the_rows(bench):
    ships = [[3, 3, 3, 3], [4, 4, 4, 4]]
    # row 1: off is a turn slower on every deal but one; row 2: alike, but one deal a turn sooner
    off = [[4, 4, 4, 3], [4, 4, 4, 3]]
    gap, half, above, below, said = bench.judge_setting(ships, off)
    # pooled gaps 1, 1, 1, 0, 0, 0, 0, -1: mean 2/8; sd sqrt((3 * 0.5625 + 4 * 0.0625 + 1.5625) / 7) = 0.7071
    assert gap == pytest.approx(0.25) and half == pytest.approx(2.3646 * 0.7071068 / 8 ** 0.5, abs=1e-4)
    assert said == "not shown"  # 0.25 - 0.591 < 0
    # row 1: mean 0.75, sd 0.5, t(3) = 3.1824: 0.75 - 0.796 < 0; no row's interval is clear of 0
    assert (above, below) == (0, 0)
    gap, half, above, below, said = bench.judge_setting([[3] * 6], [[4, 4, 4, 4, 4, 3]])
    assert said == "earns its place" and above == 1  # mean 5/6, sd 0.408: 0.833 - 2.5706 x 0.1667 = 0.405 > 0


def test_a_small_run_writes_the_table_as_it_goes(bench, tmp_path, capsys):
    out = tmp_path / "recheck.md"
    assert bench.main(["--deck", "bundled/low-curve-1", "--setting", "first", "--deals", "6", "--turns", "8",
                       "--name", "focus_margin", "--name", "contracts", "--out", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert text == capsys.readouterr().out
    assert "on the test set (digest 1cdaed6ed73b): 1 rows, 6 deals a row" in text
    lines = text.splitlines()
    assert lines[-2] == "| focus_margin | 0.0 | (0 already) | | | skipped |"
    # Contracts are Ultimate mode's (U3): a Standard deck plays alike without them, every gap 0, no spread
    assert lines[-1] == "| contracts | True | False | +0.0000 (+0.0000 to +0.0000) | 0 / 0 | not shown |"


def test_together_is_one_row_with_the_settings_all_turned_off(bench, tmp_path, capsys):
    out = tmp_path / "recheck.md"
    assert bench.main(["--deck", "bundled/low-curve-1", "--setting", "first", "--deals", "6", "--turns", "8",
                       "--together", "contracts,familiar_abilities", "--out", str(out)]) == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    # one row for the two (a Standard deck plays alike without either: Ultimate mode's, U3, A4)
    assert lines[-1] == ("| contracts, familiar_abilities | True, True | False, False | +0.0000 (+0.0000 to +0.0000) "
                         "| 0 / 0 | not shown |")
    assert lines[-3].startswith("| setting |")


def test_a_removed_setting_is_named_as_removed(bench, capsys):
    with pytest.raises(SystemExit) as info:
        bench.main(["--name", "scarce_first", "--deals", "2"])
    err = capsys.readouterr().err
    assert info.value.code == 2 and "greedy's setting scarce_first was removed" in err
