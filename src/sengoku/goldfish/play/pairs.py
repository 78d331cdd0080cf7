"""Play several decks on the same runs (common random numbers) and tally them in pairs.

Run i of every deck is played from the same seeds (`seeds.seed_run(chance, seed, i)`), in the
same process, one deck after the other: a card copy the decks share takes the same place in
their Stronghold order (G7), the opponent's cards, the dice and the policy's own choices come
from streams of their own, so a per-run difference holds far less
noise than the difference of two independent simulations. A chunk of run indices returns each
deck's own `Tally` (its goldfish result) and, against the first deck (the baseline), only
integers: the joint counts of the two kill turns, sums and sums of squares of the per-run
differences of `COMPARED` measures per turn, and 2x2 tables of opening-hand events. Merging
chunks adds integers, so the result is the same for any `--jobs`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from sengoku.engine import MEASURES
from sengoku.goldfish.statistics.kill_turn import kill_turn_value
from sengoku.goldfish.statistics.paired import Sums
from sengoku.goldfish.play.simulate import BATCH, Plan, Tally, make_runner, play_run

COMPARED = ("ap_main", "allies")  # the per-turn measures compared run by run

# An opening-hand event as the worker tests it on a packed hand: (shift, mask, at least) per group.
EventTest = tuple[tuple[int, int, int], ...]


@dataclass
class PairPlan:
    """The decks' plans (the first is the baseline) and the opening-hand events they share."""

    plans: Sequence[Plan]
    events: Sequence[str]  # shared event keys
    tests: Sequence[Sequence[EventTest]]  # per deck, per shared event, its test on that deck's packed hand

    @property
    def turns(self) -> int:
        return self.plans[0].options.turns


class Pairing:
    """One deck against the baseline, run by run: integers only, so chunks merge exactly."""

    def __init__(self, turns: int, events: int) -> None:
        self.kill: Counter[tuple[int, int]] = Counter()  # (baseline's kill turn, deck's) -> runs
        # per measure, per turn: the differences over the runs both decks still played that turn
        self.diff = {m: [Sums() for _ in range(turns)] for m in COMPARED}
        self.base_total = {m: [0] * turns for m in COMPARED}  # the baseline's sum over those runs
        self.events = [[0, 0, 0, 0] for _ in range(events)]  # both, baseline only, deck only, neither

    def merge(self, other: Pairing) -> None:
        self.kill.update(other.kill)
        for m in COMPARED:
            for mine, theirs in zip(self.diff[m], other.diff[m]):
                mine.merge(theirs)
            self.base_total[m] = [a + b for a, b in zip(self.base_total[m], other.base_total[m])]
        for mine4, theirs4 in zip(self.events, other.events):
            for k in range(4):
                mine4[k] += theirs4[k]

    def kill_sums(self) -> Sums:
        """Return the sums of the per-run kill-turn differences (deck - baseline)."""
        sums = Sums()
        for (base, deck), runs in self.kill.items():
            d = deck - base
            sums.n += runs
            sums.total += runs * d
            sums.squares += runs * d * d
        return sums

    def won_by(self, turn: int) -> tuple[int, int, int, int]:
        """Return the 2x2 table of 'won by the end of `turn`': both, baseline only, deck only, neither."""
        table = [0, 0, 0, 0]
        for (base, deck), runs in self.kill.items():
            table[cell(base <= turn, deck <= turn)] += runs
        return (table[0], table[1], table[2], table[3])


class PairTally:
    """Every deck's `Tally` and every deck's `Pairing` with the baseline."""

    def __init__(self, pair_plan: PairPlan) -> None:
        plans = pair_plan.plans
        self.runs = 0
        self.tallies = [Tally(p.measures, p.options.turns) for p in plans]
        self.pairings = [Pairing(pair_plan.turns, len(pair_plan.events)) for _ in plans[1:]]

    def merge(self, other: PairTally) -> None:
        self.runs += other.runs
        for a, b in zip(self.tallies, other.tallies):
            a.merge(b)
        for p, q in zip(self.pairings, other.pairings):
            p.merge(q)


def cell(in_base: bool, in_deck: bool) -> int:
    """Return the index of a run in a 2x2 table: both, baseline only, deck only, neither."""
    return (0 if in_deck else 1) if in_base else (2 if in_deck else 3)


def _holds(packed: int, test: EventTest) -> bool:
    return all(((packed >> shift) & mask) >= need for shift, mask, need in test)


def play_pairs_chunk(pair_plan: PairPlan, start: int, stop: int) -> PairTally:
    """Play runs start..stop-1 of every deck, each run from the same stream for all decks.

    Each deck plays run i through `simulate.play_run`, the one way a run is played.
    """
    plans = pair_plan.plans
    turns = pair_plan.turns
    tally = PairTally(pair_plan)
    runners = [make_runner(p) for p in plans]
    columns = [(m, MEASURES.index(m)) for m in COMPARED]
    batches: list[list] = [[] for _ in plans]  # type: ignore[type-arg]
    for i in range(start, stop):
        games = []
        for plan, runner, batch in zip(plans, runners, batches):
            game = play_run(runner, plan.options.seed, i)
            games.append(game)
            batch.append(game)
        base = games[0]
        base_kill = kill_turn_value(base.won_turn, turns)
        base_hand = sum(map(plans[0].packed.__getitem__, base.opening_hand))
        for k, pairing in enumerate(tally.pairings, start=1):
            game = games[k]
            pairing.kill[(base_kill, kill_turn_value(game.won_turn, turns))] += 1
            for t in range(min(len(base.turns), len(game.turns))):
                b_row, d_row = base.turns[t], game.turns[t]
                for m, col in columns:
                    pairing.diff[m][t].add(d_row[col] - b_row[col])
                    pairing.base_total[m][t] += b_row[col]
            hand = sum(map(plans[k].packed.__getitem__, game.opening_hand))
            for e, table in enumerate(pairing.events):
                in_base = _holds(base_hand, pair_plan.tests[0][e])
                in_deck = _holds(hand, pair_plan.tests[k][e])
                table[cell(in_base, in_deck)] += 1
        if len(batches[0]) >= BATCH:
            for t_, (plan, batch) in enumerate(zip(plans, batches)):
                tally.tallies[t_].add_games(batch, plan.packed.__getitem__)
                batch.clear()
    for t_, (plan, batch) in enumerate(zip(plans, batches)):
        tally.tallies[t_].add_games(batch, plan.packed.__getitem__)
    tally.runs = stop - start
    return tally
