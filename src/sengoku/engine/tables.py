"""Compile a resolved deck into plain int tables, once, so the game loop never touches pydantic.

The cards are read as the card database's checked plain rows (the JSON's own field names, the
models' defaults for fields a row leaves out): a `Catalog` (`carddb.catalog`) gives them
without building a pydantic model per card, and a loaded `CardDatabase` gives the same rows
(`model_dump`) of just the deck's cards. Every card of the deck gets a small index (0..n-1, in
section order, then card id order); each per-card fact is a tuple indexed by it. A copy in a
zone is just its index.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from mypy_extensions import mypyc_attr  # read by mypyc when the engine is compiled

from sengoku.carddb.board import load_board
from sengoku.carddb.vocabulary import WEAPONS
from sengoku.engine.board import Geometry, compile_geometry, corner_mask
from sengoku.engine.chance import Lanes, copy_code, copy_codes
from sengoku.engine.constants import HP_CHARGE_MIN
from sengoku.engine.errors import EngineError

# Kind codes (C1, C4).
MAIN: Final = 0
SUPPORT: Final = 1
NAMELESS: Final = 2
FAMILIAR: Final = 3
KIND_CODES = {"main": MAIN, "support": SUPPORT, "nameless": NAMELESS, "familiar": FAMILIAR}
MALE: Final = 0
FEMALE: Final = 1

# Stacking relations between an ally's top card and a hand card (M2, M3).
NO_STACK: Final = 0
GROWTH: Final = 1
FOCUS: Final = 2

# Bits of a stacking entry's `special` field (see DeckTables.stack_rows).
STACK_TRIGGERS: Final = 1
STACK_NAMING: Final = 2

# Structured ability effects the engine runs (C5); anything else is counted as skipped.
OP_DRAW: Final = 0
OP_GAIN_AP: Final = 1
OP_HEAL: Final = 2
_OPS = {"draw": OP_DRAW, "gain_ap": OP_GAIN_AP, "heal": OP_HEAL}
TARGET_SELF: Final = 0
TARGET_ALLY: Final = 1
TARGET_COMMANDER: Final = 2
_TARGETS = {None: TARGET_SELF, "self": TARGET_SELF, "ally": TARGET_ALLY, "commander": TARGET_COMMANDER}
# Trigger timings the engine raises; "growth_frontline" fires on a growth in the Frontline.
TIMINGS = ("deployment", "growth", "growth_frontline", "combat_damage")
# Usable location -> whether the ally switches to Defense Stance after resolving (guide I §14 ③).
_RUNNABLE_LOCATIONS = {"battlefield": False, "battlefield_to_defense": True}
# From the hand: location -> whether the card goes to the Standby Zone after resolving.
_HAND_LOCATIONS = {"hand": False, "hand_to_standby": True}

SECTIONS = ("main", "nameless", "familiars")

# Familiar ability rows (A4): row categories, and the effects the engine runs (the rest are
# counted as skipped, C5). A compiled row is (category, die, ((op, amount, arg), ...), skipped).
ROW_SUPPORT: Final = 0
ROW_COMBAT: Final = 1
ROW_EVOLUTION: Final = 2
_ROW_CATEGORIES = {"support": ROW_SUPPORT, "combat": ROW_COMBAT, "evolution": ROW_EVOLUTION}
FX_HP: Final = 0
FX_MP: Final = 1
FX_TROOP: Final = 2
FX_WEAPON: Final = 3
FX_EVOLUTION: Final = 4
FX_DRAW: Final = 5
FX_GAIN_AP: Final = 6
# "heal" (a character effect, allowed in support rows) is HP by another amount.
_FAMILIAR_OPS = {"hp": FX_HP, "heal": FX_HP, "mp": FX_MP, "troop": FX_TROOP, "weapon": FX_WEAPON,
                 "evolution": FX_EVOLUTION, "draw": FX_DRAW, "gain_ap": FX_GAIN_AP}
FamiliarRow = tuple[int, int, tuple[tuple[int, int, int], ...], int]

# A card as the database's checked plain row: field names as in the JSON (`def`, not `def_`).
Row = Mapping[str, Any]

# A runnable ability: (AP cost, the ally then turns to Defense Stance (or, from the hand: the card
# then goes to the Standby Zone), its effects ((op, amount, target), ...), its bit: 1 << the
# number of the ability's name in the deck, so that A1's once per turn follows the ability, not
# the card that carries it).
Trigger = tuple[int, bool, tuple[tuple[int, int, int], ...], int]


def _list(row: Row, key: str) -> Sequence[Any]:
    """A row's list field; [] when left out or null (the models' default `()`)."""
    value = row.get(key)
    return value if value is not None else ()


def _amount(effect: Row) -> int:
    """An effect's amount (default 1)."""
    return int(effect.get("amount", 1))


def _runnable(ab: Row, locations: Mapping[str, bool]) -> bool:
    """Check if an ability has only structured effects the engine runs and no cost it cannot pay (C5)."""
    effects = _list(ab, "effect")
    cost = ab.get("cost")
    return bool(
        effects
        and all(e["op"] in _OPS for e in effects)
        and ab["location"] in locations
        and ab.get("condition") in (None, "none")
        and (cost is None or cost.get("other") is None)
    )


def _compiled(ab: Row, locations: Mapping[str, bool], ids: dict[str, int]) -> Trigger:
    cost = ab.get("cost")
    ap = int(cost.get("ap", 0)) if cost is not None else 0
    bit = 1 << ids.setdefault(str(ab["name"]), len(ids))
    return (ap, locations[ab["location"]],
            tuple((_OPS[e["op"]], _amount(e), _TARGETS[e.get("target")]) for e in _list(ab, "effect")), bit)


def _compile_triggers(card: Row, timing: str, ids: dict[str, int]) -> tuple[tuple[Trigger, ...], int]:
    """Return the runnable triggers of one timing and how many such triggers must be skipped (C5)."""
    runnable: list[Trigger] = []
    skipped = 0
    for ab in _list(card, "abilities"):
        if ab["kind"] != "TRG" or ab.get("timing") != timing or ab["turn"] == "opponent":
            continue
        if _runnable(ab, _RUNNABLE_LOCATIONS):
            runnable.append(_compiled(ab, _RUNNABLE_LOCATIONS, ids))
        else:
            skipped += 1
    return tuple(runnable), skipped


def _compile_activated(card: Row, ids: dict[str, int]) -> tuple[tuple[Trigger, ...], int, tuple[Trigger, ...]]:
    """Return an ally's runnable ACT abilities, how many it has that cannot run, and the hand ones."""
    field: list[Trigger] = []
    skipped = 0
    hand: list[Trigger] = []
    for ab in _list(card, "abilities"):
        if ab["kind"] != "ACT" or ab["turn"] == "opponent":
            continue
        location = str(ab["location"])
        if location in _HAND_LOCATIONS or location.startswith("hand"):
            if _runnable(ab, _HAND_LOCATIONS):
                hand.append(_compiled(ab, _HAND_LOCATIONS, ids))
        elif _runnable(ab, _RUNNABLE_LOCATIONS):
            field.append(_compiled(ab, _RUNNABLE_LOCATIONS, ids))
        else:
            skipped += 1
    return tuple(field), skipped, tuple(hand)


def _compile_familiar_rows(card: Row) -> tuple[FamiliarRow, ...]:
    """Return a familiar's ability rows (A4), by die: effects the engine runs, and how many it skips.

    A weapon fetch's arg is the weapon's index in WEAPONS; a row without structured effects is
    one skipped effect (C5).
    """
    rows: list[FamiliarRow] = []
    for ab in _list(card, "abilities"):
        effects = _list(ab, "effect")
        runs = tuple((_FAMILIAR_OPS[e["op"]], _amount(e), WEAPONS.index(e["weapon"]) if e.get("weapon") else -1)
                     for e in effects if e["op"] in _FAMILIAR_OPS)
        skipped = sum(1 for e in effects if e["op"] not in _FAMILIAR_OPS) if effects else 1
        rows.append((_ROW_CATEGORIES[ab["category"]], int(ab["die"]), runs, skipped))
    rows.sort(key=lambda r: (r[1], r[0]))
    return tuple(rows)


@mypyc_attr(serializable=True)  # pickled for --jobs where workers are spawned, not forked
class DeckTables:
    """A deck compiled for the engine: per-card int tuples, zones' starting contents, the board.

    Per-card tuples (indexed by card index): `card_id`, `name`, `name_id`, `kind` (MAIN, SUPPORT,
    NAMELESS, FAMILIAR), `level`, `cost` (deployment cost = max HP, or a familiar's contract
    cost), `charge` (charge value), `gender` (MALE/FEMALE, -1 for familiars), `weapon` (index into
    `WEAPONS`, -1 for familiars), `count` (copies in the deck), `atk`, `mat`, `def_`, `mdf`,
    `boost_atk` / `boost_mat` (tuples of self-boost values, C3), `evolves_from` (name id of the
    familiar it evolves from, or -1), `is_egg`, `is_character`, `ability_cost` (a familiar's
    Ability Cost), `contracted_rows` / `released_rows` (its ability rows usable Contracted or
    Released, A4: see `FamiliarRow`).

    Zones: `deck_indices` (the Character Deck's main-section copies, one index per copy, before the
    Commander is taken out: use `stronghold_after(cmd)` for the Stronghold proper),
    `nameless_indices`, `familiar_indices`.
    """

    def __init__(self, cards: list[Row], counts: list[int], sections: list[str],
                 mode: str, geometry: Geometry):
        # `cards`: the deck's cards as checked plain rows (see `Row`), in card index order
        self.mode = mode
        self.ultimate = mode == "ultimate"
        self.board = geometry
        self.n = len(cards)
        familiar = [c["kind"] == "familiar" for c in cards]
        self.card_id = tuple(str(c["id"]) for c in cards)
        self.name = tuple(str(c["name"]) for c in cards)
        names: dict[str, int] = {}
        for name in self.name:
            names.setdefault(name, len(names))
        self.name_ids = names
        self.name_id = tuple(names[name] for name in self.name)
        self.n_names = len(names)
        # An empty board and an empty name index, copied in place at each game's setup.
        self.no_allies_on_board = (None,) * geometry.n_spaces
        self.no_allies_by_name = (None,) * len(names)
        self.kind = tuple(KIND_CODES[c["kind"]] for c in cards)
        self.level = tuple(int(c["level"]) for c in cards)
        self.cost = tuple(int(c["contract_cost"] if f else c["deployment_cost"]) for c, f in zip(cards, familiar))
        self.charge = tuple(int(c["charge_value"]) for c in cards)
        self.gender = tuple(-1 if f else (MALE if c["gender"] == "male" else FEMALE) for c, f in zip(cards, familiar))
        self.weapon = tuple(-1 if f else WEAPONS.index(c["weapon"]) for c, f in zip(cards, familiar))
        self.count = tuple(counts)
        self.section = tuple(sections)
        self.atk = tuple(int(c["atk"]) for c in cards)
        self.mat = tuple(int(c["mat"]) for c in cards)
        self.def_ = tuple(int(c["def"]) for c in cards)
        self.mdf = tuple(int(c["mdf"]) for c in cards)
        self.boost_atk = tuple(tuple(int(v) for v in _list(c["boost"], "physical")) for c in cards)
        self.boost_mat = tuple(tuple(int(v) for v in _list(c["boost"], "magic")) for c in cards)
        self.is_character = tuple(not f for f in familiar)
        self.is_egg = tuple(f and bool(c["is_egg"]) for c, f in zip(cards, familiar))
        self.evolves_from = tuple(
            names.get(c["evolves_from"], -1) if f and c.get("evolves_from") else -1
            for c, f in zip(cards, familiar)
        )
        trig: dict[str, list[tuple[Trigger, ...]]] = {t: [] for t in TIMINGS}
        skip: dict[str, list[int]] = {t: [] for t in TIMINGS}
        ability_ids: dict[str, int] = {}  # ability name -> its number in this deck (A1)
        for c, f in zip(cards, familiar):
            for tm in TIMINGS:
                if not f:
                    r, s = _compile_triggers(c, tm, ability_ids)
                else:
                    r, s = (), 0
                trig[tm].append(r)
                skip[tm].append(s)
        self.on_combat_damage = tuple(trig["combat_damage"])
        self.skip_combat_damage = tuple(skip["combat_damage"])
        # Familiar abilities (A4): the Ability Cost, and the rows a Contracted familiar (Support,
        # Evolution) and a Released one (all three) may apply, by die.
        self.ability_cost = tuple(int(c["ability_cost"]) if f else 0 for c, f in zip(cards, familiar))
        fam_rows = [_compile_familiar_rows(c) if f else () for c, f in zip(cards, familiar)]
        self.contracted_rows = tuple(tuple(r for r in rows if r[0] != ROW_COMBAT) for rows in fam_rows)
        self.released_rows = tuple(fam_rows)
        acts = [_compile_activated(c, ability_ids) if not f else ((), 0, ()) for c, f in zip(cards, familiar)]
        # ACT abilities usable by an ally in play (`act`), how many of its ACT abilities the
        # engine cannot run (`skip_act`, counted once per turn while usable, C5), and ACT
        # abilities usable from the hand (`hand_act`).
        self.act = tuple(a[0] for a in acts)
        self.skip_act = tuple(a[1] for a in acts)
        self.hand_act = tuple(a[2] for a in acts)
        # Corner gems (characters) or arrows (familiars): the unique attack range (C1, C4).
        self.corners = tuple(corner_mask(list(c["arrows"] if f else c["range"])) for c, f in zip(cards, familiar))
        self.on_deploy = tuple(trig["deployment"])
        self.on_growth = tuple(trig["growth"])
        self.on_growth_frontline = tuple(trig["growth_frontline"])
        self.skip_deploy = tuple(skip["deployment"])
        self.skip_growth = tuple(skip["growth"])
        self.skip_growth_frontline = tuple(skip["growth_frontline"])
        self.has_deploy_trigger = tuple(bool(a or b) for a, b in zip(self.on_deploy, self.skip_deploy))
        self.has_growth_trigger = tuple(
            bool(a or b or c or d) for a, b, c, d in
            zip(self.on_growth, self.skip_growth, self.on_growth_frontline, self.skip_growth_frontline)
        )

        # relation[top * n + hand] says whether `hand` may go on top of an ally whose top card is
        # `top`: GROWTH (M2: same name, higher level; a Nameless grows into any character of
        # its gender and weapon), FOCUS (M3: same name and level; a Level 1 card onto a
        # Nameless of its gender and weapon; never a Nameless onto anything), or NO_STACK.
        n = self.n
        rel = [NO_STACK] * (n * n)
        for t in range(n):
            if not self.is_character[t]:
                continue
            for h in range(n):
                if not self.is_character[h] or self.kind[h] == NAMELESS:
                    continue
                if self.kind[t] == NAMELESS:
                    same = self.gender[h] == self.gender[t] and self.weapon[h] == self.weapon[t]
                else:
                    same = self.name_id[h] == self.name_id[t]
                if not same:
                    continue
                if self.level[h] > self.level[t]:
                    rel[t * n + h] = GROWTH
                elif self.level[h] == self.level[t]:
                    rel[t * n + h] = FOCUS
        self.relation = tuple(rel)
        self.relation_rows = tuple(tuple(rel[t * n:(t + 1) * n]) for t in range(n))  # [top][card]

        self.deck_indices = tuple(i for i in range(n) if self.section[i] == "main" for _ in range(counts[i]))
        self.nameless_indices = tuple(i for i in range(n) if self.section[i] == "nameless"
                                      for _ in range(counts[i]))
        self.familiar_indices = tuple(i for i in range(n) if self.section[i] == "familiars"
                                      for _ in range(counts[i]))

        # Per Commander candidate (Level 1 Main), the Stronghold before the shuffle (S1, S3).
        self.commander_stronghold: dict[int, tuple[int, ...]] = {}
        for i in range(n):
            if self.section[i] == "main" and self.kind[i] == MAIN and self.level[i] == 1:
                rest = list(self.deck_indices)
                rest.remove(i)
                self.commander_stronghold[i] = tuple(rest)
        # Per card, the fixed code of each of its copies (G7: the same in every deck; see chance.py),
        # and per Commander candidate the codes of its Stronghold packed for the shuffle.
        self.copy_codes: tuple[tuple[int, ...], ...] = ()
        self.stronghold_lanes: dict[int, Lanes] = {}
        self._set_codes(tuple(tuple(copy_code(self.card_id[i], k) for k in range(counts[i])) for i in range(n)))
        # Per Commander candidate, the highest level in play after S1-S2 (with the Nameless).
        nameless_top = max((self.level[c] for c in self.nameless_indices), default=0)
        self.setup_level = tuple(max(self.level[i], nameless_top) for i in range(n))
        # S4: the Familiar Egg that goes to hand (lowest card id) and the Summoning Zone's contents.
        eggs = [f for f in self.familiar_indices if self.is_egg[f]]
        self.first_egg = min(eggs, key=lambda f: self.card_id[f]) if eggs else -1
        fams = list(self.familiar_indices)
        if eggs:
            fams.remove(self.first_egg)
        self.familiars_after_egg = tuple(fams)
        self.any_skip_act = any(self.skip_act)
        # stack_rows[top][card]: None, or what Growth/Focus of `card` onto an ally topped by `top`
        # does (M2, M3): (GROWTH or FOCUS, new max HP, new level, AP gained, special), where
        # special is 0 or the bits STACK_TRIGGERS (a Growth with growth triggers) and STACK_NAMING
        # (the ally is a Nameless taking a name).
        self.stack_rows = tuple(
            tuple(
                None if not self.relation[t * n + c] else
                (self.relation[t * n + c], self.cost[c], self.level[c], self.charge[c],
                 (STACK_TRIGGERS if self.relation[t * n + c] == GROWTH and self.has_growth_trigger[c] else 0)
                 | (STACK_NAMING if self.kind[t] == NAMELESS else 0))
                for c in range(n))
            for t in range(n))
        # What HP Charge costs for an ally topped by each card: max(5, deployment cost) (T2b).
        self.hp_charge_price = tuple(max(HP_CHARGE_MIN, c) for c in self.cost)

    def _set_codes(self, codes: tuple[tuple[int, ...], ...]) -> None:
        self.copy_codes = codes
        # (the Commander is copy 0 of its card: the Stronghold holds the others)
        self.stronghold_lanes = {i: Lanes(copy_codes((i,) + rest, codes)[1:], rest)
                                 for i, rest in self.commander_stronghold.items()}

    def pair_with(self, reference: DeckTables) -> None:
        """Give the main copies this deck has beyond `reference` the codes of those `reference` has beyond it (G7).

        Copies both decks hold keep their codes, so they take the same places in both decks'
        Stronghold orders; a card that replaces another takes the replaced card's place, so the two
        decks' games differ only where the changed cards are drawn. Both lists of extra copies are
        matched in order of (level, card id, copy); extra copies left unmatched keep their own codes.
        The shuffle stays uniform: every copy still has a code of its own.
        """
        ref_count = {reference.card_id[j]: reference.count[j] for j in range(reference.n)
                     if reference.section[j] == "main"}
        own_count = {self.card_id[i]: self.count[i] for i in range(self.n) if self.section[i] == "main"}
        theirs = sorted((reference.level[j], reference.card_id[j], k) for j in range(reference.n)
                        if reference.section[j] == "main"
                        for k in range(own_count.get(reference.card_id[j], 0), reference.count[j]))
        mine = sorted((self.level[i], self.card_id[i], k) for i in range(self.n) if self.section[i] == "main"
                      for k in range(ref_count.get(self.card_id[i], 0), self.count[i]))
        taken = {(cid, k): copy_code(ref_id, ref_k) for (_, cid, k), (_, ref_id, ref_k) in zip(mine, theirs)}
        self._set_codes(tuple(tuple(taken.get((self.card_id[i], k), self.copy_codes[i][k]) for k in range(self.count[i]))
                              for i in range(self.n)))

    def index_of(self, card_id: str) -> int:
        """Return the card index of a card id in this deck."""
        try:
            return self.card_id.index(card_id)
        except ValueError:
            raise EngineError(f"card {card_id!r} is not in this deck") from None

    def can_grow_or_focus(self, card: int, onto: int) -> bool:
        """Check if hand card `card` may Grow (M2) or Focus (M3) onto an ally topped by `onto`."""
        return self.relation[onto * self.n + card] != NO_STACK

    def grow_or_focus_mask(self, onto: int) -> tuple[bool, ...]:
        """Return, per card index, whether that card can Grow or Focus onto `onto` (e.g. the Commander)."""
        n = self.n
        return tuple(self.relation[onto * n + h] != NO_STACK for h in range(n))

    def stronghold_after(self, commander: int) -> list[int]:
        """Return the Stronghold's contents before the shuffle (S3): the main copies minus the Commander."""
        if commander in self.commander_stronghold:
            return list(self.commander_stronghold[commander])
        out = list(self.deck_indices)
        out.remove(commander)
        return out


def _default_board(db: Any) -> object:
    """The board file beside the card database (B1), or the bundled one."""
    return load_board(Path(db.path).parent if db.path else None)


def _card_rows(db: Any) -> Mapping[str, Any]:
    """The card database's cards by id, as rows (a `Catalog`'s own) or as models (a `CardDatabase`'s)."""
    cards = db.cards
    return cards if isinstance(cards, Mapping) else {c.id: c for c in cards}


def compile_deck(db: Any, sections: Mapping[str, Mapping[str, int]], mode: str = "standard",
                 board: object = None) -> DeckTables:
    """Compile a resolved deck (`ValidationResult.sections`: section -> card id -> count) for the engine.

    `db` is the card database: its checked plain rows (a `Catalog`, `carddb.catalog`: no
    pydantic model is built) or a loaded `CardDatabase` (its models give the same rows); the same
    deck compiles to the same tables from either. `board` is the board geometry (the loaded board
    file, or a mapping of the same shape); None reads the board file of the card database's
    folder (B1). Standard Mode ignores familiars (D7).
    """
    if mode not in ("standard", "ultimate"):
        raise EngineError(f"unknown mode {mode!r} (standard or ultimate)")
    for name in sections:
        if name not in SECTIONS:
            raise EngineError(f"unknown deck section {name!r} (known: {', '.join(SECTIONS)})")
    by_id = _card_rows(db)
    cards: list[Row] = []
    counts: list[int] = []
    secs: list[str] = []
    for section in SECTIONS:
        if section == "familiars" and mode != "ultimate":
            continue  # D7: a Standard deck's familiars are ignored
        for card_id in sorted(sections.get(section, {})):
            count = sections[section][card_id]
            card = by_id.get(card_id)
            if card is None:
                raise EngineError(f"deck section {section!r}: card {card_id!r} is not in the card database")
            if not isinstance(card, Mapping):  # a model: its row, field names and defaults as in JSON
                card = card.model_dump(mode="json", by_alias=True)
            if not isinstance(count, int) or count < 0:
                raise EngineError(f"deck section {section!r}: card {card_id!r} has a bad count {count!r}")
            if count == 0:
                continue
            want_familiar = section == "familiars"
            if (card["kind"] == "familiar") != want_familiar or (
                    section == "nameless") != (card["kind"] == "nameless"):
                raise EngineError(f"deck section {section!r}: card {card_id!r} ({card['kind']}) "
                                  f"does not belong in it (D8)")
            cards.append(card)
            counts.append(count)
            secs.append(section)
    if not any(s == "main" for s in secs):
        raise EngineError("the deck has no main cards")
    if board is None:
        board = _default_board(db)
    geometry = board if isinstance(board, Geometry) else compile_geometry(board)
    tables = DeckTables(cards, counts, secs, mode, geometry)
    if len(tables.nameless_indices) > len(geometry.perimeter):
        raise EngineError(f"the deck has {len(tables.nameless_indices)} Nameless cards but the board has "
                          f"only {len(geometry.perimeter)} Stronghold Perimeter spaces (S2)")
    if tables.ultimate and not any(tables.is_egg):
        raise EngineError("an Ultimate Mode deck needs a Familiar Egg in its familiars (D6, S4)")
    return tables
