"""A generated deck's Familiar Deck: whole familiar lines, drawn by the seed (D5, D6, U3, U4).

A line is a familiar that evolves from nothing and every familiar that evolves from it, at any
remove. The deck takes lines whole (an Egg's line first, D6), so every familiar it holds can be
reached by Evolution from one it holds (U4), and it keeps no familiar above the deck's highest
character level (U3), nor one whose form before it was left out.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from sengoku.generate.errors import GenerateError

Card = Mapping[str, Any]
MIN_FAMILIARS, MAX_FAMILIARS = 10, 20  # D5


def familiar_lines(familiars: list[Card], top_level: int) -> list[list[Card]]:
    """Every line (root first, then by level and name), without familiars above `top_level` or after them."""
    by_name: dict[str, Card] = {}
    for card in sorted(familiars, key=lambda c: str(c["id"])):
        by_name.setdefault(str(card["name"]), card)  # D5: one of each name
    children: dict[str, list[Card]] = {}
    for card in by_name.values():
        if card.get("evolves_from") is not None:
            children.setdefault(str(card["evolves_from"]), []).append(card)
    lines = []
    for root in sorted(by_name.values(), key=lambda c: str(c["name"])):
        if root.get("evolves_from") is not None or int(root["level"]) > top_level:
            continue
        line, todo = [], [root]
        while todo:  # parents before children: any prefix of the line holds each familiar's form before it
            card = todo.pop(0)
            line.append(card)
            todo += sorted((c for c in children.get(str(card["name"]), []) if int(c["level"]) <= top_level),
                           key=lambda c: (int(c["level"]), str(c["name"])))
        lines.append(line)
    return lines


def familiar_deck(familiars: list[Card], top_level: int, rng: random.Random) -> list[Card]:
    """Whole lines in a seeded order, an Egg's line first, until 10-20 familiars (the last line cut short if need be)."""
    lines = familiar_lines(familiars, top_level)
    eggs = [line for line in lines if line[0].get("is_egg")]
    if not eggs:
        raise GenerateError("the card database has no Familiar Egg a deck could hold (D6)")
    first = rng.choice(eggs)
    rest = [line for line in lines if line is not first]
    rng.shuffle(rest)
    want = rng.randint(MIN_FAMILIARS, 16)
    deck: list[Card] = []
    for line in [first, *rest]:
        if len(deck) >= want:
            break
        deck += line[: MAX_FAMILIARS - len(deck)]
    if len(deck) < MIN_FAMILIARS:
        raise GenerateError(f"the card database has {len(deck)} familiars a deck could hold; Ultimate Mode needs "
                            f"{MIN_FAMILIARS} (D5)")
    return deck
