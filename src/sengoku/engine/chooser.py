"""The choices the rules ask a player to make in the middle of an action.

An action may stop to ask its player something: whether to use an optional triggered ability
(A2). The state asks its `chooser`; a `Policy` is one (the game runner hands the policy to the
state), and the defaults here are what a state asks when no policy is bound.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mypy_extensions import mypyc_attr  # read by mypyc when the engine is compiled

from sengoku.engine.tables import Trigger

if TYPE_CHECKING:
    from sengoku.engine.ally import Ally


@mypyc_attr(allow_interpreted_subclasses=True)
class Chooser:
    """Answers the questions an action asks its player; the answers here are the defaults."""

    def use_trigger(self, state: Any, ally: Ally, trigger: Trigger) -> bool:
        """Use this optional triggered ability of `ally` now (A2)? It is affordable and unused (A1)."""
        return True
