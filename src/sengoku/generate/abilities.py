"""Abilities of generated cards, only from the structured effects the engine runs (C5, A4).

A character ability is one of a few kinds the engine raises and resolves: triggered on
deployment, Growth, Growth in the Frontline or combat damage; activated on the Battlefield
(some turning the ally to Defense Stance) or from the hand (the card then goes to the Standby
Zone); its effects draw, gain AP or heal, and it costs only AP. A familiar's rows are Support
rows of HP, MP, Troop, a weapon fetch, draw, gain AP or heal, and an Evolution row when a
familiar evolves from it (Quick Start II §9). Combat rows (damage, ailments) are left out: a
goldfish game skips them.
"""

from __future__ import annotations

import random
from typing import Any

from sengoku.carddb.vocabulary import WEAPONS

# name, kind, timing (TRG) or location (ACT), effect op, amount, target, AP cost, category, text
_CHARACTER = (
    ("Supply Line", "TRG", "deployment", "draw", 1, None, 2, "card_acquisition",
     "When this character is deployed: draw {n} card(s)."),
    ("Rallying Cry", "TRG", "deployment", "gain_ap", 2, None, 0, "enhancement",
     "When this character is deployed: gain {n} AP."),
    ("Field Medic", "TRG", "deployment", "heal", 1, "commander", 1, "recovery",
     "When this character is deployed: your Commander gets +{n} HP."),
    ("Harvest", "TRG", "growth", "gain_ap", 1, None, 0, "enhancement", "When this character Grows: gain {n} AP."),
    ("Second Wind", "TRG", "growth", "heal", 1, "self", 0, "recovery",
     "When this character Grows: it gets +{n} HP."),
    ("Vanguard Spirit", "TRG", "growth_frontline", "gain_ap", 2, None, 0, "enhancement",
     "When this character Grows in the Frontline: gain {n} AP."),
    ("Spoils of War", "TRG", "combat_damage", "draw", 1, None, 1, "card_acquisition",
     "When this character deals combat damage: draw {n} card(s)."),
    ("Scout Ahead", "ACT", "battlefield_to_defense", "draw", 1, None, 2, "card_acquisition",
     "Turn this character to Defense Stance: draw {n} card(s)."),
    ("Bandage", "ACT", "battlefield", "heal", 1, "self", 2, "recovery", "This character gets +{n} HP."),
    ("Muster", "ACT", "hand_to_standby", "draw", 2, None, 3, "card_acquisition",
     "Send this card from your hand to the Standby Zone: draw {n} card(s)."),
)

_ROW_TEXT = {"hp": "the target gets +1 HP", "mp": "a card of the target's name goes from your Standby Zone into its "
             "Growth Sources", "troop": "look at the top cards of your Stronghold (as many as this familiar's "
             "Level), put one into your hand and the rest on the bottom", "draw": "draw 1 card",
             "gain_ap": "gain 1 AP", "heal": "the target gets +1 HP"}
_ROW_OPS = ("hp", "mp", "troop", "weapon", "draw", "gain_ap", "heal")


def character_ability(rng: random.Random, level: int) -> dict[str, Any]:
    """One ability a goldfish game runs; at Levels 3-4 sometimes a stronger one (named II)."""
    name, kind, when, op, amount, target, cost, category, text = rng.choice(_CHARACTER)
    if level >= 3 and rng.random() < 0.5:
        name, amount = f"{name} II", amount + 1
    effect: dict[str, Any] = {"op": op, "amount": amount}
    if target is not None:
        effect["target"] = target
    ability: dict[str, Any] = {"name": name, "turn": "your", "category": category,
                               "location": "battlefield" if kind == "TRG" else when, "kind": kind}
    if kind == "TRG":
        ability["timing"] = when
    if cost:
        ability["cost"] = {"ap": cost}
    ability.update(text=text.format(n=amount), effect=[effect])
    return ability


def familiar_rows(rng: random.Random, level: int, evolves: bool) -> list[dict[str, Any]]:
    """A familiar's rows: 1-3 Support rows on rising dice, each adding an effect; Evolution on 4-5 if it evolves."""
    dice = sorted(rng.sample(range(1, 7), rng.randint(1, 3)))
    ops = rng.sample(_ROW_OPS, len(dice))
    rows = []
    for k, die in enumerate(dice):
        effects: list[dict[str, Any]] = []
        texts = []
        for op in ops[: k + 1]:
            if op == "weapon":
                weapon = rng.choice(WEAPONS)
                effects.append({"op": "weapon", "weapon": weapon})
                texts.append(f"take a {weapon.replace('_', ' ')} card from your Standby Zone into your hand")
            else:
                effects.append({"op": op})
                texts.append(_ROW_TEXT[op])
        name = " and ".join(e["op"].replace("_", " ").upper() if e["op"] in ("hp", "mp")
                            else e["op"].replace("_", " ").title() for e in effects)
        rows.append({"name": name, "category": "support", "die": die,
                     "text": f"Roll {die}+: " + "; ".join(texts) + ".", "effect": effects})
    if evolves:
        die = rng.randint(4, 5)
        rows.append({"name": "Evolution", "category": "evolution", "die": die,
                     "text": f"Roll {die}+: this familiar's evolved form from your Summoning Zone goes on top of it.",
                     "effect": [{"op": "evolution"}]})
    return rows
