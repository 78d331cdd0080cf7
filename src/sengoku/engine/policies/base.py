"""The policy base class (G2): what every policy does unless it chooses otherwise.

A policy has two methods, `charge_phase(state)` and `main_phase(state)`, which act on the
state through its action methods (`charge_card`, `hp_charge`, `deploy`, `stack`, ...) and
return when they are done; the game loop then ends the phase. A policy's own chance comes only
from `state.policy_rng` (G7). The first line of each class docstring is what the CLI shows.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import ClassVar

from mypy_extensions import mypyc_attr  # read by mypyc when the engine is compiled

from sengoku.engine.chooser import Chooser
from sengoku.engine.constants import FAMILIAR_HAND_LIMIT, HAND_LIMIT
from sengoku.engine.state import GameState


@mypyc_attr(allow_interpreted_subclasses=True)  # others may write policies on top of these
class Policy(Chooser):
    """Base class: never acts, except what the rules force (hand limits, T2a/U1)."""

    name: ClassVar[str] = "base"

    def charge_phase(self, state: GameState) -> None:
        forced_charges(state)

    def main_phase(self, state: GameState) -> None:
        pass

    def bind(self, state: GameState) -> tuple[Callable[[], None], Callable[[], None]]:
        """Return this game's (charge phase, main phase) as calls without arguments.

        The game loop asks once per game, so a policy may look up the state's zones and tables
        here instead of every turn; the default calls the two methods.
        """
        return partial(self.charge_phase, state), partial(self.main_phase, state)

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


def forced_charges(state: GameState) -> None:
    """Send cards until the hand limits hold (T2a, U1): unstackable cards first, lowest charge value first."""
    hand = state.hand
    if len(hand) > HAND_LIMIT:
        charge = state.t.charge
        order = sorted(range(len(hand)),
                       key=lambda p: (state.stack_target(hand[p]) is not None, charge[hand[p]], p))
        state.charge_cards(order[: len(hand) - HAND_LIMIT])
    if len(state.fam_hand) > FAMILIAR_HAND_LIMIT:
        _forced_familiar_charge(state)


def _forced_familiar_charge(state: GameState) -> None:
    """Send familiars down to 3 (T2c, U1): the ones least able to contract; HP to the neediest ally."""
    t = state.t
    top_level = max((t.level[a.top] for a in state.allies if not a.released), default=0)
    fh = state.fam_hand
    order = sorted(range(len(fh)), key=lambda p: (t.level[fh[p]] <= top_level, -t.level[fh[p]], p))
    positions = tuple(order[: len(fh) - FAMILIAR_HAND_LIMIT])
    target = None
    if state.allies:
        target = max(range(len(state.allies)),
                     key=lambda i: (t.cost[state.allies[i].top] - state.allies[i].hp, -i))
    state.familiar_hp_charge(positions, target)
