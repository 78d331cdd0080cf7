"""The `search` policy: a slow yardstick for the default policy (G6), by two-stage Monte Carlo look-ahead.

Every decision is a choice among distinct options, each scored by rollouts: copies of the state
(`sengoku.engine.clone`) played on by the default policy to the end of the game (or `horizon`
turns), scored by the turn they won.
- The Charge Phase: every distinct plan (which cards to send for AP Charge, as a multiset of
  cards; HP Charge on which ally or none), within the hand limit (T2a, T2b).
- The Main Phase: at each step, every distinct legal action and "let the default policy finish
  the turn"; the step taken, the next one is searched, until the search chooses to finish the turn
  (`max_steps` > 0 caps the steps searched a turn, the default policy playing the rest).
Two stages against the winner's curse: every option gets `rollouts` copies, then the best
`finalists` get `confirm` fresh copies each and the best of those is taken (a choice is changed
from the default policy's only when its fresh mean is better). With `confirm_max` above `confirm`
the second stage races: while it is too close to call (`close`), every finalist plays as many
fresh copies again, up to `confirm_max`, so that the rollouts go to the decisions whose options
are near, not to those that one batch already settles. All copies of one stage share
their seeds (common random numbers: the options are compared on the same luck). The seeds come
from `state.policy_rng` (G7), never the game's own streams (`state.chance`): the search draws
nothing from the game, so its games follow the same deals as any other policy's, and it plays the same
games for any number of processes, compiled or pure.

The budget (issue 36): 16 + 48 rollouts and no step cap. Up to 0.10.0 `search` played 4 + 12 with a
cap of 12 steps; the convergence benchmark found a search with twice those rollouts and no cap
winning 0.033 turns sooner on average over the test set (0.018 to 0.047), so 8 + 24 without the cap
became the default in 0.11.0 (the cap had never bound on the rows tried). In 0.16.0 the benchmark found
twice that budget winning sooner again, by about 0.02 turns over the test set and 0.025 to 0.03 against
a defending opponent (docs/policies.md), so the budget doubled once more.

Common random numbers between searches of two budgets (the convergence benchmark): a decision's
seeds are nested. Every Charge Phase, and each of the first `STREAM_STEPS` Main Phase steps of a
turn, draws `STREAM_ROLLOUTS` then `STREAM_CONFIRM` seeds from the policy's stream, in that order,
whatever the search's own budget (as the 0.10.0 search drew them), and a stage uses the first of
them; the rest of a stage's seeds, and every seed of a decision past those steps, come from
`keyed_seed`, keyed by the run's policy seed and the decision's place (turn, step, stage, copy),
never from the stream. So at every decision two searches of different budgets meet in the same
state, the larger plays the smaller's very copies plus its own, and the two take the same choice
far more often than two searches on separate luck: `search` plays the 0.15.0 search's copies plus
as many more (its games are those the convergence benchmark's stronger search played in 0.15.0,
which played the 0.10.0 search's copies plus three times as many), and a search of twice its budget
plays `search`'s copies plus as many more. (`stream_seeds = 0`
keys every seed by the decision's place, so that two searches share their copies even after their
games part, at the cost of other games than `search`'s.)
"""

from __future__ import annotations

import dataclasses
import random
from itertools import combinations
from typing import Any, ClassVar, cast

from mypy_extensions import mypyc_attr  # read by mypyc when the engine is compiled

from sengoku.engine.actions import Action, Kind
from sengoku.engine.chance import text_seed
from sengoku.engine.clone import clone_state
from sengoku.engine.constants import BETWEEN, HAND_LIMIT
from sengoku.engine.policies.base import forced_charges
from sengoku.engine.policies.greedy.lookahead import option_key
from sengoku.engine.policies.greedy.policy import GreedyPolicy
from sengoku.engine.policies.greedy.settings import DEFAULT_SETTINGS, GreedySettings
from sengoku.engine.state import GameState

# The choice "let the default policy play the rest of this phase".
_FINISH = Action(Kind.END_TURN, ("finish",))

# A Charge Phase plan: (hand positions to send, ally number to HP-charge or -1).
ChargePlan = tuple[tuple[int, ...], int]

# The seeds each decision draws from the policy's stream (the budget of `search` up to 0.10.0): see the
# module's doc. A search of any budget draws these, so the stream stays where every other budget's is.
STREAM_ROLLOUTS = 4
STREAM_CONFIRM = 12
STREAM_STEPS = 12
CLOSE_Z = 2.0  # `confirm_max`: a second stage is close while a finalist trails the leader by under this many standard errors


def keyed_seed(policy_seed: int, turn: int, step: int, stage: int, copy: int) -> int:
    """Return the seed of copy `copy` of stage `stage` (1 or 2) of the decision at Main Phase step `step`
    (0: the Charge Phase) of turn `turn`, in the run whose policy seed is `policy_seed`: 64 bits of a
    BLAKE2b digest, the same in every process, compiled or pure."""
    return text_seed(f"sengoku-search:{policy_seed}:{turn}:{step}:{stage}:{copy}")


@mypyc_attr(allow_interpreted_subclasses=True)
class SearchPolicy(GreedyPolicy):
    """Look ahead (slow; a yardstick for greedy): try every Charge Phase plan and every Main Phase
    step on copies of the game played on by greedy, in two stages; take the one that wins soonest."""

    name = "search"
    rollouts: ClassVar[int] = 16  # first stage: copies played per option
    finalists: ClassVar[int] = 3  # second stage: the options played again
    confirm: ClassVar[int] = 48  # second stage: fresh copies per finalist
    confirm_max: ClassVar[int] = 0  # > confirm: a close second stage doubles its copies up to this many (0: never)
    horizon: ClassVar[int] = 12  # copies stop at the end of this turn (a game not won by then scores horizon + 1)
    max_steps: ClassVar[int] = 0  # Main Phase steps searched per turn, greedy playing the rest; 0: no cap
    stream_seeds: ClassVar[int] = 1  # 1: seeds from the policy's stream as the module's doc says; 0: every seed keyed
    turns: ClassVar[int] = 0  # the turns searched, from the first, greedy playing the later ones; 0: every turn

    def __init__(self, settings: GreedySettings = DEFAULT_SETTINGS) -> None:
        # greedy's look-ahead of a turn is a cheap stand-in for this search: neither the search's own
        # turns (`turns`) nor its rollouts use it
        settings = dataclasses.replace(settings, lookahead_turns=0)
        super().__init__(settings)
        self._rollout_policy = GreedyPolicy(settings)  # (the rollouts' default policy: the same settings)
        self._step = 0  # the decision's place: the Main Phase step being searched (0: the Charge Phase)

    # ---- Charge Phase --------------------------------------------------------------------------

    def charge_phase(self, state: GameState) -> None:
        if self.turns and state.turn > self.turns:
            GreedyPolicy.charge_phase(self, state)
            return
        self._prepare_for(state)
        self._step = 0
        plans = self.charge_plans(state)
        best = self._choose(state, plans, True) if len(plans) > 1 else 0
        self._apply_plan(state, plans[best])

    def charge_plans(self, state: GameState) -> list[ChargePlan]:
        """Every distinct Charge Phase plan: the first is "as the default policy would"."""
        hand = state.hand
        n = len(hand)
        least = max(0, n - HAND_LIMIT)  # T2a: the hand limit holds once the phase ends
        plans: list[ChargePlan] = [((), -2)]  # -2: the default policy's own plan
        seen: set[tuple[tuple[int, ...], int]] = set()
        charge = state.t.charge
        for r in range(least, n + 1):
            for combo in combinations(range(n), r):
                cards = tuple(sorted(hand[p] for p in combo))
                gain = 0
                for c in cards:
                    gain += charge[c]
                ap = state.ap + gain
                targets = [-1]
                for i, a in enumerate(state.allies):
                    if a.hp < state.t.cost[a.top] and ap >= state.t.hp_charge_price[a.top] \
                            and not state.hp_charged:
                        targets.append(i)
                for i in targets:
                    if (cards, i) not in seen:
                        seen.add((cards, i))
                        plans.append((combo, i))
        return plans

    def _apply_plan(self, state: GameState, plan: ChargePlan) -> None:
        send, target = plan
        if target == -2:
            GreedyPolicy.charge_phase(self, state)
            return
        if send:
            state.charge_cards(send)
        if target >= 0:
            state.hp_charge(target)
        forced_charges(state)

    # ---- Main Phase ----------------------------------------------------------------------------

    def main_phase(self, state: GameState) -> None:
        if self.turns and state.turn > self.turns:
            GreedyPolicy.main_phase(self, state)
            return
        self._prepare_for(state)
        # won_turn is tested after each step, not in the loop's condition: a test there would narrow its
        # type to None for the whole body, and compiled code would then refuse the int a winning step sets
        cap = self.max_steps if state.won_turn is None else -1
        steps = 0
        while cap == 0 or steps < cap:
            steps += 1
            self._step = steps
            options: list[Action] = [_FINISH]
            seen: set[tuple[object, ...]] = set()
            for action in state.legal_actions():
                key = self._key(state, action)
                if key not in seen:
                    seen.add(key)
                    options.append(action)
            best = options[self._choose(state, options, False)] if len(options) > 1 else _FINISH
            if best is _FINISH:
                break
            if best.kind == Kind.END_TURN:
                return
            state.apply(best)
            if state.won_turn is not None:
                return
        GreedyPolicy.main_phase(self, state)

    def _key(self, state: GameState, action: Action) -> tuple[object, ...]:
        """Actions that differ only by which copy of a card in hand they take are one choice."""
        return option_key(state, action)

    # ---- the two stages --------------------------------------------------------------------------

    def _choose(self, state: GameState, options: list[Any], charge: bool) -> int:
        """Return the index of the best option: every option on `rollouts` shared seeds, then the
        best `finalists` on `confirm` fresh shared seeds (option 0, the default's, always among them)."""
        seeds = self._seeds(state, 1, self.rollouts, STREAM_ROLLOUTS)
        scores = [self._score(state, o, seeds, charge) for o in options]
        order = sorted(range(len(options)), key=lambda k: (scores[k], k))
        finalists = order[: self.finalists]
        if 0 not in finalists:
            finalists.append(0)
        seeds = self._seeds(state, 2, self.confirm, STREAM_CONFIRM)
        values = [self._values(state, options[k], seeds, charge) for k in finalists]
        while len(seeds) < self.confirm_max and close(values):
            more = range(len(seeds), min(2 * len(seeds), self.confirm_max))
            extra = [keyed_seed(state.chance.policy, state.turn, self._step, 2, j) for j in more]
            seeds = seeds + extra
            for k in range(len(finalists)):
                values[k].extend(self._values(state, options[finalists[k]], extra, charge))
        default_score = mean(values[finalists.index(0)])
        best, best_score = 0, default_score
        for k in range(len(finalists)):
            if finalists[k] != 0:
                score = mean(values[k])
                if score < best_score:
                    best, best_score = finalists[k], score
        if best != 0:
            self._departed(state, options[best], charge, default_score - best_score)
        return best

    def _seeds(self, state: GameState, stage: int, count: int, from_stream: int) -> list[int]:
        """Return the `count` seeds of a stage: the first of `from_stream` drawn from the policy's stream
        (at the Charge Phase and the first `STREAM_STEPS` steps), the rest keyed by the decision's place."""
        seeds: list[int] = []
        step = self._step
        if step <= STREAM_STEPS and self.stream_seeds:
            prng = state.policy_rng
            for _ in range(from_stream):
                seeds.append(prng.getrandbits(64))
            del seeds[count:]
        policy_seed = state.chance.policy
        for k in range(len(seeds), count):
            seeds.append(keyed_seed(policy_seed, state.turn, step, stage, k))
        return seeds

    def _departed(self, state: GameState, option: object, charge: bool, gain: float) -> None:
        """Called when the search chose `option` over the default's (option 0), whose second-stage
        mean kill turn was `gain` turns later: a hook for tools that study the search's choices
        (it must not change the game or draw from the policy's stream). Does nothing here."""

    def _score(self, state: GameState, option: object, seeds: list[int], charge: bool) -> float:
        """Mean kill turn of copies of `state` after `option`, played on by the default policy."""
        return mean(self._values(state, option, seeds, charge))

    def _values(self, state: GameState, option: object, seeds: list[int], charge: bool) -> list[float]:
        """The kill turn of each copy of `state` (one per seed) after `option`, played on by the default policy."""
        return [self._rollout(state, option, seed, charge) for seed in seeds]

    def _rollout(self, state: GameState, option: object, seed: int, charge: bool) -> float:
        s = clone_state(state, random.Random(seed))
        p = self._rollout_policy
        if charge:
            self._apply_plan(s, cast(ChargePlan, option))
            s.end_charge_phase()
            p.main_phase(s)
        else:
            action = cast(Action, option)
            if action is _FINISH:
                p.main_phase(s)
            elif action.kind != Kind.END_TURN:
                s.apply(action)
                if s.won_turn is None:
                    p.main_phase(s)
        s.end_turn()
        while s.won_turn is None and s.turn < self.horizon:
            s.begin_turn()
            p.charge_phase(s)
            s.end_charge_phase()
            p.main_phase(s)
            s.end_turn()
        if s.won_turn is not None:
            return float(s.won_turn)
        # Not won: past the horizon, the nearer the Stronghold's end the better.
        return self.horizon + 1 + s.opp_sh_hp / 100.0 + (0.0 if s.phase == BETWEEN else 1.0)


def mean(values: list[float]) -> float:
    total = 0.0
    for v in values:
        total += v
    return total / len(values)


def close(values: list[list[float]]) -> bool:
    """Whether the second stage is too close to call: some finalist's copies (paired with the leader's, the
    lowest mean) are later by less than `CLOSE_Z` standard errors of their mean difference. Options that
    came out alike on every copy are not close: more copies would most likely split them no better."""
    means = [mean(v) for v in values]
    lead = 0
    for k in range(1, len(values)):
        if means[k] < means[lead]:
            lead = k
    n = len(values[lead])
    if n < 2:
        return False
    for k in range(len(values)):
        if k == lead:
            continue
        diffs = [values[k][j] - values[lead][j] for j in range(n)]
        m = mean(diffs)
        var = 0.0
        for d in diffs:
            var += (d - m) * (d - m)
        var /= n - 1
        if var > 0.0 and m * m * n <= CLOSE_Z * CLOSE_Z * var:
            return True
    return False
