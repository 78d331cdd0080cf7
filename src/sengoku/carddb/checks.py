"""Checks on a SENGOKU YUGI card database beyond what the JSON Schema can say (SPEC C1-C4).

Each check takes the raw card list (already schema-valid) and yields problems; all run, so
every problem of a file is reported at once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

from sengoku.carddb.problems import Problem

RawCard = dict[str, Any]


def _p(path: str, i: int, card: RawCard, field: str | None, message: str, code: str) -> Problem:
    json_path = f"$.cards[{i}]" + (f".{field}" if field else "")
    return Problem(path=path, message=message, card_id=card.get("id"), json_path=json_path, code=code)


def check_duplicate_ids(path: str, cards: list[RawCard]) -> Iterator[Problem]:
    counts = Counter(c.get("id") for c in cards)
    for i, card in enumerate(cards):
        if counts[card.get("id")] > 1:
            yield _p(path, i, card, "id", f"duplicate id {card.get('id')!r} "
                     f"({counts[card.get('id')]} cards share it)", "duplicate-id")


def check_levels(path: str, cards: list[RawCard]) -> Iterator[Problem]:
    for i, card in enumerate(cards):
        kind, level = card["kind"], card["level"]
        if kind == "support" and level not in (2, 3):  # C1: Support cards are Level 2 or 3 only
            yield _p(path, i, card, "level", f"a Support card must be Level 2 or 3, not {level}",
                     "support-level")
        if kind == "nameless":  # C1: Nameless are Level 1 with an epithet "Nameless ..."
            if level != 1:
                yield _p(path, i, card, "level", f"a Nameless card must be Level 1, not {level}",
                         "nameless-level")
            if not card["epithet"].startswith("Nameless"):
                yield _p(path, i, card, "epithet",
                         f"a Nameless card's epithet must begin with 'Nameless', "
                         f"not {card['epithet']!r}", "nameless-epithet")


def expected_boosts(card: RawCard) -> tuple[int, ...]:
    """Return how many self-boost values per attack kind the card may carry (C3)."""
    if card["kind"] == "familiar":
        # Quick Start II §8: every Released familiar has one boost value per kind; an Egg is
        # never Released, so it may print none.
        return (0, 1) if card.get("is_egg") else (1,)
    return {1: (0,), 2: (0,), 3: (1,), 4: (2,)}[card["level"]]


def check_boosts(path: str, cards: list[RawCard]) -> Iterator[Problem]:
    for i, card in enumerate(cards):
        allowed = expected_boosts(card)
        for kind in ("physical", "magic"):
            n = len(card["boost"][kind])
            if n not in allowed:
                want = " or ".join(str(a) for a in allowed)
                yield _p(path, i, card, f"boost.{kind}",
                         f"a Level {card['level']} {card['kind']} card has {want} {kind} "
                         f"boost value(s), not {n} (C3)", "boost-level")


def check_familiars(path: str, cards: list[RawCard]) -> Iterator[Problem]:
    names = {c["name"] for c in cards if c["kind"] == "familiar"}
    for i, card in enumerate(cards):
        if card["kind"] != "familiar":
            continue
        source = card.get("evolves_from")
        if source is not None and source not in names:
            yield _p(path, i, card, "evolves_from",
                     f"evolves_from names {source!r}, which is no familiar in this database",
                     "evolves-from-unknown")
        if card.get("is_egg") and source is not None:
            yield _p(path, i, card, "evolves_from",
                     f"a Familiar Egg evolves from nothing, but this one names {source!r}",
                     "egg-evolves")


CHECKS = (check_duplicate_ids, check_levels, check_boosts, check_familiars)


def run_checks(path: str, cards: list[RawCard]) -> list[Problem]:
    """Run every semantic check over schema-valid cards."""
    return [p for check in CHECKS for p in check(path, cards)]
