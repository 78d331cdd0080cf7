"""Typed views of a SENGOKU YUGI card database (SPEC C1-C5).

Field names are the database's own (`def` is spelled `def_` in Python and `def` in JSON).
The JSON Schema in `schemas/` is the strict contract; these models give typed access once a
file has passed it.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from sengoku.carddb.vocabulary import (  # re-exported: the names this module always offered
    ATTRIBUTES, FAMILIAR_OP_CATEGORY, WEAPONS, Ailment, Attribute, Corner, FamiliarOp, Gender, Kind, Weapon,
)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class Boost(_Strict):
    """Self-boost values (C3): [] for Levels 1-2, [v] for Level 3, [first, second] for Level 4."""

    physical: tuple[int, ...] = ()
    magic: tuple[int, ...] = ()


class Effect(_Strict):
    """A machine-readable effect the engine can run (C5)."""

    op: Literal["draw", "gain_ap", "heal", "search"]
    amount: int = 1
    target: Literal["self", "ally", "commander"] | None = None


class Cost(_Strict):
    ap: int = 0
    other: str | None = None


class CharacterAbility(_Strict):
    name: str
    turn: Literal["your", "opponent", "either"]
    category: str
    location: str
    kind: Literal["TRG", "ACT", "CNT"]
    timing: str | None = None
    condition: str | None = None
    cost: Cost | None = None
    counter: Cost | None = None
    text: str
    effect: tuple[Effect, ...] = ()


class FamiliarEffect(_Strict):
    """One effect of a familiar ability row (Quick Start II §9, A4).

    `amount`: HP gained (hp, heal), cards drawn, AP gained, damage dealt; `weapon`: the weapon
    fetched (weapon); `attribute`: the damage's attribute (default: the familiar's); `ailment`:
    the ailment given (ailment) or cured (cure).
    """

    op: FamiliarOp
    amount: int = 1
    weapon: Weapon | None = None
    attribute: Attribute | None = None
    ailment: Ailment | None = None


class FamiliarAbility(_Strict):
    """One row of a familiar's ability: on a roll of at least `die`, every effect it lists (A4)."""

    name: str
    category: Literal["support", "combat", "evolution"]
    die: int
    text: str
    effect: tuple[FamiliarEffect, ...] = ()


class _CardBase(_Strict):
    id: str
    name: str
    epithet: str
    kind: Kind
    level: int
    charge_value: int
    attribute: Attribute
    atk: int
    mat: int
    def_: int = Field(alias="def")
    mdf: int
    boost: Boost
    set: str | None = None


class Character(_CardBase):
    """A Main, Support or Nameless card (C1)."""

    kind: Literal["main", "support", "nameless"]
    gender: Gender
    weapon: Weapon
    deployment_cost: int  # = max HP
    range: tuple[Corner, ...]
    abilities: tuple[CharacterAbility, ...] = ()


class Familiar(_CardBase):
    """A Familiar card (C4); `is_egg` marks a Familiar Egg."""

    kind: Literal["familiar"]
    contract_cost: int  # = max HP
    evolves_from: str | None
    is_egg: bool
    ability_cost: int
    arrows: tuple[Corner, ...]
    abilities: tuple[FamiliarAbility, ...] = ()


Card = Character | Familiar
AnyCard = Annotated[Character | Familiar, Field(discriminator="kind")]


class Meta(_Strict):
    game: str
    name: str
    version: str
    sample: bool = False
    description: str | None = None
    source: str | None = None


class CardDatabase(BaseModel):
    """A loaded card database: metadata, cards, and where it came from."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    meta: Meta
    cards: tuple[AnyCard, ...]
    path: str | None = None
    content_hash: str = ""

    def by_id(self) -> dict[str, Card]:
        """Map card id to card."""
        return {c.id: c for c in self.cards}

    def characters(self) -> list[Character]:
        """Return the Main, Support and Nameless cards."""
        return [c for c in self.cards if isinstance(c, Character)]

    def familiars(self) -> list[Familiar]:
        """Return the Familiar cards."""
        return [c for c in self.cards if isinstance(c, Familiar)]
