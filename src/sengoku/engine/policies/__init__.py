"""Policies (G2, G6): they choose; the state checks every action they take against the rules.

One module per policy, on the base class of `base`. A policy has two methods,
`charge_phase(state)` and `main_phase(state)`, which act on the state through its checked action
methods and return when they are done; the game loop then ends the phase. A policy's own chance comes only
from `state.policy_rng` (G7). The first line of each class docstring is what the CLI shows.
"""

from __future__ import annotations

from sengoku.engine.errors import EngineError
from sengoku.engine.policies.base import Policy
from sengoku.engine.policies.develop import ChargePolicy, DevelopPolicy, DevelopSettings
from sengoku.engine.policies.greedy import GreedyPolicy, GreedySettings
from sengoku.engine.policies.idle import IdlePolicy
from sengoku.engine.policies.random_play import RandomPolicy
from sengoku.engine.policies.search import SearchPolicy

__all__ = ["POLICIES", "ChargePolicy", "DEFAULT_POLICY", "DevelopPolicy", "DevelopSettings", "GreedyPolicy",
           "GreedySettings", "IdlePolicy", "Policy", "RandomPolicy", "SearchPolicy", "describe", "make_policy"]

DEFAULT_POLICY = "greedy"

POLICIES: dict[str, type[Policy]] = {
    "greedy": GreedyPolicy,
    "develop": DevelopPolicy,
    "charge": ChargePolicy,
    "search": SearchPolicy,
    "random": RandomPolicy,
    "idle": IdlePolicy,
}


def make_policy(name: str = DEFAULT_POLICY) -> Policy:
    """Return a new policy by name (see `POLICIES`)."""
    try:
        return POLICIES[name]()
    except KeyError:
        raise EngineError(f"unknown policy {name!r} (known: {', '.join(POLICIES)})") from None


def describe(name: str) -> str:
    """Return a policy's one-paragraph description (its docstring), for `--help` and the docs."""
    doc = POLICIES[name].__doc__ or ""
    return " ".join(doc.split())
