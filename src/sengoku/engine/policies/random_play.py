"""The `random` policy: uniform over the legal actions (for testing the rules)."""

from __future__ import annotations

from mypy_extensions import mypyc_attr  # read by mypyc when the engine is compiled

from sengoku.engine.actions import Kind
from sengoku.engine.policies.base import Policy
from sengoku.engine.state import GameState


@mypyc_attr(allow_interpreted_subclasses=True)
class RandomPolicy(Policy):
    """Pick uniformly among all legal actions, until ending the phase is picked (for testing)."""

    name = "random"

    def _run(self, state: GameState, end: Kind) -> None:
        choice = state.policy_rng.choice
        while True:
            action = choice(state.legal_actions())
            if action.kind == end:
                return
            state.apply(action)

    def charge_phase(self, state: GameState) -> None:
        self._run(state, Kind.END_CHARGE_PHASE)

    def main_phase(self, state: GameState) -> None:
        self._run(state, Kind.END_TURN)
