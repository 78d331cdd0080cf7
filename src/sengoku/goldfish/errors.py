"""What goldfishing refuses: unusable options, an engine option for a game without the engine, an invalid deck."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sengoku.errors import SengokuError

if TYPE_CHECKING:  # pragma: no cover
    from sengoku.validate.result import ValidationResult


class GoldfishError(SengokuError):
    """Options a simulation cannot run with (no runs, unknown policy, bad Commander …)."""


class EngineOptionError(GoldfishError):
    """An option of the turn-by-turn engine, given for a deck of a game that gets its opening hands only."""

    def __init__(self, option: str, game: str) -> None:
        self.option, self.game = option, game
        super().__init__(f"{option} drives SENGOKU YUGI's turn-by-turn engine; a {game} deck gets its "
                         "opening hand only")


class InvalidDeckError(SengokuError):
    """The deck breaks construction rules; it must be valid to be simulated (issue 4)."""

    def __init__(self, validation: ValidationResult, role: str = "deck") -> None:
        self.validation, self.role = validation, role
        n = len(validation.errors)
        what = "the deck" if role == "deck" else f"the {role} deck"
        super().__init__(f"{validation.path or what}: {what} is not valid in {validation.mode} mode "
                         f"({n} error(s)); fix it before goldfishing")
