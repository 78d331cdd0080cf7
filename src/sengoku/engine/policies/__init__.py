"""Policies (G2, G6): they choose; the state checks every action they take against the rules.

One module per policy, on the base class of `base`. A policy has two methods,
`charge_phase(state)` and `main_phase(state)`, which act on the state through its checked action
methods and return when they are done; the game loop then ends the phase. A policy's own chance comes only
from `state.policy_rng` (G7). The first line of each class docstring is what the CLI shows.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sengoku.engine.errors import EngineError
from sengoku.engine.policies.base import Policy
from sengoku.engine.policies.develop import ChargePolicy, DevelopPolicy, DevelopSettings
from sengoku.engine.policies.greedy import GreedyPolicy, GreedySettings
from sengoku.engine.policies.idle import IdlePolicy
from sengoku.engine.policies.random_play import RandomPolicy
from sengoku.engine.policies.search import SearchPolicy

__all__ = ["POLICIES", "SETTINGS", "ChargePolicy", "DevelopPolicy", "DevelopSettings", "GreedyPolicy",
           "GreedySettings", "IdlePolicy", "Policy", "RandomPolicy", "SearchPolicy", "describe", "make_policy",
           "policy_settings"]

POLICIES: dict[str, type[Policy]] = {
    "greedy": GreedyPolicy,
    "develop": DevelopPolicy,
    "charge": ChargePolicy,
    "search": SearchPolicy,
    "random": RandomPolicy,
    "idle": IdlePolicy,
}


# A policy's settings, one record each (`from_mapping` checks names and types); search's rollouts play greedy.
SETTINGS: dict[str, Any] = {"greedy": GreedySettings, "search": GreedySettings}


def _policy_class(name: str) -> type[Policy]:
    try:
        return POLICIES[name]
    except KeyError:
        raise EngineError(f"unknown policy {name!r} (known: {', '.join(POLICIES)})") from None


def policy_settings(name: str, settings: Mapping[str, Any]) -> dict[str, Any]:
    """Check settings of policy `name` (setting -> value) with the policy's own settings record; return them typed.

    Raise EngineError naming the setting when a name is unknown or a value has the wrong type, or
    when the policy has no settings.
    """
    _policy_class(name)
    if not settings:
        return {}
    record = SETTINGS.get(name)
    if record is None:
        raise EngineError(f"{name} has no settings (policies with settings: {', '.join(SETTINGS)})")
    checked = record.from_mapping(settings)
    return {key: getattr(checked, key) for key in settings}


def make_policy(name: str, settings: Mapping[str, Any] | None = None) -> Policy:
    """Return a new policy by name (see `POLICIES`), with `settings` (checked by `policy_settings`) changed."""
    cls: Any = _policy_class(name)
    if settings:
        policy_settings(name, settings)
        return cls(SETTINGS[name].from_mapping(settings))
    return cls()


def describe(name: str) -> str:
    """Return a policy's one-paragraph description (its docstring), for `--help` and the docs."""
    doc = POLICIES[name].__doc__ or ""
    return " ".join(doc.split())
