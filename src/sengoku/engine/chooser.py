"""The choices the rules ask a player to make in the middle of an action.

An action may stop to ask its player something: whether to use an optional triggered ability
(A2), which row of a familiar ability to apply after the die roll (A4). The state asks its `chooser`; a `Policy` is one (the game runner hands the policy to the
state), and the defaults here are what a state asks when no policy is bound.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mypy_extensions import mypyc_attr  # read by mypyc when the engine is compiled

from sengoku.engine.tables import FamiliarRow, Trigger

if TYPE_CHECKING:
    from sengoku.engine.ally import Ally


@mypyc_attr(allow_interpreted_subclasses=True)
class Chooser:
    """Answers the questions an action asks its player; the answers here are the defaults."""

    def use_trigger(self, state: Any, ally: Ally, trigger: Trigger) -> bool:
        """Use this optional triggered ability of `ally` now (A2)? It is affordable and unused (A1)."""
        return True

    def use_familiar_trigger(self, state: Any, ally: Ally, cost: int) -> bool:
        """Use the Released familiar `ally`'s ability, which its combat damage triggered (A4, A2)?

        The state asks only when the Ability Cost `cost` can be paid and the familiar has not used
        its ability this turn.
        """
        return True

    def familiar_row(self, state: Any, ally: Ally, rows: list[FamiliarRow]) -> int:
        """Pick which of `rows` (the familiar ability rows the die reached, A4) `ally`'s familiar applies.

        `ally` is the Contract Holder, or the Released familiar. The default: the row that changes
        the most (`state.familiar_row_gain`), the higher die among equals.
        """
        best, most = 0, -1
        for k, row in enumerate(rows):
            gain = state.familiar_row_gain(ally, row)
            if gain >= most:
                best, most = k, gain
        return best
