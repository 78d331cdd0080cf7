"""`impact()`: each card's effect on the objective, one copy fewer against the full deck on the same deals (G9).

Every card's deck (`impact.cards`) plays the full deck's runs (common random numbers, G7), look
after look on the same run indices for all: after 100 runs, then on to the runs the card still
racing closest to its goal needs, at most twice as many each look. Each run gives one paired
difference per card, the card's deck's value minus the full deck's (kill turn, or won by turn
T), and its integer sums (`goldfish.paired.Sums`) merge exactly, so every decision is the same
for any --jobs or number of cluster workers.

A card stops racing when its paired 95% interval (compare's) is at most ±`precision` wide, or
when its **corrected** interval leaves 0 out: at look j among m cards measured, the two-sided
interval at level α · 6/(π² j²) / m (Bonferroni over the cards, a spending sequence over the
looks, as tune's confirmation; `tune.race.spend`). Those intervals hold together, over every
card and look, with probability at least 1 − α, so the words they give (pulls its weight, dead
weight, cannot be told apart from nothing) are all right together with that probability. The
budget of games stops every card still racing.
"""

from __future__ import annotations

import dataclasses
import math
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sengoku.carddb.models import CardDatabase
from sengoku.carddb.playable import load_models
from sengoku.decklist.model import Decklist
from sengoku.engine import choose_commander
from sengoku.engine.errors import EngineError
from sengoku.goldfish.api import prepare_engine, read_deck
from sengoku.goldfish.options import PlayOptions
from sengoku.goldfish.play.simulate import Plan, chunks
from sengoku.goldfish.statistics.paired import NO_SPREAD, Sums
from sengoku.impact.cards import NOT_MEASURED, REPLACED, ImpactError, Subject, resolve_card, subjects
from sengoku.impact.result import (STOP_BUDGET, STOP_DECIDED, STOP_INTERRUPTED, STOP_PRECISE, CardImpact,
                                   ImpactResult, association_of)
from sengoku.impact.work import ImpactPlan, ImpactTaskResult, Tallies, empty_association, merge_association, \
    play_impact_task
from sengoku.tune.deck import Change, Deck, card_names
from sengoku.tune.executors import InProcess, open_executor
from sengoku.tune.build import Base, CardRows, candidate_plan
from sengoku.tune.race import Objective, spend, t_quantile
from sengoku.validate.api import Validator

FIRST_LOOK = 1000  # runs of the first look: fewer leave a paired t interval on a handful of runs that differ
GROWTH = 2  # a look at most doubles the runs
DEFAULT_PRECISION = {"kill-turn": 0.05, "won-by": 0.02}
DEFAULT_BUDGET = 1_000_000
DEFAULT_ERROR_RATE = 0.05
TASK_SECONDS = 1.0  # aim for tasks worth about a second of a worker's time
MIN_TASK_GAMES = 200


@dataclass
class Progress:
    """Where a race is, for a progress line."""

    look: int
    runs: int
    racing: int
    games: int
    budget: int


def corrected_interval(sums: Sums, level: float) -> tuple[float, float] | None:
    """Return the two-sided interval of the mean at `level` (Student's t); None without one (`Sums.no_interval`)."""
    if sums.no_interval() is not None:
        return None
    half = t_quantile(1 - level / 2, sums.n - 1) * math.sqrt(sums.variance() / sums.n)
    return (sums.mean - half, sums.mean + half)


def effect_sums(pairs: Counter[tuple[int, int]], objective: Objective, turns: int) -> Sums:
    """Return the sums of the per-run effects: the card's deck's value minus the full deck's (G9)."""
    sums = Sums()
    for (full, deck), runs in pairs.items():
        d = objective.value(deck, turns) - objective.value(full, turns)
        sums.n += runs
        sums.total += runs * d
        sums.squares += runs * d * d
    return sums


class ImpactRace:
    """An impact race in progress; `run()` plays it, `result()` says where it is (also after Ctrl-C)."""

    def __init__(self, deck: Decklist | Path | str | None, db: CardDatabase | Path | str | None = None, *,
                 options: PlayOptions | None = None, objective: str = "kill-turn", precision: float | None = None,
                 budget: int = DEFAULT_BUDGET, error_rate: float = DEFAULT_ERROR_RATE,
                 filler: Sequence[str] | str = (), cards: Sequence[str] = (), drawn_by: int | None = None,
                 executor: Any = None, progress: Callable[[Progress], None] | None = None,
                 **option_values: Any) -> None:
        """`options` and the keyword options are `goldfish()`'s (`jobs` aside: the `executor` plays)."""
        options = PlayOptions.given(options, **option_values)
        try:
            parsed = Objective.parse(objective, options.turns)
        except ValueError as exc:
            raise ImpactError(str(exc)) from None
        precision = DEFAULT_PRECISION[parsed.name] if precision is None else precision
        if not (precision > 0 and math.isfinite(precision)):
            raise ImpactError(f"--precision must be a positive number, not {precision}")
        if budget < 1:
            raise ImpactError(f"--budget must be at least 1 game, not {budget}")
        if not 0 < error_rate < 1:
            raise ImpactError(f"--error-rate must be between 0 and 1, not {error_rate}")
        drawn_by = options.turns if drawn_by is None else drawn_by
        if not 1 <= drawn_by <= options.turns:
            raise ImpactError(f"--drawn-by must be a turn from 1 to --turns ({options.turns}), not {drawn_by}")
        card_db = load_models(db)
        start, syntax = read_deck(deck)
        self.path = str(start.path) if start.path else (start.name or "deck")
        first = prepare_engine(start, syntax, card_db, options)
        self.options, self.objective, self.card_db = first.options, parsed, card_db
        self.opponent = dict(first.opponent)
        self.commander = dict(first.commander)
        opp_tables = first.plan.opponent if first.plan.opponent is not None else first.plan.tables
        # every card's deck meets the full deck's opponent: a mirror of the full deck, as in compare and tune
        self.full = dataclasses.replace(first.plan, opponent=opp_tables)
        self.like = first.decklist
        self.names = card_names(card_db)
        fillers = [filler] if isinstance(filler, str) else list(filler)
        self.fillers = [resolve_card(f, card_db, self.names, "--filler") for f in fillers]
        self.only = only = [resolve_card(c, card_db, self.names, "--card") for c in cards]
        self.deck = Deck.from_sections(first.validation.sections)
        found = subjects(self.deck, self.like, first.options.mode or "standard", card_db, Validator(card_db),
                         self.names, self.fillers, only)
        self.subjects, self.plans = self._plans(found)
        self.precision, self.budget, self.error_rate, self.drawn_by = precision, budget, error_rate, drawn_by
        self.executor = executor if executor is not None else InProcess()
        self.progress = progress
        self.games = 0
        self.looks: list[tuple[int, int]] = []  # (runs so far, cards racing) after each look
        self.tallies = Tallies([Counter() for _ in self.plans], association=empty_association(self.full.tables.n))
        self.stops: dict[int, tuple[str, int]] = {}  # measured card -> (why it stopped, at which look)
        self.runs_of: list[int] = [0] * len(self.plans)
        self.stopped: str | None = None
        self._seconds_per_game = 1 / 5000  # refined from the tasks' own timings (task sizes only)
        measured = len(self.plans)
        needed = FIRST_LOOK * (measured + 1)
        if measured and budget < needed:
            raise ImpactError(f"--budget {budget:,} is less than the first look needs: {measured} card(s) and the "
                              f"full deck on {FIRST_LOOK} runs each take {needed:,} games. Give --budget {needed:,} "
                              "or more, or fewer cards (--card)")

    def _plans(self, found: list[Subject]) -> tuple[list[Subject], list[Plan]]:
        """Return the subjects and the plan of each measured one's deck, built by tune's one path from a deck and
        a one-card change (`tune.build.candidate_plan`)."""
        pinned = self.full.tables.card_id[self.full.commander] if self.options.commander is not None else None
        ids = [cid for _, cards in self.deck.counts for cid, _ in cards] + list(self.fillers)
        base = Base.make(self.full, self.deck, CardRows(self.card_db).rows(ids))
        # The full deck played by the same path as every card's deck (no change): the same copy codes for the
        # copies they share (G7), where the plan goldfish made had them paired with an --opponent deck's
        full = candidate_plan(base, Change("main", None, None))
        if pinned is not None:
            full = dataclasses.replace(full, commander=choose_commander(full.tables, pinned))
        self.full = full
        out: list[Subject] = []
        plans: list[Plan] = []
        measured: list[int] = []
        for s in found:
            if s.change is None or s.deck is None:
                out.append(s)
                continue
            plan = candidate_plan(base, s.change)
            if pinned is not None:  # S1 pinned: every deck plays the Commander --commander names
                try:
                    plan = dataclasses.replace(plan, commander=choose_commander(plan.tables, pinned))
                except EngineError:  # its last copy was the one taken out
                    out.append(dataclasses.replace(s, how=NOT_MEASURED, change=None, deck=None,
                                                   reason="one copy fewer leaves no copy of the Commander "
                                                          "--commander names"))
                    continue
            if s.how == REPLACED:  # G7: the filler takes the replaced copy's place in the shuffle
                plan.tables.pair_with(self.full.tables)
            measured.append(len(out))
            out.append(s)
            plans.append(plan)
        self._measured = measured  # index in `subjects` of each plan
        return out, plans

    def open_executor(self, cluster: str | None = None) -> Any:
        """Start where the race plays, as its `executor`: a Dask `cluster` (its address), else local processes as
        the options' `jobs` asks (at most one per 1,000 games of the budget, one a core, as tune's); `close()`
        ends it. The report does not depend on it."""
        if cluster is not None and self.options.jobs is not None:
            raise ImpactError("--jobs and --cluster exclude each other: the cluster's workers do the playing")
        self.executor = open_executor(self.options, cluster, self.budget)
        return self.executor

    # -- playing -----------------------------------------------------------------------------------

    def _tasks(self, plan: ImpactPlan, start: int, stop: int) -> Iterator[tuple[ImpactPlan, int, int, None]]:
        """Yield tasks covering runs start..stop-1, each worth about a second of a worker's time."""
        per_run = 1 + len(plan.decks)
        total = (stop - start) * per_run
        per_task = max(MIN_TASK_GAMES, min(int(TASK_SECONDS / self._seconds_per_game),
                                           total // max(1, 2 * self.executor.workers)))
        for a, b in chunks(stop - start, max(1, -(-total // per_task))):
            yield plan, start + a, start + b, None  # (the executors' task: no tune base, the plans travel whole)

    def _play(self, racing: list[int], start: int, stop: int, look: int) -> None:
        """Play runs start..stop-1 of the full deck and of the `racing` cards' decks; merge them in run order."""
        plan = ImpactPlan(self.full, [self.plans[k] for k in racing], self.objective, self.drawn_by)
        seconds = games = 0.0
        t = self.tallies
        result: ImpactTaskResult
        for result in self.executor.run(self._tasks(plan, start, stop), work=play_impact_task):
            for k, counter in zip(racing, result.kills):
                t.kills[k].update(counter)
            t.full.update(result.full)
            merge_association(t.association, result.association)
            n = sum(result.full.values())
            t.runs += n
            for k in racing:
                self.runs_of[k] += n
            seconds += result.seconds
            games += result.games
            self.games += result.games
            if self.progress is not None:
                self.progress(Progress(look, t.runs, len(racing), self.games, self.budget))
        if games:
            self._seconds_per_game = seconds / games

    def effect(self, k: int) -> Sums:
        return effect_sums(self.tallies.kills[k], self.objective, self.options.turns)

    def _level(self, look: int) -> float:
        return self.error_rate * spend(look) / max(1, len(self.plans))

    def _judge(self, k: int, look: int) -> str | None:
        """Return why card `k` stops racing after `look` (None: it races on)."""
        sums = self.effect(k)
        if sums.no_interval() == NO_SPREAD:  # every run alike so far: as precise as it gets
            return STOP_PRECISE
        corrected = corrected_interval(sums, self._level(look))
        if corrected is not None and (corrected[0] > 0 or corrected[1] < 0):
            return STOP_DECIDED
        half = sums.half_width()
        return STOP_PRECISE if half is not None and half <= self.precision else None

    def _next_target(self, racing: list[int], runs: int) -> int:
        """Return the runs of the next look: what the racing card nearest its precision needs, within limits."""
        needs = []
        for k in racing:
            half = self.effect(k).half_width()
            if half is not None and half > 0:
                needs.append(math.ceil(runs * (half / self.precision) ** 2 * 1.05))
        need = min(needs) if needs else GROWTH * runs
        return max(runs + FIRST_LOOK, min(GROWTH * runs, need))

    def run(self) -> ImpactResult:
        """Race every measured card until each stops (precise, decided) or the budget is spent."""
        racing = list(range(len(self.plans)))
        runs, target, look = 0, FIRST_LOOK, 0
        while racing:
            affordable = (self.budget - self.games) // (len(racing) + 1)
            if affordable < 1:
                break
            stop = runs + min(target - runs, affordable)
            look += 1
            self._play(racing, runs, stop, look)
            runs = stop
            self.looks.append((runs, len(racing)))
            if stop < target:
                break  # the budget ran out within this look
            for k in racing:
                why = self._judge(k, look)
                if why is not None:
                    self.stops[k] = (why, look)
            racing = [k for k in racing if k not in self.stops]
            target = self._next_target(racing, runs)
        for k in racing:
            self.stops[k] = (STOP_BUDGET, look)
        self.stopped = STOP_BUDGET if racing else "done"
        return self.result()

    # -- the result --------------------------------------------------------------------------------

    def result(self, stopped: str | None = None) -> ImpactResult:
        """Return the race so far: every card's effect, words and associations."""
        turns = self.options.turns
        rows = []
        measured_at = {i: k for k, i in enumerate(self._measured)}
        index = {cid: i for i, cid in enumerate(self.full.tables.card_id)}
        for i, s in enumerate(self.subjects):
            k = measured_at.get(i)
            assoc = association_of(self.tallies.association, index.get(s.card_id), s.section)
            if k is None:
                rows.append(CardImpact(s, None, None, None, None, None, assoc))
                continue
            why, look = self.stops.get(k, (STOP_INTERRUPTED, len(self.looks)))
            sums = self.effect(k)
            rows.append(CardImpact(s, sums, sums.interval(), corrected_interval(sums, self._level(max(1, look))),
                                   self._level(max(1, look)), why, assoc))
        return ImpactResult(
            path=self.path, deck_name=self.like.name, objective=self.objective, options=self.options,
            opponent=self.opponent, commander=self.commander, precision=self.precision, budget=self.budget,
            error_rate=self.error_rate, drawn_by=self.drawn_by, fillers=tuple(self.fillers), only=tuple(self.only), names=self.names,
            cards=tuple(rows), measured=len(self.plans), games=self.games, runs=self.tallies.runs,
            full_value=self.objective.mean_value(self.tallies.full, turns), looks=tuple(self.looks),
            stopped=stopped or self.stopped or STOP_INTERRUPTED)


def impact(deck: Decklist | Path | str | None = None, db: CardDatabase | Path | str | None = None,
           **options: Any) -> ImpactResult:
    """Measure each card's impact on a deck (see `ImpactRace`); return the `ImpactResult`."""
    return ImpactRace(deck, db, **options).run()

