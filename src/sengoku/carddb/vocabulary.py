"""SENGOKU YUGI's card vocabulary (SPEC C1-C5): kinds, weapons, attributes, corners, familiar effects.

Plain `typing` and tuples, no pydantic: the engine's tables (`engine.tables`), the trace and the
card checks read cards as the database's plain rows and import the vocabulary from here; the
pydantic models (`carddb.models`) build their fields from the same names.
"""

from __future__ import annotations

from typing import Literal

Kind = Literal["main", "support", "nameless", "familiar"]
Gender = Literal["male", "female"]
Weapon = Literal[
    "greatsword", "longsword", "dual_blades", "dagger", "greatshield",
    "battle_axe", "warhammer", "magic_stone", "spear", "bow",
]  # C2: 10 weapons
Attribute = Literal["fire", "water", "lightning", "earth", "wind", "dark", "holy"]  # C2: 7
Corner = Literal["near_left", "near_right", "far_left", "far_right"]

WEAPONS: tuple[str, ...] = Weapon.__args__  # type: ignore[attr-defined]
ATTRIBUTES: tuple[str, ...] = Attribute.__args__  # type: ignore[attr-defined]

Ailment = Literal["burn", "silence", "slow", "paralysis", "collapse", "mute", "poison", "silver_chain"]
FamiliarOp = Literal[
    "hp", "mp", "troop", "weapon", "cure", "full_cure", "blessing",  # support (Quick Start II §9)
    "damage", "ailment",  # combat
    "evolution",  # evolution
    "draw", "gain_ap", "heal", "search",  # the character effects (C5), allowed in support rows
]
# Which row category each familiar effect belongs to (`db check` holds rows to it).
FAMILIAR_OP_CATEGORY: dict[str, str] = {
    "hp": "support", "mp": "support", "troop": "support", "weapon": "support", "cure": "support",
    "full_cure": "support", "blessing": "support", "draw": "support", "gain_ap": "support",
    "heal": "support", "search": "support", "damage": "combat", "ailment": "combat",
    "evolution": "evolution",
}
