"""Checks kept in code, by name: what the rule vocabulary cannot say well.

The vocabulary counts cards that match a filter. These checks instead *join* two sets of
cards in the deck (a Nameless against the characters it could grow into; a familiar against
the levels of the characters that could hold it), which would need a general expression
language in the rule files; a few lines of Python are clearer. A game lists the checks it
uses in its `game.toml` (`checks = [...]`); other games may register their own here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from sengoku.decklist.model import Decklist
from sengoku.carddb.catalog import Catalog
from sengoku.validate.resolve import Resolution
from sengoku.problems import Problem


@dataclass(frozen=True)
class CheckContext:
    """What a code check sees: the deck, its cards, and how its entries resolved."""

    deck: Decklist
    catalog: Catalog
    resolution: Resolution


@dataclass(frozen=True)
class CodeCheck:
    """A named check: its rule id, severity, one-line description and rules-digest id."""

    name: str
    rule: str
    severity: str
    description: str
    spec: str
    run: Callable[[CheckContext], Iterator[Problem]]


CODE_CHECKS: dict[str, CodeCheck] = {}


def code_check(name: str, *, severity: str = "warning", description: str, spec: str = "", rule: str | None = None
               ) -> Callable[[Callable[[CheckContext], Iterator[Problem]]], Callable[[CheckContext], Iterator[Problem]]]:
    """Register a check under `name` (its rule id too, unless `rule` is given)."""
    def register(fn: Callable[[CheckContext], Iterator[Problem]]) -> Callable[[CheckContext], Iterator[Problem]]:
        CODE_CHECKS[name] = CodeCheck(name, rule or name, severity, description, spec, fn)
        return fn

    return register


def _cards_in(ctx: CheckContext, sections: tuple[str, ...], kinds: tuple[str, ...]) -> list[tuple[str, dict[str, Any]]]:
    out = []
    for section in sections:
        for card_id in ctx.resolution.sections.get(section, {}):
            card = ctx.catalog.cards[card_id]
            if card.get("kind") in kinds:
                out.append((card_id, card))
    return out


def _at(ctx: CheckContext, section: str, card_id: str) -> tuple[int | None, int | None]:
    entry = ctx.resolution.first_entry.get((section, card_id))
    return (entry.line, entry.column) if entry is not None else (None, None)


@code_check("nameless-cannot-grow", spec="M2",
            description="A Nameless whose gender and weapon match no higher-level Main/Support card in the deck can never grow")
def nameless_cannot_grow(ctx: CheckContext) -> Iterator[Problem]:
    """Warn about a Nameless that no card in the deck can grow (M2: same gender and weapon, higher level)."""
    characters = _cards_in(ctx, ("main",), ("main", "support"))
    for card_id, card in _cards_in(ctx, ("nameless",), ("nameless",)):
        level = card.get("level", 1)
        if any(c.get("gender") == card.get("gender") and c.get("weapon") == card.get("weapon")
               and c.get("level", 0) > level for _, c in characters):
            continue
        line, column = _at(ctx, "nameless", card_id)
        yield Problem(
            rule="nameless-cannot-grow", severity="warning", line=line, column=column, cards=(card_id,),
            message=f"{ctx.catalog.show(card_id)} can never grow: no Main/Support card above Level {level} in "
                    f"the deck is {card.get('gender')} with a {str(card.get('weapon')).replace('_', ' ')} (M2)")


@code_check("familiar-cannot-contract", spec="U3",
            description="Ultimate Mode: a familiar above every character's level can never be contracted")
def familiar_cannot_contract(ctx: CheckContext) -> Iterator[Problem]:
    """Warn about familiars no character in the deck is high enough to hold (U3: familiar level <= holder level)."""
    if ctx.deck.mode != "ultimate":
        return  # D7: a Standard deck's familiars are ignored (and already warned about)
    levels = [c.get("level", 0) for _, c in _cards_in(ctx, ("main", "nameless"), ("main", "support", "nameless"))]
    top = max(levels, default=0)
    for card_id, card in _cards_in(ctx, ("familiars",), ("familiar",)):
        if card.get("level", 0) > top:
            line, column = _at(ctx, "familiars", card_id)
            yield Problem(
                rule="familiar-cannot-contract", severity="warning", line=line, column=column, cards=(card_id,),
                message=f"{ctx.catalog.show(card_id)} is above every character in the deck (highest: Level {top}), "
                        f"so it can never be contracted (U3)")
