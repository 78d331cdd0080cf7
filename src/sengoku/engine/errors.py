"""Errors the engine raises on purpose (all `SengokuError`, so the CLI shows a message, exit 2)."""

from __future__ import annotations

from sengoku.errors import SengokuError


class EngineError(SengokuError):
    """A deck, board or option the engine cannot play with (unknown card, no Commander, ...)."""


class IllegalAction(EngineError):
    """An action the rules forbid in the current state; the state is left unchanged."""
