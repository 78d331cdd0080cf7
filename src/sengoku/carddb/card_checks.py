"""Checks on a SENGOKU YUGI card database beyond what the JSON Schema can say (SPEC C1-C4).

Each check takes the raw card list and the indices of the cards that passed the schema, and
yields problems; all run, so every problem of a file is reported at once — a card with a wrong
weapon does not hide a duplicate id two cards later.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

from sengoku.carddb.vocabulary import FAMILIAR_OP_CATEGORY
from sengoku.problems import Problem, one_card

RawCard = dict[str, Any]


def _p(path: str, i: int, card: RawCard, field: str | None, message: str, code: str) -> Problem:
    json_path = f"$.cards[{i}]" + (f".{field}" if field else "")
    card_id = card.get("id") if isinstance(card.get("id"), str) else None
    return Problem(severity="error", path=path, message=message, cards=one_card(card_id), json_path=json_path,
                   rule=code)


def _valid(cards: list[Any], valid: set[int]) -> Iterator[tuple[int, RawCard]]:
    for i in sorted(valid):
        yield i, cards[i]


def check_duplicate_ids(path: str, cards: list[Any], valid: set[int]) -> Iterator[Problem]:
    # Every card with a string id takes part, schema-valid or not: ids are what decklists name.
    ids = [c.get("id") if isinstance(c, dict) and isinstance(c.get("id"), str) else None for c in cards]
    counts = Counter(i for i in ids if i is not None)
    for i, card_id in enumerate(ids):
        if card_id is not None and counts[card_id] > 1:
            others = [f"$.cards[{j}]" for j, other in enumerate(ids) if other == card_id and j != i]
            yield _p(path, i, cards[i], "id", f"duplicate id {card_id!r} (also at {', '.join(others)})",
                     "duplicate-id")


def check_levels(path: str, cards: list[Any], valid: set[int]) -> Iterator[Problem]:
    for i, card in _valid(cards, valid):
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
        # Quick Start II §3 prints one self-boost per kind on a familiar; an Egg is never
        # Released and never attacks alone, so it carries none (and `boost` lists none for it).
        return (0,) if card.get("is_egg") else (1,)
    return {1: (0,), 2: (0,), 3: (1,), 4: (2,)}[card["level"]]


def check_boosts(path: str, cards: list[Any], valid: set[int]) -> Iterator[Problem]:
    for i, card in _valid(cards, valid):
        allowed = expected_boosts(card)
        for kind in ("physical", "magic"):
            n = len(card["boost"][kind])
            if n not in allowed:
                want = " or ".join(str(a) for a in allowed)
                yield _p(path, i, card, f"boost.{kind}",
                         f"a Level {card['level']} {card['kind']} card carries {want} {kind} "
                         f"self-boost value(s) (C3), but this one has {n}", "boost-level")


def check_familiars(path: str, cards: list[Any], valid: set[int]) -> Iterator[Problem]:
    names = {c.get("name") for c in cards
             if isinstance(c, dict) and c.get("kind") == "familiar" and isinstance(c.get("name"), str)}
    for i, card in _valid(cards, valid):
        if card["kind"] != "familiar":
            continue
        source = card.get("evolves_from")
        if source is not None and source not in names:
            yield _p(path, i, card, "evolves_from",
                     f"evolves_from names {source!r}, which is no familiar in this database",
                     "evolves-from-unknown")
        if card.get("is_egg") and source is not None:  # C4: an Egg is where a chain begins
            yield _p(path, i, card, "evolves_from",
                     f"a Familiar Egg evolves from nothing, but this one names {source!r}",
                     "egg-evolves")


def check_familiar_abilities(path: str, cards: list[Any], valid: set[int]) -> Iterator[Problem]:
    """A4: each row's effects belong to its category; one row per category and die; Evolution needs an evolved form."""
    evolved = {c.get("evolves_from") for c in cards if isinstance(c, dict) and c.get("kind") == "familiar"
               and isinstance(c.get("evolves_from"), str)}
    for i, card in _valid(cards, valid):
        if card["kind"] != "familiar":
            continue
        seen: dict[tuple[str, int], int] = {}
        for k, row in enumerate(card.get("abilities", [])):
            where = f"abilities[{k}]"
            category, die = row["category"], row["die"]
            if (category, die) in seen:
                yield _p(path, i, card, f"{where}.die",
                         f"two {category} rows on die {die} (also abilities[{seen[category, die]}]): "
                         "a row lists every effect its roll applies", "familiar-row-duplicate")
            seen.setdefault((category, die), k)
            for e, effect in enumerate(row.get("effect", [])):
                want = FAMILIAR_OP_CATEGORY[effect["op"]]
                if want != category:
                    yield _p(path, i, card, f"{where}.effect[{e}].op",
                             f"{effect['op']!r} is a {want} effect, but this row is {category} "
                             "(Quick Start II §9)", "familiar-effect-category")
                if effect["op"] == "evolution" and card["name"] not in evolved:
                    yield _p(path, i, card, f"{where}.effect[{e}].op",
                             f"no familiar in this database evolves from {card['name']!r}, so its "
                             "Evolution can never happen", "familiar-evolution-none")


CHECKS = (check_duplicate_ids, check_levels, check_boosts, check_familiars, check_familiar_abilities)


def run_checks(path: str, cards: list[Any], valid: set[int] | None = None) -> list[Problem]:
    """Run every semantic check; card-level checks look only at the `valid` (schema-clean) indices."""
    if valid is None:
        valid = set(range(len(cards)))
    return [p for check in CHECKS for p in check(path, cards, valid)]
