"""A seeded card database of another balance: names, stats, costs, ranges, levels and abilities (issue 36).

`generate_card_db(seed)` draws a `Balance` from the seed (how strong each level attacks and
defends, what it costs, how wide its range, how often it carries an ability), then the cards:
characters in names climbing Levels 1-4 (some start later or stop sooner, a few have two
epithets at a level), magic attackers among them, Support names at Levels 2-3, Nameless that
cards of the set can grow (M2), and familiar lines from Eggs and from other roots (C4). Every
ability uses only effects the engine runs (C5, A4: draw, gain AP, heal; HP, MP, Troop, weapon
fetch, Evolution), so no game skips one. The result passes `sengoku db check` (the tests hold it
to that on many seeds).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

from sengoku.carddb.vocabulary import ATTRIBUTES, WEAPONS
from sengoku.generate.abilities import character_ability, familiar_rows
from sengoku.generate.errors import GenerateError
from sengoku.generate.names import Names

CORNERS = ("near_left", "near_right", "far_left", "far_right")


@dataclass(frozen=True)
class Balance:
    """How a generated set weighs its levels: one value per Level 1-4 where it says so."""

    attack: tuple[int, int, int, int]  # a physical attacker's ATK (a magic one's MAT), by level
    defense: float  # DEF and MDF as a share of the level's attack
    cost: tuple[int, int, int, int]  # deployment cost (= max HP, M1), by level
    charge: tuple[int, int]  # charge values drawn between these (T2a)
    corners: float  # chance of each corner of the unique range at Level 1 (more at higher levels)
    abilities: float  # chance that a character carries an ability
    magic: float  # share of names that attack with MAT

    @classmethod
    def draw(cls, rng: random.Random) -> Balance:
        """A balance drawn from `rng`: each level above the last, within bounds the schema allows."""
        a1 = rng.randint(3, 8)
        a2 = a1 + rng.randint(3, 6)
        a3 = a2 + rng.randint(2, 6)
        a4 = a3 + rng.randint(2, 6)
        c1 = rng.randint(1, 4)
        c2 = c1 + rng.randint(1, 3)
        c3 = c2 + rng.randint(1, 3)
        c4 = c3 + rng.randint(1, 4)
        low = rng.randint(1, 2)
        return cls(attack=(a1, a2, a3, a4), defense=round(rng.uniform(0.3, 0.6), 2), cost=(c1, c2, c3, c4),
                   charge=(low, low + rng.randint(1, 2)), corners=round(rng.uniform(0.1, 0.45), 2),
                   abilities=round(rng.uniform(0.15, 0.6), 2), magic=round(rng.uniform(0.15, 0.35), 2))


class _Set:
    """The cards of one generated set, numbered as they are made."""

    def __init__(self, seed: int, rng: random.Random, balance: Balance):
        self.rng, self.balance = rng, balance
        self.code = f"G{seed}"
        self.cards: list[dict[str, Any]] = []
        self.names = Names(rng)

    def add(self, card: dict[str, Any]) -> dict[str, Any]:
        card = {"id": f"{self.code}-{len(self.cards) + 1:03d}", "set": self.code, **card}
        self.cards.append(card)
        return card

    def jitter(self, value: float, spread: int = 2, least: int = 0) -> int:
        return max(least, round(value) + self.rng.randint(-spread, spread))

    def character(self, name: str, kind: str, level: int, magic: bool, gender: str, weapon: str,
                  attribute: str) -> dict[str, Any]:
        b, rng = self.balance, self.rng
        power = self.jitter(b.attack[level - 1], least=1)
        weak = self.jitter(power / 4, 1, least=0)
        atk, mat = (weak, power) if magic else (power, weak)
        guard = b.attack[level - 1] * b.defense
        p_corner = min(0.95, b.corners + 0.15 * (level - 1))
        boost: dict[str, list[int]] = {"physical": [], "magic": []}  # C3: none at Levels 1-2
        if level == 3:
            boost = {"physical": [rng.randint(1, 2) if magic else rng.randint(2, 4)],
                     "magic": [rng.randint(2, 4) if magic else rng.randint(1, 2)]}
        elif level == 4:
            first, second = rng.randint(3, 5), rng.randint(1, 3)
            boost = {"physical": [second, 1] if magic else [first, second],
                     "magic": [first, second] if magic else [second, 1]}
        abilities = [character_ability(rng, level)] if rng.random() < b.abilities else []
        return self.add({
            "name": name, "epithet": self.names.epithet(), "kind": kind, "level": level,
            "charge_value": rng.randint(*b.charge), "attribute": attribute, "atk": atk, "mat": mat,
            "def": self.jitter(guard * (0.7 if magic else 1.0), 1, least=1),
            "mdf": self.jitter(guard * (1.0 if magic else 0.7), 1, least=1),
            "boost": boost, "abilities": abilities, "gender": gender, "weapon": weapon,
            "deployment_cost": min(30, self.jitter(b.cost[level - 1], 1, least=1)),
            "range": [c for c in CORNERS if rng.random() < p_corner]})


def _levels(rng: random.Random) -> tuple[int, ...]:
    """The levels of one Main name: mostly 1-4; sometimes it starts at 2 or stops at 2 or 3."""
    r = rng.random()
    return (1, 2, 3, 4) if r < 0.7 else (2, 3, 4) if r < 0.8 else (1, 2, 3) if r < 0.9 else (1, 2)


def generate_card_db(seed: int, balance: Balance | None = None) -> dict[str, Any]:
    """Return a SENGOKU YUGI card database (`{"meta": ..., "cards": [...]}`) drawn from `seed`.

    `balance` (default: drawn from the seed too) sets the strength, cost and range of each level.
    """
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise GenerateError(f"a card database's seed is a whole number of 0 or more, not {seed!r}")
    rng = random.Random(f"cards|{seed}")
    drawn = Balance.draw(rng)
    s = _Set(seed, rng, balance or drawn)
    mains: list[tuple[str, str, str, tuple[int, ...]]] = []  # (gender, weapon, name, levels) of Main names
    n_main = rng.randint(14, 18)
    n_magic = max(3, round(n_main * s.balance.magic))
    for k in range(n_main):
        name, magic = s.names.name(), k < n_magic
        levels = (1, 2, 3, 4) if k < 3 or n_magic <= k < n_magic + 6 else _levels(rng)
        gender = rng.choice(("male", "female"))
        weapon = "magic_stone" if magic and rng.random() < 0.6 else rng.choice(WEAPONS)
        attribute = rng.choice(ATTRIBUTES)
        for level in levels:
            for _ in range(2 if rng.random() < 0.05 else 1):  # now and then two epithets at one level (D3)
                s.character(name, "main", level, magic, gender, weapon, attribute)
        mains.append((gender, weapon, name, levels))
    for k in range(rng.randint(3, 5)):  # C1: Support cards are Level 2 or 3
        name, magic = s.names.name(), k == 0
        gender, weapon, attribute = rng.choice(("male", "female")), rng.choice(WEAPONS), rng.choice(ATTRIBUTES)
        for level in ((2, 3) if k < 3 else rng.choice(((2,), (3,), (2, 3)))):
            s.character(name, "support", level, magic, gender, weapon, attribute)
    growable = sorted({(g, w) for g, w, _, levels in mains if max(levels) > 1})
    for gender, weapon in rng.sample(growable, min(len(growable), rng.randint(3, 6))):  # M2: cards can grow them
        card = s.character(s.names.name(), "nameless", 1, weapon == "magic_stone", gender, weapon,
                           rng.choice(ATTRIBUTES))
        card.update(epithet=f"Nameless {s.names.noun()}", abilities=[], range=[])
    _familiars(s)
    meta = {"game": "sengoku-yugi", "name": f"Generated set {seed}", "version": f"gen-{seed}", "sample": True,
            "description": "Invented cards drawn by sengoku.generate.generate_card_db: a card database of another "
                           "balance, for measuring a policy on cards it was never tuned to.",
            "source": f"sengoku.generate.generate_card_db({seed}); balance {_balance_text(s.balance)}"}
    return {"meta": meta, "cards": s.cards}


def _balance_text(b: Balance) -> str:
    return (f"attack {'/'.join(map(str, b.attack))}, defense {b.defense}, cost {'/'.join(map(str, b.cost))}, "
            f"charge {b.charge[0]}-{b.charge[1]}, corners {b.corners}, abilities {b.abilities}, magic {b.magic}")


def _familiars(s: _Set) -> None:
    """Egg lines (Egg, then Levels 2, 3 and sometimes 4), lines from other roots, and familiars alone (C4)."""
    rng = s.rng
    eggs = rng.randint(3, 5)
    plans: list[list[int]] = []
    for _ in range(eggs):
        plans.append([1, 2, 3, 4] if rng.random() < 0.4 else [1, 2, 3])
    for _ in range(rng.randint(2, 3)):
        plans.append(rng.choice(([1, 2], [1, 3], [2, 3], [1, 2, 4])))
    for _ in range(rng.randint(2, 4)):
        plans.append([rng.randint(2, 3)])
    for number, levels in enumerate(plans):
        egg_line = number < eggs
        attribute = rng.choice(ATTRIBUTES)
        before: str | None = None
        for step, level in enumerate(levels):
            egg = egg_line and step == 0
            name = f"Radiant Stone of {s.names.colour()}" if egg else s.names.name()
            evolves = step < len(levels) - 1
            power = 0 if egg else max(1, round(s.balance.attack[level - 1] * rng.uniform(0.3, 0.6)))
            atk, mat = (power, rng.randint(0, 2)) if rng.random() < 0.6 else (rng.randint(0, 2), power)
            s.add({
                "name": name, "epithet": "Familiar Egg" if egg else s.names.epithet(), "kind": "familiar",
                "level": level, "charge_value": max(1, level - 1) if level < 4 else 3, "attribute": attribute,
                "atk": 0 if egg else atk, "mat": 0 if egg else mat, "def": rng.randint(2, 3 + level),
                "mdf": rng.randint(2, 3 + level),
                "boost": {"physical": [], "magic": []} if egg else
                {"physical": [rng.randint(1, 3)], "magic": [rng.randint(1, 3)]},  # C3: one each, none on an Egg
                "abilities": familiar_rows(rng, level, evolves),
                "contract_cost": min(30, max(1, round(s.balance.cost[level - 1] * rng.uniform(0.8, 1.3)))),
                "evolves_from": before, "is_egg": egg, "ability_cost": level,
                "arrows": [] if egg else [c for c in CORNERS if rng.random() < 0.2 + 0.15 * level]})
            before = name


def card_db_json(data: dict[str, Any]) -> str:
    """Return a card database as `cards.json` text: one card a line, so two sets read side by side."""
    head = json.dumps({"meta": data["meta"]}, ensure_ascii=False)[:-1]
    cards = ",\n".join("    " + json.dumps(c, ensure_ascii=False) for c in data["cards"])
    return f"{head},\n  \"cards\": [\n{cards}\n  ]\n}}\n"
