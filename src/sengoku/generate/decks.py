"""Seeded random decks from any SENGOKU YUGI card database, in profiles (issue 36).

A deck is drawn from `random.Random(seed)` and the card database alone, so (database, profile,
seed) names it for good. Every deck keeps the deck rules (D1-D8): 50-60 Main/Support cards with
at most 3 copies of a name and level, a Level 1 Main card for the Commander, 2 Nameless (chosen,
when the database allows, among those a card of the deck can grow, M2), and in Ultimate Mode a
Familiar Deck of 10-20 familiars, one of each, with an Egg, no familiar above the deck's highest
character level (U3). Each profile has a defining property, which its docstring states and the
tests check on many seeds; a database that cannot give a profile raises `GenerateError`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sengoku.carddb.catalog import catalog_of_file
from sengoku.carddb.load import resolve_cards_file
from sengoku.decklist.model import DeckEntry, Decklist
from sengoku.decklist.render import render_value
from sengoku.generate.errors import GenerateError
from sengoku.generate.familiars import familiar_deck

Card = Mapping[str, Any]
Slot = tuple[str, int]  # (name, level): what D3's copy limit counts
COPIES = 3  # D3
MIN_DECK, MAX_DECK = 50, 60  # D1


@dataclass(frozen=True)
class Profile:
    """A kind of deck: its name, what defines it, the mode it plays, and how it is drawn."""

    name: str
    description: str
    mode: str
    build: Callable[[_Build], None]
    holds: Callable[[_Build], bool]  # the defining property, on the drawn Character Deck


class _Pool:
    """A card database's characters by (name, level), its Nameless and its familiars; one card per slot
    drawn once (a slot with several epithets gives the deck one of them)."""

    def __init__(self, cards: list[Card], rng: random.Random):
        by_slot: dict[Slot, list[Card]] = {}
        self.nameless: list[Card] = []
        self.familiars: list[Card] = []
        for card in sorted(cards, key=lambda c: str(c["id"])):
            kind = card.get("kind")
            if kind in ("main", "support"):
                by_slot.setdefault((str(card["name"]), int(card["level"])), []).append(card)
            elif kind == "nameless":
                self.nameless.append(card)
            elif kind == "familiar":
                self.familiars.append(card)
        self.epithets = {slot: len(found) for slot, found in by_slot.items()}
        self.card: dict[Slot, Card] = {slot: rng.choice(by_slot[slot]) for slot in sorted(by_slot)}

    def slots(self, *, kind: str | None = None, levels: tuple[int, ...] = (1, 2, 3, 4)) -> list[Slot]:
        """Every slot of a kind ("main", "support", None: both) at the given levels, sorted."""
        return [s for s, c in self.card.items() if s[1] in levels and (kind is None or c["kind"] == kind)]

    def names(self, levels: tuple[int, ...]) -> list[str]:
        """The names with a Main card at every one of `levels`, sorted."""
        have = set(self.slots(kind="main"))
        return sorted({n for n, _ in have if all((n, lv) in have for lv in levels)})

    def is_mat(self, slot: Slot) -> bool:
        card = self.card[slot]
        return int(card["mat"]) > int(card["atk"])


class _Build:
    """A deck being drawn: copies per slot, then fitted to a size by adding and cutting copies."""

    def __init__(self, pool: _Pool, rng: random.Random, mode: str):
        self.pool, self.rng, self.mode = pool, rng, mode
        self.copies: dict[Slot, int] = {}

    def size(self) -> int:
        return sum(self.copies.values())

    def put(self, slot: Slot, n: int) -> None:
        if slot in self.pool.card and n > 0:
            self.copies[slot] = min(COPIES, self.copies.get(slot, 0) + n)

    def climb(self, names: list[str], copies: Mapping[int, int]) -> None:
        for name in names:
            for level, n in copies.items():
                self.put((name, level), n)

    def pick(self, items: list[Any], k: int, what: str) -> list[Any]:
        if len(items) < k:
            raise GenerateError(f"the card database has {len(items)} {what}; this profile needs {k}")
        return self.rng.sample(items, k)

    def shuffled(self, items: list[Any]) -> list[Any]:
        items = list(items)
        self.rng.shuffle(items)
        return items

    def commanders(self) -> int:
        return sum(n for s, n in self.copies.items() if s[1] == 1 and self.pool.card[s]["kind"] == "main")

    def fit(self, target: int, grow: list[Slot], cut: list[Slot]) -> None:
        """Fill `grow`'s slots in order to 3 copies, or cut copies from `cut`'s slots one at a time in
        turn, until `target` cards (D1); never cutting the last Level 1 Main copy (D4)."""
        for slot in grow:
            self.put(slot, min(COPIES, target - self.size()))
        if self.size() < target:
            raise GenerateError(f"the card database has too few cards to fill this profile's deck to {target}")
        while self.size() > target:
            cutting = False
            for slot in cut:
                n = self.copies.get(slot, 0)
                last_commander = slot[1] == 1 and self.pool.card[slot]["kind"] == "main" and self.commanders() == 1
                if self.size() > target and n > 0 and not last_commander:
                    if n == 1:
                        del self.copies[slot]
                    else:
                        self.copies[slot] = n - 1
                    cutting = True
            if not cutting:
                raise GenerateError(f"this profile's deck cannot be cut to {target} cards")

    def others(self, slots: list[Slot]) -> list[Slot]:
        """`slots` not yet in the deck, shuffled."""
        return self.shuffled([s for s in slots if s not in self.copies])


# ---- the profiles ---------------------------------------------------------------------------------


def _climb(b: _Build) -> None:
    """Four names climbing Level 1 to 4 (3/3/3/2 copies), filled with Level 2-3 cards and Supports."""
    b.climb(b.pick(b.pool.names((1, 2, 3, 4)), 4, "names with Main cards at Levels 1-4"), {1: 3, 2: 3, 3: 3, 4: 2})
    fill = b.others(b.pool.slots(levels=(2, 3)))
    b.fit(b.rng.randint(50, 56), fill, list(reversed(fill)) + sorted(b.copies, key=lambda s: -s[1]))


def _low_curve(b: _Build) -> None:
    """Levels 1 and 2 only, Level 1 first: mean level at most 1.5."""
    b.climb(b.pick(b.pool.names((1, 2)), 8, "names with Main cards at Levels 1 and 2"), {1: 3, 2: 3})
    ones = b.others(b.pool.slots(kind="main", levels=(1,)))
    twos = b.others(b.pool.slots(levels=(2,)))
    b.fit(b.rng.randint(50, 56), ones + twos, [s for s in b.shuffled(list(b.copies)) if s[1] == 2])


def _high_level(b: _Build) -> None:
    """Names weighted to Levels 3-4 (2/1/3/3 copies), filled with Level 3-4 cards: mean level at least 2.6."""
    names = b.pick(b.pool.names((1, 3, 4)), 1, "names with Main cards at Levels 1, 3 and 4")
    rest = [n for n in b.pool.names((3, 4)) if n not in names]
    b.climb(names + b.pick(rest, 3, "more names with Main cards at Levels 3 and 4"), {1: 2, 2: 1, 3: 3, 4: 3})
    fill = b.others(b.pool.slots(levels=(3, 4)))
    b.fit(b.rng.randint(50, 54), fill, [s for s in b.shuffled(list(b.copies)) if s[1] <= 2] + list(reversed(fill)))


def _mat_heavy(b: _Build) -> None:
    """Magic attackers: every card whose MAT is above its ATK first: at least half the deck has MAT > ATK."""
    mats = b.shuffled([s for s in b.pool.slots() if b.pool.is_mat(s)])
    if 3 * len(mats) < 25:
        raise GenerateError(f"the card database has {len(mats)} names and levels whose MAT is above their ATK; "
                            "a MAT-heavy deck needs 9")
    b.put(min(mats, key=lambda s: (s[1] != 1 or b.pool.card[s]["kind"] != "main", b.rng.random())), COPIES)
    if not b.commanders():
        b.put(b.rng.choice(b.pool.slots(kind="main", levels=(1,))), COPIES)
    b.fit(50, mats + b.others(b.pool.slots(levels=(1, 2))), [s for s in b.shuffled(list(b.copies))
                                                              if not b.pool.is_mat(s)])


def _supports(b: _Build) -> None:
    """Three names climbing Level 1 to 4 and at least 12 Support cards."""
    supports = b.shuffled(b.pool.slots(kind="support"))
    if 3 * len(supports) < 12:
        raise GenerateError(f"the card database has {len(supports)} Support names and levels; this profile needs 4")
    b.climb(b.pick(b.pool.names((1, 2, 3, 4)), 3, "names with Main cards at Levels 1-4"), {1: 3, 2: 3, 3: 3, 4: 2})
    want = b.rng.randint(12, 18)
    for slot in supports:
        if sum(n for s, n in b.copies.items() if b.pool.card[s]["kind"] == "support") >= want:
            break
        b.put(slot, COPIES)
    fill = supports + b.others(b.pool.slots(kind="main", levels=(2, 3)))
    b.fit(b.rng.randint(50, 56), fill, [s for s in b.shuffled(list(b.copies)) if b.pool.card[s]["kind"] == "main"])


def _one_commander(b: _Build) -> None:
    """One name holds every Level 1 Main card (every Commander is that name); the others start at Level 2."""
    climbing = b.pool.names((1, 2, 3, 4)) or b.pool.names((1,))
    commander = b.pick(climbing, 1, "names with a Level 1 Main card")[0]
    b.climb([commander], {1: 3, 2: 3, 3: 3, 4: 2})
    others = [n for n in b.pool.names((2, 3)) if n != commander]
    b.climb(b.pick(others, 4, "other names with Main cards at Levels 2 and 3"), {2: 3, 3: 3, 4: 2})
    fill = b.others(b.pool.slots(levels=(2, 3, 4)))
    b.fit(b.rng.randint(50, 56), fill, [s for s in b.shuffled(list(b.copies)) if s[0] != commander])


def _sixty(b: _Build) -> None:
    """The largest Character Deck: exactly 60 cards, five names climbing Level 1 to 4 (3 copies each)."""
    climbing = b.pool.names((1, 2, 3, 4))
    b.climb(b.pick(climbing, min(5, len(climbing)), "names with Main cards at Levels 1-4"), {1: 3, 2: 3, 3: 3, 4: 3})
    b.fit(MAX_DECK, b.others(b.pool.slots(levels=(2, 3))), [])


def _ultimate(b: _Build) -> None:
    """Ultimate Mode: four names climbing Level 1 to 4 and a Familiar Deck of whole familiar lines, an Egg's first."""
    _climb(b)


def _climbing(b: _Build) -> int:
    return sum(1 for n in {n for n, _ in b.copies} if all((n, lv) in b.copies for lv in (1, 2, 3, 4)))


def _mean_level(b: _Build) -> float:
    return sum(level * n for (_, level), n in b.copies.items()) / b.size()


def _count(b: _Build, where: Callable[[Slot], bool]) -> int:
    return sum(n for s, n in b.copies.items() if where(s))


PROFILES: dict[str, Profile] = {p.name: p for p in (
    Profile("climb", "four names climbing Level 1 to 4, like the default deck", "standard", _climb,
            lambda b: _climbing(b) >= 4),
    Profile("low-curve", "Levels 1 and 2 only, mean level at most 1.5", "standard", _low_curve,
            lambda b: max(lv for _, lv in b.copies) <= 2 and _mean_level(b) <= 1.5),
    Profile("high-level", "weighted to Levels 3-4, mean level at least 2.6", "standard", _high_level,
            lambda b: _mean_level(b) >= 2.6),
    Profile("mat-heavy", "at least half the cards with MAT above ATK", "standard", _mat_heavy,
            lambda b: 2 * _count(b, b.pool.is_mat) >= b.size()),
    Profile("supports", "at least 12 Support cards", "standard", _supports,
            lambda b: _count(b, lambda s: b.pool.card[s]["kind"] == "support") >= 12),
    Profile("one-commander", "every Level 1 Main card of one name", "standard", _one_commander,
            lambda b: len({n for n, lv in b.copies if lv == 1 and b.pool.card[(n, lv)]["kind"] == "main"}) == 1),
    Profile("sixty", "exactly 60 Main/Support cards", "standard", _sixty, lambda b: b.size() == MAX_DECK),
    Profile("ultimate", "Ultimate Mode: whole familiar lines, an Egg among them", "ultimate", _ultimate,
            lambda b: _climbing(b) >= 4),
)}


# ---- the deck ---------------------------------------------------------------------------------------


def _nameless(b: _Build, holds: Callable[[_Build], bool]) -> list[Card]:
    """Two Nameless of different names (D2), first among those a card of the deck can grow (M2); for one
    that none can, a copy of the deck becomes a card that can grow it, if the profile still holds."""
    def grows(card: Card) -> bool:
        return any(s[1] > 1 and b.pool.card[s]["gender"] == card["gender"]
                   and b.pool.card[s]["weapon"] == card["weapon"] for s in b.copies)

    order = sorted(b.pool.nameless, key=lambda c: (not grows(c), b.rng.random()))
    chosen: list[Card] = []
    for card in order:
        if len(chosen) < 2 and all(card["name"] != c["name"] for c in chosen):
            chosen.append(card)
    if not chosen:
        raise GenerateError("the card database has no Nameless card (D2)")
    for card in chosen:
        if not grows(card):
            _swap_in(b, [s for s in b.pool.slots(levels=(2, 3, 4)) if b.pool.card[s]["gender"] == card["gender"]
                         and b.pool.card[s]["weapon"] == card["weapon"]], holds)
    return chosen if len(chosen) == 2 else chosen * 2


def _swap_in(b: _Build, wanted: list[Slot], holds: Callable[[_Build], bool]) -> None:
    """Trade one copy of the deck (of a slot holding two or more) for one of a `wanted` slot, where the
    profile's property and D4 still hold afterwards; else leave the deck as it is."""
    for slot in b.shuffled(wanted):
        if b.copies.get(slot, 0) >= COPIES:
            continue
        for cut in b.shuffled(sorted(s for s, n in b.copies.items() if n >= 2 and s != slot)):
            b.copies[cut] -= 1
            b.copies[slot] = b.copies.get(slot, 0) + 1
            if holds(b) and b.commanders():
                return
            b.copies[cut] += 1
            b.copies[slot] -= 1
            if not b.copies[slot]:
                del b.copies[slot]


def generate_deck(cards: list[Card], profile: str, seed: int, *, name: str | None = None) -> Decklist:
    """Return a legal deck of `profile` (see `PROFILES`) drawn from `cards` (a card database's rows) by `seed`.

    Raise `GenerateError` for an unknown profile or a database that cannot give it.
    """
    if profile not in PROFILES:
        raise GenerateError(f"unknown deck profile {profile!r} (known: {', '.join(PROFILES)})")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise GenerateError(f"a deck's seed is a whole number of 0 or more, not {seed!r}")
    p = PROFILES[profile]
    rng = random.Random(f"deck|{profile}|{seed}")
    pool = _Pool(list(cards), rng)
    b = _Build(pool, rng, p.mode)
    p.build(b)
    nameless = _nameless(b, p.holds)
    if not MIN_DECK <= b.size() <= MAX_DECK or not b.commanders() or not p.holds(b):  # a profile's own mistake
        raise GenerateError(f"profile {profile!r} drew {b.size()} cards, {b.commanders()} of them Level 1 Main, "
                            f"{'' if p.holds(b) else 'not '}{p.description}")
    entries: list[DeckEntry] = []
    for (card_name, level), n in sorted(b.copies.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        card = pool.card[(card_name, level)]
        epithet = str(card["epithet"]) if pool.epithets[(card_name, level)] > 1 else None
        entries.append(DeckEntry("main", n, card_name, level=level, epithet=epithet))
    for card in nameless:
        entries.append(DeckEntry("nameless", 1, str(card["name"])))
    if p.mode == "ultimate":
        top = max(level for _, level in b.copies)
        for card in familiar_deck(pool.familiars, top, rng):
            entries.append(DeckEntry("familiars", 1, str(card["name"])))
    merged: dict[tuple[Any, ...], DeckEntry] = {}
    for e in entries:  # two copies of one Nameless (a database with only one): one entry, count 2
        key = (e.section, e.name, e.level, e.epithet)
        merged[key] = DeckEntry(e.section, merged[key].count + 1, e.name, level=e.level, epithet=e.epithet) \
            if key in merged else e
    return Decklist(entries=list(merged.values()), name=name or f"Generated {profile}, seed {seed}", mode=p.mode)


def deck_toml(deck: Decklist, comment: str = "") -> str:
    """Return a deck as decklist TOML (what `sengoku validate` reads), `comment` lines at the top."""
    lines = [f"# {line}".rstrip() for line in comment.splitlines()]
    lines += [f"name = {render_value(deck.name)}", f"mode = {render_value(deck.mode)}"]
    for e in deck.entries:
        lines += ["", f"[[{e.section}]]", f"name = {render_value(e.name)}"]
        if e.level is not None and e.section == "main":
            lines.append(f"level = {e.level}")
        if e.epithet is not None:
            lines.append(f"epithet = {render_value(e.epithet)}")
        if e.section == "main" or e.count != 1:
            lines.append(f"count = {e.count}")
    return "\n".join(lines) + "\n"


def cards_of(path: Path | str | None) -> list[Card]:
    """The checked card rows of a SENGOKU YUGI card database (a folder or a cards file; None: the bundled one)."""
    catalog = catalog_of_file(resolve_cards_file(path))
    if catalog.game != "sengoku-yugi":
        raise GenerateError(f"{catalog.path}: a {catalog.game} card database; decks are generated for SENGOKU YUGI")
    return list(catalog.cards.values())
