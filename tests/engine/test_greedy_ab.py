"""benchmarks/greedy_ab.py: a setting it is given is checked by greedy's own record before any game."""

from __future__ import annotations

import pytest

from .conftest import benchmark_script


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
