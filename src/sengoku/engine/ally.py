"""An ally in play: one record with named fields (compiled to a native class with the engine)."""

from __future__ import annotations

from sengoku.engine.board import COMMAND_ZONE, OFF_OUR_BOARD


class Ally:
    """A character (or a Released familiar) in play, with the cards stacked under it.

    `top` is the top card (a card index); `hp` its HP; `space` its board space, or
    `COMMAND_ZONE`; `defending` is Defense Stance (else Attack Stance); `sources` the growth or
    evolution sources, bottom first (M6); `familiars` the contracted familiar and its evolution
    sources, bottom first, the familiar on top last (U3, U4); `entered` the turn it entered play
    (K4); `released` a Released familiar (U5); `used_turn` and `used` the turn and the bits of
    the abilities used that turn (A1: the limit belongs to the ally, not to its top card, so it
    survives Growth, Focus and Evolution); `in_play` turns False when it leaves play.
    """

    __slots__ = ("top", "hp", "space", "defending", "sources", "familiars", "entered", "released",
                 "used_turn", "used", "in_play")

    def __init__(self, top: int, hp: int, space: int, entered: int, released: bool = False,
                 sources: list[int] | None = None) -> None:
        self.top = top
        self.hp = hp
        self.space = space
        self.defending = False  # M1: allies enter play in Attack Stance
        self.sources: list[int] = sources if sources is not None else []
        self.familiars: list[int] = []
        self.entered = entered
        self.released = released
        self.used_turn = -1
        self.used = 0
        self.in_play = True

    def __eq__(self, other: object) -> bool:
        """Allies are equal when every field is (as records are); the state tells allies apart by identity."""
        if not isinstance(other, Ally):
            return NotImplemented
        return (self.__class__, self.top, self.hp, self.space, self.defending, self.sources, self.familiars,
                self.entered, self.released, self.used_turn, self.used, self.in_play) == (
            other.__class__, other.top, other.hp, other.space, other.defending, other.sources, other.familiars,
            other.entered, other.released, other.used_turn, other.used, other.in_play)

    __hash__ = None  # type: ignore[assignment]  # mutable

    @property
    def in_command_zone(self) -> bool:
        return self.space == COMMAND_ZONE

    def __repr__(self) -> str:
        where = ("Command Zone" if self.space == COMMAND_ZONE else
                 "off our board" if self.space == OFF_OUR_BOARD else f"space {self.space}")
        stance = "Defense" if self.defending else "Attack"
        return f"{type(self).__name__}(card {self.top}, {self.hp} HP, {where}, {stance} Stance)"


class Enemy(Ally):
    """A character of the goldfish opponent (G4): it never acts, but it occupies its space.

    Its `top` is a card index of the opponent's deck tables. No action of ours takes an Enemy as
    an ally (the state's ally lookup accepts `Ally` records only).
    """

    __slots__ = ()
