"""The command line's one driver of a race (`cli.races`), shared by `tune` and `impact`: what it relies on of both."""

from __future__ import annotations

import pytest

from sengoku.cli import races
from sengoku.errors import DataError
from sengoku.impact.race import ImpactRace
from sengoku.impact.result import STOP_INTERRUPTED as IMPACT_INTERRUPTED
from sengoku.tune.result import STOP_INTERRUPTED as TUNE_INTERRUPTED
from sengoku.tune.tuner import Tuner


def test_both_races_say_interrupted_in_the_drivers_word() -> None:
    """`run_race` asks a stopped race for its result with this word and exits 130 on it: both races must know it."""
    assert races.INTERRUPTED == TUNE_INTERRUPTED == IMPACT_INTERRUPTED


def test_both_races_have_what_the_driver_calls() -> None:
    for race in (Tuner, ImpactRace):
        assert all(callable(getattr(race, name, None)) for name in ("open_executor", "run", "result")), race


def test_jobs_and_cluster_are_refused_together_and_alone_accepted() -> None:
    with pytest.raises(DataError, match="--jobs and --cluster exclude each other"):
        races.check_where(2, "local:2")
    for jobs, cluster in ((2, None), (None, "local:2"), (None, None)):
        races.check_where(jobs, cluster)
