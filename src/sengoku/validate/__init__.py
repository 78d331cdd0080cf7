"""Deck validation: construction rules (as data) checked against a card database.

The data flows one way: decklist file -> `sengoku.decklist.read` (syntax) -> `resolve` (entries
to card ids) -> `check` (the game's rules from `game.toml`, compiled by `rules`, plus the named
code `checks`) -> `ValidationResult` -> a reporter in `reporters` (text, json, github, junit,
sarif, markdown; the registration sheets), which the checker knows nothing about.

Names are imported lazily so that `sengoku.validate.result` (a contract other packages use)
stays cheap to import and free of cycles.
"""

from __future__ import annotations

from sengoku._lazy import lazy_exports

_NAMES = {
    "ValidationRun": "sengoku.validate.api",
    "Validator": "sengoku.validate.api",
    "validate_deck": "sengoku.validate.api",
    "validate_file": "sengoku.validate.api",
    "validate_paths": "sengoku.validate.api",
    "ValidationResult": "sengoku.validate.result",
    "Problem": "sengoku.problems",
}
__all__ = list(_NAMES)


__getattr__ = lazy_exports(__name__, _NAMES)
