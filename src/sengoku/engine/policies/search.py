"""The `search` policy: a slow yardstick for the default policy (G6), by flat Monte Carlo look-ahead.

At each step of its Main Phase it tries every legal action, and "let the default policy finish
the turn", on copies of the state (`sengoku.engine.clone`), plays each copy on with the default
policy until the game is won or `horizon` turns have passed, and takes the choice whose copies
won soonest on average. All copies of one step share the same random seeds (common random
numbers, so the choices are compared on the same luck), drawn from `state.rng` (G3).
"""

from __future__ import annotations

import random

from mypy_extensions import mypyc_attr  # read by mypyc when the engine is compiled

from sengoku.engine.actions import Action, Kind
from sengoku.engine.clone import clone_state
from sengoku.engine.constants import BETWEEN
from sengoku.engine.policies.greedy import GreedyPolicy
from sengoku.engine.state import GameState

# The choice "let the default policy play the rest of this Main Phase".
_FINISH = Action(Kind.END_TURN, ("finish",))


@mypyc_attr(allow_interpreted_subclasses=True)
class SearchPolicy(GreedyPolicy):
    """Look ahead (slow; a yardstick for greedy): at each Main Phase step, try every legal action on
    copies of the game played on by greedy, and take the one that wins soonest on average."""

    name = "search"
    rollouts = 6  # copies played per choice
    horizon = 12  # copies stop at the end of this turn (a game not won by then scores horizon + 1)
    max_steps = 12  # Main Phase steps searched per turn; greedy plays the rest

    def __init__(self) -> None:
        super().__init__()
        self._rollout_policy = GreedyPolicy()

    def main_phase(self, state: GameState) -> None:
        self._prepare_for(state)
        for _ in range(self.max_steps if state.won_turn is None else 0):
            seeds = [state.rng.getrandbits(64) for _ in range(self.rollouts)]
            best, best_score = _FINISH, self._score(state, _FINISH, seeds)
            seen: set[tuple[object, ...]] = set()
            for action in state.legal_actions():
                key = self._key(state, action)
                if key in seen:
                    continue
                seen.add(key)
                score = self._score(state, action, seeds)
                if score < best_score:
                    best, best_score = action, score
            if best is _FINISH:
                break
            if best.kind == Kind.END_TURN:
                return
            state.apply(best)
        GreedyPolicy.main_phase(self, state)

    def _key(self, state: GameState, action: Action) -> tuple[object, ...]:
        """Actions that differ only by which copy of a card in hand they take are one choice."""
        if action.kind in (Kind.DEPLOY, Kind.STACK, Kind.USE_HAND_ABILITY):
            return (action.kind, state.hand[action.args[0]]) + tuple(action.args[1:])
        return (action.kind,) + tuple(action.args)

    def _score(self, state: GameState, action: Action, seeds: list[int]) -> float:
        """Mean kill turn of copies of `state` after `action`, played on by the default policy."""
        total = 0.0
        for seed in seeds:
            total += self._rollout(state, action, seed)
        return total / len(seeds)

    def _rollout(self, state: GameState, action: Action, seed: int) -> float:
        s = clone_state(state, random.Random(seed))
        p = self._rollout_policy
        if action is _FINISH:
            p.main_phase(s)
        elif action.kind != Kind.END_TURN:
            s.apply(action)
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
