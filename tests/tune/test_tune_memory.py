"""A tune holds only what a look needs: its candidates are compiled group by group as they play, and dropped.

Before, every candidate of a step was compiled at once and held through the step (162 MB for
the sample set's ~900 candidates, gigabytes for a database of thousands of cards). The games
must not change: the lazy tuner is checked against the eager one it replaced (`EagerTuner`
below: every candidate compiled before the first game, the tasks listed whole), on the same
seed, for the whole result, path and final deck included.
"""

from __future__ import annotations

import json
import weakref
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from sengoku.goldfish.play.pairs import PairPlan, play_pairs_chunk
from sengoku.goldfish.play.simulate import chunks
from sengoku.tune import tuner as tuner_module
from sengoku.tune.candidates import legal_candidates
from sengoku.tune.executors import InProcess, ProcessPool
from sengoku.tune.tuner import GROUP, MIN_TASK_GAMES, TASK_SECONDS, Tuner
from sengoku.tune.work import group_plan

ROOT = Path(__file__).resolve().parents[2]
WEAKENED = ROOT / "decklists" / "tune" / "no-level4.toml"


class EagerTuner(Tuner):
    """The tuner as it was: a step compiles every candidate first and lists every task of a look at once."""

    def _race(self, incumbent: Any, candidates: list[Any], refused: int) -> str:
        self._compiled = {c.deck: self.plan(c.deck) for c in candidates}  # all of them, held through the step
        return super()._race(incumbent, candidates, refused)

    def _tasks(self, incumbent: Any, decks: Sequence[Any], start: int, stop: int,
               policy: str | None = None) -> Iterator[tuple[int, Any]]:
        compiled = getattr(self, "_compiled", {}) if policy is None else {}
        plans = [compiled[d] if d in compiled else self.plan(d, policy) for d in decks]
        groups = [(g, group_plan(incumbent, list(plans[g:g + GROUP]))) for g in range(0, len(plans), GROUP)]
        total = (stop - start) * sum(len(p.plans) for _, p in groups)
        per_task = max(MIN_TASK_GAMES, min(int(TASK_SECONDS / self._seconds_per_game),
                                           total // max(1, 2 * self.executor.workers)))
        tasks = []
        for g, pair_plan in groups:
            parts = max(1, -(-(stop - start) * len(pair_plan.plans) // per_task))
            tasks += [(g, (pair_plan, start + a, start + b)) for a, b in chunks(stop - start, parts)]
        return iter(tasks)


def _tune(cls: type[Tuner], executor: Any = None, **options: Any) -> dict[str, Any]:
    result = cls(WEAKENED, executor=executor, **options).run()
    return json.loads(result.to_json())


@pytest.mark.parametrize("jobs", [1, 2])
def test_the_same_tune_as_with_every_candidate_compiled_first(level4_pool: Path, jobs: int) -> None:
    options = {"pool": level4_pool, "budget": 12_000, "check_runs": 300, "seed": 3}
    executor = ProcessPool(jobs) if jobs > 1 else InProcess()
    try:
        lazy = _tune(Tuner, executor, **options)
    finally:
        executor.close()
    eager = _tune(EagerTuner, **options)
    assert lazy == eager
    assert lazy["races"] and lazy["games"] > 10_000  # the tune raced: the comparison says something


def test_the_whole_pool_with_a_small_budget_plays_the_same_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """The sample set's whole pool (about 900 candidates, 29 groups), a look cut short by the budget.

    A budget below the first screening look's games is refused before any game, so the first look
    is made two runs long (1,800 games, for both tuners): this budget plays it whole and cuts the
    second look short, at a twentieth of the games of the real first look.
    """
    monkeypatch.setattr(tuner_module, "SCREEN_FIRST", 2)
    options = {"budget": 2_000, "check_runs": 0, "seed": 5}
    assert _tune(Tuner, **options) == _tune(EagerTuner, **options)


def test_groups_give_each_candidate_the_games_of_one_big_group(level4_pool: Path) -> None:
    """A candidate's paired games do not depend on its group: the merge of groups is one group's tally."""
    tuner = Tuner(WEAKENED, pool=level4_pool, budget=1)
    candidates, _ = legal_candidates(tuner.incumbent, tuner.setup.like, tuner.pool, tuner.setup.card_db,
                                     tuner.validator)
    assert len(candidates) > GROUP  # several groups
    incumbent = tuner.plan(tuner.incumbent)
    decks = [c.deck for c in candidates]
    kills: list[Counter[tuple[int, int]]] = [Counter() for _ in decks]
    own: Counter[int | None] = Counter()
    tuner._play(incumbent, decks, 100, 110, kills, own)
    whole = play_pairs_chunk(PairPlan([incumbent, *(tuner.plan(d) for d in decks)], [], [[] for _ in range(len(decks) + 1)]),
                             100, 110)
    assert kills == [p.kill for p in whole.pairings]
    assert own == whole.tallies[0].kill_turn


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_look_holds_a_few_groups_not_the_pool(monkeypatch: pytest.MonkeyPatch, jobs: int) -> None:
    """At no time are more compiled candidates alive than a few groups' worth, whatever the pool."""
    live, most = [0], [0]
    plan = Tuner.plan

    def dropped() -> None:
        live[0] -= 1

    def counted(self: Tuner, deck: Any, policy: str | None = None) -> Any:
        made = plan(self, deck, policy)
        live[0] += 1
        weakref.finalize(made, dropped)
        most[0] = max(most[0], live[0])
        return made

    monkeypatch.setattr(tuner_module.Tuner, "plan", counted)
    monkeypatch.setattr(tuner_module, "SCREEN_FIRST", 2)  # a first look of 1,800 games, the whole pool
    executor = ProcessPool(jobs) if jobs > 1 else InProcess()
    try:
        tuner = Tuner(WEAKENED, budget=2_000, check_runs=0, executor=executor)
        result = tuner.run()
    finally:
        executor.close()
    assert result.races[0].candidates > 20 * GROUP  # the sample set's pool: hundreds of candidates
    assert most[0] <= (2 * jobs + 4) * GROUP, most[0]
