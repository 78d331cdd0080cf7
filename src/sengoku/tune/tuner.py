"""`tune()`: hill-climb a deck one legal card change at a time, each change won in a paired race.

A step: every legal one-card change of the current deck (the incumbent) is a candidate
(`tune.candidates`). They race (`tune.race`) in two stages, each on fresh run indices:
**screening** plays every candidate and the incumbent on the same runs (50, then 100, 200, ...)
and keeps the best quarter by mean each time (dropping those that cannot gain), until at most
four finalists are left; **confirmation** plays the finalists on runs the screening never saw,
look after look (100, 200, 400, ... runs), until one is better with the one-sided error rate
corrected for the finalists and the looks (accepted: the next step starts from it), or none can
be. A failed confirmation starts another attempt (screening with twice the runs); after three
the tune says no candidate can improve. Each stage plays fresh run indices, after those of every
stage before, so no deal that chose a change is used to judge it or the next. The tune stops
when the budget of games is spent, when no candidate can improve, or after `max_changes`
accepted changes.

Everything the decisions read is integer sums merged in run order, and round sizes depend only
on those: the same inputs and seed give the same path and final deck on any executor.
"""

from __future__ import annotations

import dataclasses
import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sengoku.carddb.models import CardDatabase
from sengoku.carddb.playable import load_models
from sengoku.decklist.model import Decklist
from sengoku.engine import choose_commander, compile_deck
from sengoku.goldfish.api import prepare_engine, read_deck
from sengoku.goldfish.errors import GoldfishError
from sengoku.goldfish.other_games import MAX_RUNS
from sengoku.goldfish.options import PlayOptions, PolicySpec
from sengoku.goldfish.play.pairs import PairPlan
from sengoku.goldfish.play.simulate import Plan
from sengoku.tune.build import Base, CardRows, Group
from sengoku.tune.candidates import Candidate, default_pool, legal_candidates, read_pool
from sengoku.tune.deck import Deck, card_names
from sengoku.tune.executors import InProcess, open_executor
from sengoku.tune.looks import Looks, MakeGroup, per_run
from sengoku.tune.race import Gains, Objective, interval95, judge, look_level, screen_survivors
from sengoku.tune.result import (STOP_BUDGET, STOP_INTERRUPTED, STOP_MAX_CHANGES, STOP_NO_CANDIDATE,
                                 STOP_NO_IMPROVEMENT, Pairwise, Race, Step, TuneResult)
from sengoku.tune.work import group_plan
from sengoku.validate.api import Validator

SCREEN_FIRST = 50  # runs of the first screening look of a step's first attempt (doubled each attempt)
SCREEN_KEEP = 4  # a screening look keeps the best quarter of the candidates left ...
FINALISTS = 4  # ... until at most this many are left: they go to the confirmation
CONFIRM_FIRST = 100  # runs before the confirmation's first look
GROWTH = 2  # each look doubles the runs
CONFIRM_RUNS = 25_600  # a confirmation ends after this many runs (9 looks) whatever it found
ATTEMPTS = 3  # screen-and-confirm attempts a step makes before no candidate can improve
DEFAULT_BUDGET = 1_000_000
DEFAULT_ERROR_RATE = 0.05
DEFAULT_MIN_GAIN = {"kill-turn": 0.02, "won-by": 0.005}
DEFAULT_CHECK_RUNS = 10_000
PlainChange = tuple[str, str | None, str | None]  # a change as a task carries it: (section, out, into)


@dataclass(frozen=True)
class Trial:
    """The confirmation look that accepted a change."""

    level: float
    look: int
    runs: int
    run_start: int
    attempt: int
    finalists: int


@dataclass(frozen=True)
class Incumbent:
    """The deck a step changes: compiled once (`plan`), and as the base the workers build its candidates from."""

    deck: Deck
    plan: Plan
    base: Base


class TuneError(GoldfishError):
    """Options `tune` cannot run with (exit 2)."""


class BudgetTooSmallError(TuneError):
    """A budget that cannot pay for the first screening look: the tune could decide nothing (exit 2).

    `needed` is the least budget that finishes that look; `candidates` how many it would race.
    """

    def __init__(self, budget: int, needed: int, candidates: int) -> None:
        self.budget, self.needed, self.candidates = budget, needed, candidates
        super().__init__(f"--budget {budget:,} is less than the first screening look needs: {candidates:,} "
                         f"candidates on {SCREEN_FIRST} runs each, with the start deck's games, take {needed:,} games, "
                         f"so the tune could decide nothing. Give --budget {needed:,} or more (accepting a change "
                         "takes more: screening only narrows the field), or a smaller --pool")


@dataclass
class Progress:
    """Where a tune is, for a progress line."""

    step: int
    look: str  # the stage and look: "screening 1", "confirmation 1.3", "check"
    candidates: int
    games: int
    budget: int
    value: float  # the incumbent's objective over the race's runs so far


@dataclass
class Setup:
    """The fixed facts of a tune: options (the mode the one played), the card database and the compiled opponent."""

    objective: Objective
    options: PlayOptions
    card_db: CardDatabase
    opponent_tables: Any
    opponent: dict[str, Any]
    like: Decklist  # the start decklist: its name, game, mode, format


class Tuner:
    """A tune in progress; `run()` plays it, `result()` says where it is (also after Ctrl-C)."""

    def __init__(self, deck: Decklist | Path | str | None, db: CardDatabase | Path | str | None = None, *,
                 options: PlayOptions | None = None, objective: str = "kill-turn", budget: int = DEFAULT_BUDGET,
                 max_changes: int | None = None, pool: Path | str | None = None,
                 error_rate: float = DEFAULT_ERROR_RATE, min_gain: float | None = None,
                 check_runs: int = DEFAULT_CHECK_RUNS, verify_runs: int = 0, executor: Any = None,
                 progress: Callable[[Progress], None] | None = None, **option_values: Any) -> None:
        """`options` and the keyword options are `goldfish()`'s but `commander` (every deck plays the
        Commander S1 chooses); `jobs` is the local processes `open_executor` starts."""
        options = PlayOptions.given(options, **option_values)
        if options.commander is not None:
            raise TuneError("tune plays every deck with the Commander S1 chooses: no commander option")
        try:
            parsed = Objective.parse(objective, options.turns)
        except ValueError as exc:
            raise TuneError(str(exc)) from None
        if budget < 1:
            raise TuneError(f"--budget must be at least 1 game, not {budget}")
        if max_changes is not None and max_changes < 0:
            raise TuneError(f"--max-changes must be 0 or more, not {max_changes}")
        if not 0 < error_rate < 1:
            raise TuneError(f"--error-rate must be between 0 and 1, not {error_rate}")
        min_gain = DEFAULT_MIN_GAIN[parsed.name] if min_gain is None else min_gain
        if not (min_gain >= 0 and math.isfinite(min_gain)):
            raise TuneError(f"--min-gain must be 0 or more, not {min_gain}")
        for option, runs in (("--check", check_runs), ("--verify", verify_runs)):
            if not 0 <= runs <= MAX_RUNS:  # as --runs: 10**14 runs would be gigabytes of tasks, then MemoryError
                raise TuneError(f"{option} takes a number of runs from 0 to {MAX_RUNS:,}, not {runs}")
        card_db = load_models(db)
        start, syntax = read_deck(deck)
        self.path = str(start.path) if start.path else (start.name or "deck")
        first = prepare_engine(start, syntax, card_db, options)
        opp_tables = first.plan.opponent if first.plan.opponent is not None else first.plan.tables
        opponent_info = dict(first.opponent)
        if options.opponent is None:  # every candidate meets the start deck, as compare's decks meet the baseline
            opponent_info["deck"] = self.path
        self._base_plan = dataclasses.replace(first.plan, opponent=opp_tables)
        self.setup = Setup(parsed, first.options, card_db, opp_tables, opponent_info, first.decklist)
        self.validator = Validator(card_db)
        self.pool = read_pool(pool, card_db) if pool is not None else default_pool(card_db, first.options.mode)
        self.pool_source = str(pool) if pool is not None else "card database"
        self.names = card_names(card_db)
        self.budget, self.max_changes = budget, max_changes
        self.error_rate, self.min_gain = error_rate, min_gain
        self.check_runs, self.verify_runs = check_runs, verify_runs
        self.looks = Looks(executor if executor is not None else InProcess(), parsed, first.options.turns)
        self.progress = progress
        self.start = self.incumbent = Deck.from_sections(first.validation.sections)
        self.steps: list[Step] = []
        self.races: list[Race] = []
        self.games = 0
        self.offset = 0  # the next fresh run index
        self.start_value: float | None = None
        self.check: Pairwise | None = None
        self.verify: Pairwise | None = None
        self.stopped: str | None = None
        self._progress_at = (0, "", 0.0)  # step, stage and look, value: for the progress line
        # the rows of the cards a change may bring in, pickled once a tune: each step's base carries them
        self._cards = CardRows(card_db)
        self._pool_rows = self._cards.pickled(self.pool)

    @property
    def most_games(self) -> int:
        """The most games the tune may play: the races' budget, and the start and final deck on each check and verify run."""
        return self.budget + 2 * (self.check_runs + self.verify_runs)

    @property
    def executor(self) -> Any:
        """Where the tune plays (`tune.executors`)."""
        return self.looks.executor

    @executor.setter
    def executor(self, executor: Any) -> None:
        self.looks.executor = executor

    def open_executor(self, cluster: str | None = None) -> Any:
        """Start where the tune plays, as its `executor`: a Dask `cluster` (its address), else local processes
        as `jobs` asks (at most one per 1,000 of the `most_games`, one a core); `executor.close()` ends it."""
        self.executor = open_executor(self.setup.options, cluster, self.most_games)
        return self.executor

    # -- playing -----------------------------------------------------------------------------------

    def plan(self, deck: Deck, policy: PolicySpec | None = None) -> Plan:
        """Return the engine plan of a legal deck (the validator passed it), facing the tune's opponent.

        The start deck's plan with the deck's own compiled tables and Commander (S1): built
        without `prepare_engine`'s second validation, which would cost more than the games of a
        first look. The opening-hand fields stay empty (a tune reports no opening hands).
        """
        tables = compile_deck(self.setup.card_db, deck.sections(), mode=self.setup.options.mode,
                              board=self._base_plan.tables.board)  # B1: the board file read once, not per deck
        plan = dataclasses.replace(self._base_plan, tables=tables, commander=choose_commander(tables),
                                   packed=(0,) * len(tables.card_id))
        return plan.with_options(policy=policy) if policy is not None else plan

    def incumbent_of(self, deck: Deck) -> Incumbent:
        """Return `deck` compiled once, as the base its candidates are built from (`tune.build`), with the rows
        of its cards and of the pool's."""
        plan = self.plan(deck)
        held = [cid for _, cards in deck.counts for cid, _ in cards]
        return Incumbent(deck, plan, Base.make(plan, deck, self._cards.rows(held), self._pool_rows))

    def _group(self, incumbent: Incumbent, chunk: Sequence[PlainChange]) -> tuple[Group | PairPlan, Base | None]:
        """Return the task group of some candidates' changes, as (section, out, into); the workers compile them
        from the incumbent's base (`tune.build.built_group`)."""
        return Group(tuple(chunk), objective=(self.setup.objective, self.setup.options.turns)), incumbent.base

    def _play(self, count: int, group: MakeGroup, start: int, stop: int, gains: Gains,
              own: Counter[int | None]) -> None:
        """Play runs start..stop-1 of `count` decks (made group by group by `group`) against the incumbent;
        merge into `gains` (in the same order as the decks) and `own`; count the games, say where the tune is."""
        def played(games: int) -> None:
            self.games += games
            if self.progress is not None:
                step, look, _ = self._progress_at
                value = self.setup.objective.mean_value(own, self.setup.options.turns) if own else math.nan
                self.progress(Progress(step, look, count, self.games, self.budget, value))

        self.looks.play(count, group, start, stop, gains, own, played)

    # -- the search --------------------------------------------------------------------------------

    def run(self) -> TuneResult:
        """Tune until the budget is spent, no candidate can improve, or `max_changes`; then check and verify."""
        while self.stopped is None:
            if self.max_changes is not None and len(self.steps) >= self.max_changes:
                self.stopped = STOP_MAX_CHANGES
                break
            if self.games >= self.budget:
                self.stopped = STOP_BUDGET
                break
            self._step()
        self._final_checks()
        return self.result()

    def candidates(self) -> tuple[list[Candidate], int]:
        """Return the legal candidates of the incumbent, and how many changes were refused."""
        return legal_candidates(self.incumbent, self.setup.like, self.pool, self.setup.card_db, self.validator)

    def _step(self) -> None:
        candidates, refused = self.candidates()
        if not candidates:
            self.stopped = STOP_NO_CANDIDATE
            return
        if not self.races:  # refused before any game: a budget the first look does not fit decides nothing
            needed = SCREEN_FIRST * per_run(len(candidates))
            if self.budget < needed:
                raise BudgetTooSmallError(self.budget, needed, len(candidates))
        incumbent = self.incumbent_of(self.incumbent)  # compiled once; the workers compile each candidate from it
        outcome = self._race(incumbent, candidates, refused)
        if outcome in (STOP_NO_IMPROVEMENT, "run-limit"):
            self.stopped = STOP_NO_IMPROVEMENT
        elif outcome == STOP_BUDGET:
            self.stopped = STOP_BUDGET

    def _race(self, incumbent: Incumbent, candidates: list[Candidate], refused: int) -> str:
        """Screen and confirm, up to ATTEMPTS times, until a change is accepted; return the race's outcome."""
        looks: list[tuple[str, int, int, int]] = []  # (stage, attempt, runs, candidates left)
        run_start, games_before = self.offset, self.games
        outcome = "run-limit"
        changes = [tuple(c.change) for c in candidates]  # as a task carries them: (section, out, into)
        try:
            for attempt in range(1, ATTEMPTS + 1):
                finalists, outcome = self._screen(incumbent, changes, attempt, looks)
                if outcome:
                    break
                outcome = self._confirm(incumbent, candidates, changes, finalists, attempt, looks, games_before)
                if outcome in ("accepted", STOP_BUDGET):
                    break
        except KeyboardInterrupt:
            outcome = STOP_INTERRUPTED
            raise
        finally:
            self.races.append(Race(len(candidates), refused, tuple(looks), self.games - games_before, outcome,
                                   run_start))
        return outcome

    def _affordable(self, racing: int) -> int:
        """Return how many more runs of `racing` candidates (and the incumbent, once per group) the budget pays."""
        return (self.budget - self.games) // per_run(racing)

    def _play_look(self, incumbent: Incumbent, changes: Sequence[PlainChange], alive: list[int],
                   runs: tuple[int, int], gains: Gains, own: Counter[int | None]) -> None:
        """Play runs runs[0]..runs[1]-1 (fresh indices) of the `alive` candidates (`changes`: every candidate's);
        merge into `gains` (one entry per alive candidate, in that order) and `own`."""
        racing = [changes[k] for k in alive]
        self._play(len(racing), lambda g, h: self._group(incumbent, racing[g:h]), runs[0], runs[1], gains, own)
        self.offset = max(self.offset, runs[1])

    def _screen(self, incumbent: Incumbent, changes: Sequence[PlainChange], attempt: int,
                looks: list[tuple[str, int, int, int]]) -> tuple[list[int], str]:
        """Rank every candidate on shared fresh runs; return the finalists (best first), or an outcome to stop on.

        `alive` stays in the candidates' order, so a stable sort by mean ranks ties by index (`screen_cut`'s
        order) without a key per candidate; `gains` holds the sums of the alive candidates, in that order.
        """
        objective, turns = self.setup.objective, self.setup.options.turns
        alive = list(range(len(changes)))
        gains = Gains(len(alive))  # per alive candidate, the sums of its per-run gains
        own: Counter[int | None] = Counter()
        start, done, target = self.offset, 0, SCREEN_FIRST * GROWTH ** (attempt - 1)
        step = len(self.steps) + 1
        while True:
            affordable = self._affordable(len(alive))
            if affordable < 1:
                return [], STOP_BUDGET
            stop = min(target, done + affordable)
            self._progress_at = (step, f"screening {attempt}", math.nan)
            self._play_look(incumbent, changes, alive, (start + done, start + stop), gains, own)
            done = stop
            if self.start_value is None:
                self.start_value = objective.mean_value(own, turns)
            if stop < target:
                looks.append(("screen", attempt, done, len(alive)))
                return [], STOP_BUDGET
            kept = screen_survivors(gains, self.min_gain)  # `judge`'s drops (screening accepts none)
            means = gains.means()
            ranked = sorted(kept, key=means.__getitem__, reverse=True)  # by mean, ties in order: `screen_cut`'s
            if len(kept) > FINALISTS:
                kept = sorted(ranked[:max(FINALISTS, -(-len(kept) // SCREEN_KEEP))])
            looks.append(("screen", attempt, done, len(kept)))
            if not kept:
                return [], STOP_NO_IMPROVEMENT
            if len(kept) <= FINALISTS:
                return [alive[p] for p in ranked[:len(kept)]], ""
            alive, gains = [alive[p] for p in kept], gains.kept(kept)
            target *= GROWTH

    def _confirm(self, incumbent: Incumbent, candidates: list[Candidate], changes: Sequence[PlainChange],
                 finalists: list[int], attempt: int, looks: list[tuple[str, int, int, int]], games_before: int) -> str:
        """Race the finalists on fresh runs; accept one (return "accepted") or say why not."""
        alive = list(finalists)
        gains = Gains(len(alive))  # per alive finalist, in that order
        own: Counter[int | None] = Counter()
        start, done, look = self.offset, 0, 0
        step = len(self.steps) + 1
        while True:
            target = min(CONFIRM_RUNS, CONFIRM_FIRST * GROWTH ** look)
            affordable = self._affordable(len(alive))
            if affordable < 1:
                return STOP_BUDGET
            stop = min(target, done + affordable)
            look += 1
            self._progress_at = (step, f"confirmation {attempt}.{look}", math.nan)
            self._play_look(incumbent, changes, alive, (start + done, start + stop), gains, own)
            done = stop
            level = look_level(self.error_rate, len(finalists), look, attempt)
            verdicts = dict(zip(alive, judge([gains.sums(p) for p in range(len(alive))], level, self.min_gain)))
            winners = [k for k in alive if verdicts[k].accept]
            kept = [p for p, k in enumerate(alive) if not verdicts[k].drop and not verdicts[k].accept]
            alive, gains = [alive[p] for p in kept], gains.kept(kept)
            looks.append(("confirm", attempt, done, len(alive) + len(winners)))
            if winners:
                best = max(winners, key=lambda k: (verdicts[k].mean, -k))
                self._accept(candidates[best], verdicts[best], own, Trial(level, look, done, start, attempt,
                                                                          len(finalists)),
                             self.games - games_before, len(candidates))
                return "accepted"
            if stop < target:
                return STOP_BUDGET
            if not alive:
                return STOP_NO_IMPROVEMENT
            if done >= CONFIRM_RUNS:
                return "run-limit"

    def _accept(self, candidate: Candidate, verdict: Any, own: Counter[int | None], trial: Trial, games: int,
                count: int) -> None:
        objective, turns = self.setup.objective, self.setup.options.turns
        before = objective.mean_value(own, turns)
        sign = -1 if objective.lower_is_better else 1
        assert verdict.ci95 is not None  # accepted: its lower bound is above 0, so its runs have a spread
        diff = sign * verdict.mean
        ci = _signed(verdict.ci95, sign)
        self.steps.append(Step(candidate.change, candidate.change.label(self.names), before, before + diff, diff, ci,
                               verdict.bound, trial.level, trial.look, trial.runs, trial.run_start, games, count,
                               trial.attempt, trial.finalists))
        self.incumbent = candidate.deck

    def _pairwise(self, policy: PolicySpec, runs: int) -> Pairwise:
        """Play the final deck against the start on `runs` fresh run indices under `policy`."""
        start = self.plan(self.start, policy)
        gains = Gains(1)
        own: Counter[int | None] = Counter()
        first, games = self.offset, self.games
        self._progress_at = (len(self.steps) + 1, "check", math.nan)
        final = self.plan(self.incumbent, policy)
        self._play(1, lambda g, h: (group_plan(start, [final]), None), first, first + runs, gains, own)
        self.offset += runs
        self.games = games  # the budget is the races': checks are played on top of it
        objective, turns = self.setup.objective, self.setup.options.turns
        sums = gains.sums(0)
        sign = -1 if objective.lower_is_better else 1
        ci = interval95(sums)  # compare's rule: none with fewer than two runs or no spread, and why
        before = objective.mean_value(own, turns)
        return Pairwise(str(policy), runs, first, before, before + sign * sums.mean, sign * sums.mean,
                        None if ci is None else _signed(ci, sign), sums.no_interval())

    def _final_checks(self) -> None:
        if self.incumbent == self.start:
            return
        if self.check_runs:
            self.check = self._pairwise(self.setup.options.policy, self.check_runs)
        if self.verify_runs:
            self.verify = self._pairwise(PolicySpec("search"), self.verify_runs)

    def result(self, stopped: str | None = None) -> TuneResult:
        """Return the tune so far: the path, the best deck (the last accepted), and why it stopped."""
        s = self.setup
        return TuneResult(
            path=self.path, objective=s.objective, options=s.options, opponent=s.opponent, budget=self.budget, max_changes=self.max_changes,
            error_rate=self.error_rate, min_gain=self.min_gain, pool_source=self.pool_source, pool=len(self.pool),
            card_db=s.card_db, like=s.like, names=self.names, start=self.start, final=self.incumbent,
            steps=tuple(self.steps), races=tuple(self.races), games=self.games,
            stopped=stopped or self.stopped or STOP_INTERRUPTED, start_value=self.start_value,
            check=self.check, verify=self.verify)


def _signed(ci: tuple[float, float], sign: int) -> tuple[float, float]:
    """Return an interval of the improvement in objective units (lower is better: its ends swapped)."""
    lo, hi = ci
    return (sign * hi, sign * lo) if sign < 0 else (lo, hi)


def tune(deck: Decklist | Path | str | None, db: CardDatabase | Path | str | None = None, **options: Any) -> TuneResult:
    """Tune a deck (see `Tuner`); return the `TuneResult`."""
    return Tuner(deck, db, **options).run()

