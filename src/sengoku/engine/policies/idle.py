"""The `idle` policy: a baseline that never acts (G2)."""

from __future__ import annotations

from sengoku.engine.policies.base import Policy


class IdlePolicy(Policy):
    """Never charge cards, never act: AP is exactly the start plus 10 per turn (a baseline)."""

    name = "idle"
