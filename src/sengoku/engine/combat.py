"""Combat arithmetic (K1-K4): pure functions of ints, shared by the engine and its tests."""

from __future__ import annotations

from typing import Final

# K1 Decision: D = 0 and A > 0 defeats the target; any HP is below this.
LETHAL: Final = 1_000_000

# K4 outcomes of an attack on the Stronghold.
ATTACKER_HIGHER: Final = 0
GUARD_HIGHER: Final = 1
EQUAL: Final = 2


def combat_damage(attack: int, defense: int) -> int:
    """Return the combat damage an attack power deals to a defense power (K1)."""
    if attack <= defense:
        return 0
    if defense <= 0:
        return LETHAL  # K1 Decision: nothing to divide by; the target is defeated
    return attack // defense


def boosted_attack(base: int, boosts: tuple[int, ...], n: int) -> int:
    """Return attack power after `n` self-boosts (K2: Level 3 once, Level 4 first then second value)."""
    if n < 0 or n > len(boosts):
        raise ValueError(f"{n} self-boosts asked, {len(boosts)} allowed")
    return base + sum(boosts[:n])


def boosted_defense(base: int, level: int, n: int) -> int:
    """Return defense power after `n` self-boosts (K3: +1 each, at most Level times)."""
    if n < 0 or n > level:
        raise ValueError(f"{n} defense self-boosts asked, at most {level} (the Level) allowed")
    return base + n


def last_guard_combat(attacker: int, guard: int) -> tuple[int, int, int]:
    """Resolve an attack on the Stronghold against its Last Guard (K4).

    Return (outcome, damage to the attacker, damage to the Stronghold): attacker higher ->
    Last Guard defeated, Stronghold -1 however large the gap; guard higher -> the attacker takes
    damage as in K1 (guard's power against the attacker's), the Stronghold none; equal -> both
    take 1, Stronghold -1. The defender's Commander ATK, if it joins, is already in `guard`.
    """
    if attacker > guard:
        return ATTACKER_HIGHER, 0, 1
    if guard > attacker:
        return GUARD_HIGHER, combat_damage(guard, attacker), 0
    return EQUAL, 1, 1
