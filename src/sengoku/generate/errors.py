"""The generators' one error: a profile the card database cannot give, an unknown profile, a bad seed."""

from __future__ import annotations

from sengoku.errors import SengokuError


class GenerateError(SengokuError):
    """A deck or card database cannot be generated as asked (the message says why)."""
