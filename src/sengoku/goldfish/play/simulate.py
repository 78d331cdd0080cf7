"""Play many goldfish games and tally them: one process, or several over contiguous run chunks.

Run i is always played with its own seeds (`seeds.seed_run(chance, seed, i)`), and a chunk returns
only integer counts, so merging the chunks' tallies gives exactly what one process would
have counted: results do not depend on `--jobs` (SPEC G3).
"""

from __future__ import annotations

import dataclasses
import time
from array import array
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from sengoku.engine import GameRecord, GameRunner, make_policy
from sengoku.goldfish.options import PlayOptions, PolicySpec
from sengoku.goldfish.play.pool import ProcessPool, shared
from sengoku.goldfish.play.seeds import Chance, seed_run
from sengoku.goldfish.statistics.stats import CurveTally, WON_BEFORE

BATCH = 1024  # games held before their rows are folded into histograms (bounds memory)
MIN_RUNS_PER_JOB = 1000  # below this, a process costs more than it saves (on games as fast as the script's)
PROBE_RUNS = 8  # runs played first in this process and timed, when the run count alone would start fewer processes
SECONDS_PER_JOB = 0.5  # a process more for each half second of play those runs foretell (one starts in about 0.1 s)


@dataclass
class Plan:
    """Everything needed to play runs: fixed for a whole simulation, shared by every worker.

    `options` is the simulation's options record, its mode the one played; the engine's side of
    it (turns, seed, going, policy, the opponent's choices, play-on) is read from there.
    """

    tables: Any  # sengoku.engine DeckTables
    commander: int  # card index of the Commander (S1)
    options: PlayOptions
    packed: Sequence[int]  # per card index, its packed opening-hand fields (see hand.py)
    measures: tuple[str, ...]
    opponent: Any = None  # the opponent deck's DeckTables; None: a mirror (G4)
    kill_turns: bool = False  # keep each run's kill turn, in run order (`Tally.per_run`), to pick runs to trace

    def with_options(self, **changes: Any) -> Plan:
        """The same plan with some options changed (`plan.with_options(seed=3)`), checked as any record is."""
        return dataclasses.replace(self, options=dataclasses.replace(self.options, **changes))


class Tally:
    """The integer counts of a number of games: mergeable, and small whatever the run count."""

    def __init__(self, measures: Sequence[str], turns: int, per_run: bool = False) -> None:
        self.runs = 0
        # With `per_run`: run i's kill turn at index i (0: not won), one byte a run (turns ≤ 200).
        self.per_run: array[int] | None = array("B") if per_run else None
        self.turns = turns
        self.hands: Counter[int] = Counter()
        self.curve = CurveTally(measures, turns)
        self.first_level3: Counter[int | None] = Counter()
        self.first_level4: Counter[int | None] = Counter()
        self.kill_turn: Counter[int | None] = Counter()
        self.skipped_abilities = 0

    def merge(self, other: Tally) -> None:
        self.runs += other.runs
        self.hands.update(other.hands)
        self.curve.merge(other.curve)
        self.first_level3.update(other.first_level3)
        self.first_level4.update(other.first_level4)
        self.kill_turn.update(other.kill_turn)
        self.skipped_abilities += other.skipped_abilities
        if self.per_run is not None and other.per_run is not None:
            self.per_run.extend(other.per_run)  # chunks are merged in run order

    def add_games(self, games: Sequence[Any], packed: Callable[[int], int]) -> None:
        """Count a batch of `GameRecord`s; `packed(card)` is a card's packed opening-hand fields.

        A game that stopped at its win played fewer than `turns` turns: its rows count only for
        the turns it played, and a Level 3/4 ally it never showed counts as `WON_BEFORE`.
        """
        turns = self.turns
        by_length: dict[int, list[tuple[int, ...]]] = {}
        hands, first3, first4, won = [], [], [], []
        skipped = 0
        for g in games:
            hands.append(sum(map(packed, g.opening_hand)))
            rows = g.turns
            length = len(rows)
            if length == turns:
                first3.append(g.first_level3)
                first4.append(g.first_level4)
            else:  # stopped at its win (G5)
                first3.append(WON_BEFORE if g.first_level3 is None else g.first_level3)
                first4.append(WON_BEFORE if g.first_level4 is None else g.first_level4)
            if length:
                by_length.setdefault(length, []).extend(rows)
            won.append(g.won_turn)
            s = g.skipped_abilities
            skipped += s if s.__class__ is int else _skipped(s)
        self.runs += len(hands)
        self.hands.update(hands)
        for length in sorted(by_length):
            self.curve.add_rows(by_length[length], length)
        self.first_level3.update(first3)
        self.first_level4.update(first4)
        self.kill_turn.update(won)
        self.skipped_abilities += skipped
        if self.per_run is not None:
            self.per_run.extend(0 if w is None else w for w in won)


def _skipped(value: Any) -> int:
    # the engine reports skipped abilities (C5) as a count, or per ability as a mapping
    if isinstance(value, int):
        return value
    if hasattr(value, "values"):
        return sum(value.values())
    return len(value)


def make_runner(plan: Plan, record: list[dict[str, Any]] | None = None, policy: Any = None) -> GameRunner:
    """Return a runner that plays the plan's games (with `record`, it records their events, G8).

    `policy`, a policy object, plays instead of the plan's own (a benchmark's instrumented policy).
    """
    o = plan.options
    chooser = policy if policy is not None else make_policy(o.policy.name, o.policy.settings_dict())
    return GameRunner(plan.tables, chooser, Chance(), o.turns, o.going_first, plan.commander, opponent=plan.opponent,
                      opponent_defends=o.opponent_defends, play_on=o.play_on, record=record)


def play_run(runner: GameRunner, seed: int, index: int) -> GameRecord:
    """Play run `index` under master seed `seed` on `runner` (a `make_runner`).

    The one way a run is played: the simulation plays every run through it, and a trace plays its
    run again through it (G8), so a trace is always the game the simulation counted.
    """
    seed_run(runner.chance, seed, index)
    return runner.play()


def play_runs(plan: Plan, start: int, stop: int, policy: Any = None) -> Iterator[GameRecord]:
    """Play runs start..stop-1 of `plan` one by one (through `play_run`), as the iterator is read.

    `policy`, a policy object, plays instead of the plan's own (see `make_runner`).
    """
    runner = make_runner(plan, policy=policy)
    seed = plan.options.seed
    for i in range(start, stop):
        yield play_run(runner, seed, i)


def play_chunk(plan: Plan, start: int, stop: int) -> Tally:
    """Play runs start..stop-1 and return their tally."""
    tally = Tally(plan.measures, plan.options.turns, plan.kill_turns)
    packed = plan.packed.__getitem__
    games = []
    for game in play_runs(plan, start, stop):
        games.append(game)
        if len(games) >= BATCH:
            tally.add_games(games, packed)
            games.clear()
    tally.add_games(games, packed)
    return tally


def chunks(runs: int, parts: int) -> list[tuple[int, int]]:
    """Split run indices 0..runs-1 into `parts` contiguous, near-equal ranges."""
    parts = max(1, min(parts, runs))
    edges = [runs * k // parts for k in range(parts + 1)]
    return [(a, b) for a, b in zip(edges, edges[1:]) if b > a]


def processes_for(jobs: int, runs: int, per_job: int = MIN_RUNS_PER_JOB) -> int:
    """Return the processes to play `runs` runs (or games) on, of `jobs` asked for: fewer than
    `per_job` (MIN_RUNS_PER_JOB) a process stay in fewer processes (what --jobs's help says; `map_chunks`
    starts more for slow games)."""
    return max(1, min(jobs, runs // per_job or 1))


def _work(span: tuple[int, int]) -> Any:
    plan, chunk = shared()  # what map_chunks started the pool with
    return chunk(plan, *span)


def play_all(plan: Plan, runs: int, jobs: int = 1, progress: Callable[[int], None] | None = None,
             start: int = 0, total: Tally | None = None, per_job: int = MIN_RUNS_PER_JOB) -> Tally:
    """Play runs start..start+runs-1 over up to `jobs` processes; merge the chunks in run order into `total`.

    Small simulations of fast games stay in this process: forking costs more than it would save (a
    process plays at least `per_job` runs; fewer for a slow policy such as the search, and fewer when
    the first runs, timed, foretell slow games: see `map_chunks`).
    `progress(done)` is called with the number of runs `total` holds so far.
    """
    total = Tally(plan.measures, plan.options.turns, plan.kill_turns) if total is None else total
    return map_chunks(plan, play_chunk, total, start, start + runs, jobs, progress, per_job)


def map_chunks(plan: Any, chunk: Callable[[Any, int, int], Any], total: Any, start: int, stop: int,
               jobs: int = 1, progress: Callable[[int], None] | None = None, per_job: int = MIN_RUNS_PER_JOB) -> Any:
    """Play runs start..stop-1 as `chunk(plan, a, b)` over contiguous ranges, merged into `total` in run order.

    `total` (and what `chunk` returns) is a tally with `merge` and `runs`: integer counts, so the
    merged result does not depend on `jobs` or on the chunking (one stream per run).
    `progress(done)` is called with `total.runs` after each chunk. Up to `jobs` processes: one per
    `per_job` runs, or, when that is fewer than `jobs`, one per `SECONDS_PER_JOB` of play that the first
    `PROBE_RUNS` runs, played here and timed, foretell for the rest (the results are the same either way).
    """
    runs = stop - start
    asked, jobs = jobs, processes_for(jobs, runs, per_job)
    if jobs < asked and runs > PROBE_RUNS:
        # The run count alone is a rule for fast games; a look-ahead or a search plays a few dozen games a
        # second, where a few hundred runs are worth every process asked for. So the first runs are
        # played here, timed, and a process is started for each half second of play they foretell.
        began = time.perf_counter()
        total.merge(chunk(plan, start, start + PROBE_RUNS))
        seconds = (time.perf_counter() - began) / PROBE_RUNS * (runs - PROBE_RUNS)
        if progress:
            progress(total.runs)
        start, runs = start + PROBE_RUNS, runs - PROBE_RUNS
        jobs = max(jobs, min(asked, int(seconds / SECONDS_PER_JOB)))
    # More chunks than processes: a worker slowed by another program hands its share over, and a
    # progress bar moves. Results do not depend on the chunking (one stream per run).
    spans = [(a + start, b + start) for a, b in chunks(runs, jobs * 4 if (progress or jobs > 1) else 1)]
    if jobs == 1:
        for a, b in spans:
            total.merge(chunk(plan, a, b))
            if progress:
                progress(total.runs)
        return total

    with ProcessPool(jobs, shared=(plan, chunk)) as pool:
        for part in pool.imap(_work, spans):  # in chunk (= run) order
            total.merge(part)
            if progress:
                progress(total.runs)
    return total
