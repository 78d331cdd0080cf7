"""A tune's candidates are checked from the counts a change touches and compiled where they play; the games do not change.

Before issue 38 the client validated every one-card change whole and compiled every legal one,
and sent the compiled plans to the workers. Now it checks each change from the counts it
touches (`tune.check`), compiles only the deck being changed, and sends each candidate as its
change (`tune.build`); the workers compile them. The games must not change: the tuner is
checked against the path it replaced (`ReferenceTuner` below, the validator on every changed
deck and every candidate compiled here), on the same seed, for the whole result, path and final
deck included, on one process, two, and a Dask LocalCluster of two.
"""

from __future__ import annotations

import json
import pickle
import weakref
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from sengoku.goldfish.play.pairs import PairPlan, play_pairs_chunk
from sengoku.tune import build
from sengoku.tune import tuner as tuner_module
from sengoku.tune.candidates import Candidate, changes
from sengoku.tune.deck import Change, decklist
from sengoku.tune.executors import DaskCluster, InProcess, ProcessPool
from sengoku.tune.race import Gains
from sengoku.tune.looks import GROUP
from sengoku.tune.tuner import Incumbent, Tuner
from sengoku.tune.work import group_plan

ROOT = Path(__file__).resolve().parents[2]
WEAKENED = ROOT / "decklists" / "tune" / "no-level4.toml"


class ReferenceTuner(Tuner):
    """The tuner as it was: every changed deck validated whole, every candidate compiled on the client."""

    def candidates(self) -> tuple[list[Candidate], int]:
        kinds = {c.id: c.kind for c in self.setup.card_db.cards}
        found, refused, seen = [], 0, {self.incumbent}
        for change in changes(self.incumbent, self.pool, kinds, self.setup.like.mode):
            deck = self.incumbent.apply(change)
            if deck in seen:
                continue
            seen.add(deck)
            if self.validator.validate_deck(decklist(deck, self.setup.like)).valid:
                found.append(Candidate(change, self.incumbent))
            else:
                refused += 1
        return found, refused

    def _group(self, incumbent: Incumbent, chunk: Sequence[tuple[str, str | None, str | None]]) -> tuple[Any, None]:
        return group_plan(incumbent.plan, [self.plan(incumbent.deck.apply(Change(*c))) for c in chunk]), None


def _tune(cls: type[Tuner], executor: Any = None, **options: Any) -> dict[str, Any]:
    try:
        result = cls(WEAKENED, executor=executor, **options).run()
    finally:
        if executor is not None:
            executor.close()
    return json.loads(result.to_json())


@pytest.fixture(scope="module")
def replaced(level4_pool: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """The options of the tune below and the path it replaced's result on them (made once: the same for each place)."""
    options = {"pool": level4_pool, "budget": 12_000, "check_runs": 300, "seed": 3}
    return options, _tune(ReferenceTuner, **options)


@pytest.mark.parametrize("where", ["jobs 1", "jobs 2", "local cluster"])
def test_the_same_tune_as_the_path_it_replaced(replaced: tuple[dict[str, Any], dict[str, Any]], where: str,
                                               request: pytest.FixtureRequest) -> None:
    options, reference = replaced
    if where == "local cluster":
        executor: Any = DaskCluster(request.getfixturevalue("dask_scheduler"))
    else:
        executor = ProcessPool(2) if where == "jobs 2" else InProcess()
    new = _tune(Tuner, executor, **options)
    assert new == reference
    assert new["changes"] and new["races"] and new["games"] > 10_000  # the tune raced and accepted: the comparison says something


WHOLE_POOL = {"budget": 2_000, "check_runs": 0, "seed": 5}


@pytest.fixture(scope="module")
def whole_pool_reference() -> dict[str, Any]:
    """The path it replaced's result on the whole pool (below), made once for both places."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tuner_module, "SCREEN_FIRST", 2)
        return _tune(ReferenceTuner, **WHOLE_POOL)


@pytest.mark.parametrize("where", ["default", "local cluster"])
def test_the_whole_pool_plays_the_same_games(monkeypatch: pytest.MonkeyPatch, where: str,
                                             whole_pool_reference: dict[str, Any],
                                             request: pytest.FixtureRequest) -> None:
    """The sample set's whole pool (about 900 candidates, 29 groups), a look cut short by the budget.

    A budget below the first screening look's games is refused before any game, so the first look
    is made two runs long (1,800 games, for both tuners): this budget plays it whole and cuts the
    second look short, at a twentieth of the games of the real first look. On a LocalCluster a look
    of this many tasks goes mostly in bundles of tasks (`executors.BUNDLE`).
    """
    monkeypatch.setattr(tuner_module, "SCREEN_FIRST", 2)
    executor = DaskCluster(request.getfixturevalue("dask_scheduler")) if where == "local cluster" else None
    new = _tune(Tuner, executor, **WHOLE_POOL)
    assert new == whole_pool_reference
    assert new["races"][0]["candidates"] > 20 * GROUP
    if executor is not None:  # fewer Dask tasks than the first look's groups alone, each a task of its own
        assert executor.sent < new["races"][0]["candidates"] / GROUP, executor.sent


def test_a_candidate_built_from_its_change_is_the_one_compiled_whole(level4_pool: Path) -> None:
    """`build.candidate_plan` gives the plan `Tuner.plan` compiles from the whole deck: the same tables, byte for byte."""
    tuner = Tuner(WEAKENED, budget=1)
    incumbent = tuner.incumbent_of(tuner.incumbent)
    candidates, _ = tuner.candidates()
    for cand in candidates[::37] + candidates[-3:]:  # swaps, adds and removes, in both sections
        group, base = tuner._group(incumbent, [(cand.change.section, cand.change.out, cand.change.into)])
        assert group.changes == ((cand.change.section, cand.change.out, cand.change.into),)  # the change alone
        built = build.built_group(base, group).plans[1]
        whole = tuner.plan(cand.deck)
        assert pickle.dumps(built.tables) == pickle.dumps(whole.tables), cand.change
        assert (built.commander, built.packed, built.options, built.measures) == \
               (whole.commander, whole.packed, whole.options, whole.measures)
        assert pickle.dumps(built.opponent) == pickle.dumps(whole.opponent)


def test_groups_give_each_candidate_the_games_of_one_big_group(level4_pool: Path) -> None:
    """A candidate's paired games do not depend on its group: the merge of groups is one group's tally."""
    tuner = Tuner(WEAKENED, pool=level4_pool, budget=1)
    candidates, _ = tuner.candidates()
    assert len(candidates) > GROUP  # several groups
    incumbent = tuner.incumbent_of(tuner.incumbent)
    changes = [(c.change.section, c.change.out, c.change.into) for c in candidates]
    gains = Gains(len(candidates))
    own: Counter[int | None] = Counter()
    tuner._play(len(candidates), lambda g, h: tuner._group(incumbent, changes[g:h]), 100, 110, gains, own)
    whole = play_pairs_chunk(PairPlan([incumbent.plan, *(tuner.plan(c.deck) for c in candidates)], [],
                                      [[] for _ in range(len(candidates) + 1)]), 100, 110)
    objective, turns = tuner.setup.objective, tuner.setup.options.turns
    assert [gains.sums(k) for k in range(len(candidates))] == [objective.improvement(p.kill, turns)
                                                                for p in whole.pairings]
    assert any(gains.total)  # some candidates played differently from the incumbent
    assert own == whole.tallies[0].kill_turn


def test_a_look_holds_a_few_groups_not_the_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    """At no time are more compiled candidates alive than a few groups' worth, whatever the pool; the
    client compiles none of them (one process: the tasks are built and played here)."""
    live, most, made = [0], [0], [0]
    candidate_plan = build.candidate_plan

    def dropped() -> None:
        live[0] -= 1

    def counted(*args: Any, **kwargs: Any) -> Any:
        plan = candidate_plan(*args, **kwargs)
        live[0] += 1
        made[0] += 1
        weakref.finalize(plan, dropped)
        most[0] = max(most[0], live[0])
        return plan

    whole = [0]
    plan = Tuner.plan

    def compiled_whole(self: Tuner, deck: Any, policy: Any = None) -> Any:
        whole[0] += 1
        return plan(self, deck, policy)

    monkeypatch.setattr(build, "candidate_plan", counted)
    monkeypatch.setattr(Tuner, "plan", compiled_whole)
    monkeypatch.setattr(tuner_module, "SCREEN_FIRST", 2)  # a first look of 1,800 games, the whole pool
    result = Tuner(WEAKENED, budget=2_000, check_runs=0).run()
    assert result.races[0].candidates > 20 * GROUP  # the sample set's pool: hundreds of candidates
    assert made[0] >= result.races[0].candidates  # every candidate was built from its change ...
    assert whole[0] == len(result.races)  # ... and the client compiled only each step's incumbent
    assert most[0] <= (build.KEPT + 1) * GROUP, most[0]
