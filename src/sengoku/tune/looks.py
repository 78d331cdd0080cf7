"""Where a race's games are played: a look's tasks, made as the workers take them, and their integers merged in order.

A look plays runs start..stop-1 of some decks against the incumbent: groups of up to `GROUP`
candidates (the incumbent is played once per group), each cut into tasks of about
`TASK_SECONDS` of a worker's time (finer when the look is short, never under `MIN_TASK_GAMES`
games), made only when the executor asks for the next task, so a look holds the groups in play,
not the pool. The executor gives back the results in task order whatever worker finished first,
and each is merged into the look's `race.Gains` at its group's place, so every decision taken on
them is the same for any executor and number of workers.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Callable, Iterator
from typing import Any

from sengoku.goldfish.play.simulate import chunks
from sengoku.tune.build import Base
from sengoku.tune.executors import Task
from sengoku.tune.race import Gains, Objective
from sengoku.tune.work import TaskResult

GROUP = 32  # candidates per task beside the incumbent (the incumbent is played once per group)
TASK_SECONDS = 1.0  # aim for tasks worth about a second of a worker's time
MIN_TASK_GAMES = 200

MakeGroup = Callable[[int, int], tuple[Any, Base | None]]  # (g, h) -> the task group of items g..h-1, and its base


def per_run(racing: int) -> int:
    """Return the games one run of `racing` candidates costs: theirs, and the incumbent's once per group."""
    return racing + -(-racing // GROUP)


class Looks:
    """Plays a tune's looks on its executor (`executor.run`), sizing tasks from the timings of the ones before."""

    def __init__(self, executor: Any, objective: Objective, turns: int) -> None:
        self.executor = executor
        self.objective, self.turns = objective, turns
        self.seconds_per_game = 1 / 5000  # refined from the tasks' own timings (task sizes only)

    def tasks(self, count: int, group: MakeGroup, start: int, stop: int) -> Iterator[tuple[int, Task]]:
        """Yield (first item's index, task) covering runs start..stop-1 of `count` decks, about a second each.

        `group(g, h)` makes the task group of items g..h-1, when its first task is asked for;
        nothing here keeps it after its last, so an executor that takes tasks as it needs them
        holds only the groups it is playing.
        """
        total = (stop - start) * per_run(count)
        per_task = max(MIN_TASK_GAMES, min(int(TASK_SECONDS / self.seconds_per_game),
                                           total // max(1, 2 * self.executor.workers)))
        for g in range(0, count, GROUP):
            h = min(count, g + GROUP)
            made, base = group(g, h)
            parts = max(1, -(-(stop - start) * (h - g + 1) // per_task))
            for a, b in chunks(stop - start, parts):
                yield g, (made, start + a, start + b, base)

    def play(self, count: int, group: MakeGroup, start: int, stop: int, gains: Gains, own: Counter[int | None],
             played: Callable[[int], None]) -> None:
        """Play runs start..stop-1 of `count` decks (made group by group by `group`) against the incumbent;
        merge into `gains` (in the same order as the decks) and `own`; `played(games)` after each task."""
        order: deque[int] = deque()  # the group of each task handed out, in order: results come back in that order

        def tasks() -> Iterator[Task]:
            for g, task in self.tasks(count, group, start, stop):
                order.append(g)
                yield task

        seconds = games = 0.0
        for result in self.executor.run(tasks()):
            self.merge(order.popleft(), result, gains, own)
            seconds += result.seconds
            games += result.games
            played(result.games)
        if games:
            self.seconds_per_game = seconds / games

    def merge(self, g: int, result: TaskResult, gains: Gains, own: Counter[int | None]) -> None:
        """Add a task's integers to the look's: its candidates' at their group's place `g`, the incumbent's once."""
        if result.gains is not None:  # summed by the worker
            gains.merge(g, *result.gains)
        elif result.kills:  # a group of compiled plans: its joint counts, summed here
            gains.merge(g, *Gains.of([self.objective.improvement(counter, self.turns) for counter in result.kills]))
        if g == 0:  # every group plays the incumbent: count its games once
            own.update(result.incumbent)
