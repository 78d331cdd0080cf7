"""On Dask, a worker that is ahead takes the next task while a slower one is still on the oldest.

The executor yields results in task order (the merge must not depend on who finished first),
but it must not wait for the oldest task to finish before it sends more: a worker that finished
its tasks would then sit idle behind a slower one. One long task and many short ones on a
LocalCluster of two: every short task but the one that may wait in the long one's worker's
queue starts while the long one is still playing (with a window that waited for the oldest
task, the ten or so sent after it would all wait for it).
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass
from typing import Any

import pytest

from sengoku.tune.executors import BUNDLE, DaskCluster

LONG, SHORT, SHORTS = 4.0, 0.05, 16  # seconds; the short tasks take a worker well under the long task's time


def _sleep(seconds: float, index: int, _: int, base: Any = None) -> tuple[int, int, float, float]:
    """A task that only waits (no CPU: the machine's load hardly moves it): its index, worker, start and end."""
    began = time.time()
    time.sleep(seconds)
    return index, os.getpid(), began, time.time()


def test_a_worker_ahead_is_not_held_behind_the_oldest_task(dask_scheduler: str) -> None:
    cloudpickle = pytest.importorskip("cloudpickle")
    cloudpickle.register_pickle_by_value(sys.modules[__name__])  # the workers cannot import a test module
    try:
        cluster = DaskCluster(dask_scheduler)
        try:
            tasks = [(LONG, 0, 1, None)] + [(SHORT, k, k + 1, None) for k in range(1, SHORTS + 1)]
            results = list(cluster.run(tasks, work=_sleep))
        finally:
            cluster.close()
    finally:
        cloudpickle.unregister_pickle_by_value(sys.modules[__name__])
    assert [r[0] for r in results] == list(range(SHORTS + 1))  # in task order
    long_end = results[0][3]
    late = [r[0] for r in results[1:] if r[2] >= long_end]
    assert len(late) <= 1, f"short tasks {late} waited for the long one to finish"
    assert len({r[1] for r in results}) == 2  # both workers played


@dataclass(frozen=True)
class _Deck:
    """Stands for the deck a step changes (`tune.build.Base`): a token the executor sends it once by."""

    token: str


def _echo(index: int, a: int, b: int, base: _Deck | None = None) -> tuple[int, int, int, str | None]:
    """A task that plays nothing: what it was given, and the deck it found on its worker."""
    return index, a, b, None if base is None else base.token


def test_tasks_away_from_the_end_go_in_bundles_and_come_back_in_order(dask_scheduler: str) -> None:
    cloudpickle = pytest.importorskip("cloudpickle")
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    try:
        cluster = DaskCluster(dask_scheduler)
        try:
            plain = [(k, 10 * k, 10 * k + 10, None) for k in range(40)]
            plain_results = list(cluster.run(plain, work=_echo))
            plain_sent = cluster.sent
            # two steps' decks in one run: a bundle never mixes them, and each task meets its own
            steps = [(k, k, k + 1, _Deck("first" if k < 23 else "second")) for k in range(50)]
            step_results = list(cluster.run(steps, work=_echo))
        finally:
            cluster.close()
    finally:
        cloudpickle.unregister_pickle_by_value(sys.modules[__name__])
    assert plain_results == [(k, a, b, None) for k, a, b, _ in plain]
    # 2 worker threads: the last 2 * 2 * BUNDLE = 16 tasks one by one, the 24 before them in bundles of 4
    assert BUNDLE == 4
    assert plain_sent == 24 // 4 + 16
    assert step_results == [(k, a, b, deck.token) for k, a, b, deck in steps]
