"""The game state and its rules: setup (S1-S7), the turn (T1-T6), Main Phase actions (M1-M6),
combat on the Stronghold (K1-K5) and Ultimate Mode (U1-U5), for one goldfishing player (G1).

The state knows the rules and nothing else: a policy chooses, one `random.Random` supplies all
chance. Every action is a method that checks its rule (`can_<action>` returns the reason it is
illegal, or None) and raises `IllegalAction` without touching the state when it is illegal;
`legal_actions()` enumerates exactly the actions those same checks allow, and `apply()` runs one.
There is one rules implementation: fast policies call the same methods, and may ask targeted
questions (`stack_target`, `free_perimeter`) instead of enumerating every action.

Zones hold card indices (see `tables.DeckTables`). An ally in play is a small list (fields
`A_*` below) so the inner loop allocates nothing but what the game itself creates. Actions
name an ally by its number in `allies` (as `legal_actions` does) or pass the ally list itself.
Because names are unique in play (M1 Decision), `by_name[name_id]` is the ally bearing a name.

Decisions taken here, beyond SPEC (cite them as "engine decision"):
- The Commander and the two Nameless start with 1 HP, as a deployed character does (M1).
- T2: the 10 AP of AP Charge are gained as the Charge Phase opens (taking them first never
  removes an option); sending cards and HP Charge follow in any order the policy likes.
- Nameless cards carry no name (guide I §12 ②), so the same-name rule (M1 Decision) ignores them.
- "Battlefield" abilities (location BF) work only for allies on the field, not in the Command
  Zone (the guide names the two apart); triggers of an ally in the Command Zone do not fire.
- Triggered abilities whose effects the engine runs are used whenever their AP cost can be paid
  (a goldfish player takes free cards, AP and HP); a heal on "an ally" picks the ally missing
  the most HP. Abilities that triggered but cannot run, and each turn's usable ACT abilities of
  allies on the field that cannot run, are counted in `skipped_abilities` (C5). Familiar
  abilities (die rolls) are not simulated.
- The Stronghold stays drawn in random order: a draw takes a uniformly random card of the
  Stronghold (a lazy Fisher-Yates shuffle: five cards exactly uniformly from one 64-bit random
  number, single cards as int(random() * n), whose rounding bias is below 1e-13 for decks this
  size), so reshuffling the Standby Zone (T3) is a move.
- Attacks (K4) target the Stronghold of a do-nothing opponent playing a mirror of this deck:
  their Last Guard is a random card of their Stronghold (this deck minus their Commander and
  their five opening cards); they never add their Commander's ATK nor self-boost. Physical
  attacks compare ATK with ATK, magic ones MAT with MAT. With their Stronghold empty, the attack
  meets no Last Guard (power 0). An ally in the Command Zone has no space and cannot attack.
  After a win (K5) the game goes on: goldfish measures development.
- An ally's self-boost cost (K2) is paid from the hand first (lowest level first), then from the
  growth sources, bottom first; a defeated ally returns its highest-level growth source to hand.
- Released familiars are allies: they count in the allies, highest level and HP measures.
  Familiars reach the hand only through U2 (our Stronghold taking damage), which a do-nothing
  opponent never deals: in a goldfish game the S4 Egg is the only familiar that can be played.
- A familiar Released from a Command Zone holder steps onto a free Perimeter space; a holder
  leaving play from the Command Zone sends its familiars back (Eggs to hand, others to the
  Summoning Zone), since no familiar stands in the Command Zone (Quick Start II §7).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import combinations
from typing import Any, ClassVar, cast

from sengoku.engine.board import COMMAND_ZONE
from sengoku.engine.combat import GUARD_HIGHER, last_guard_combat
from sengoku.engine.errors import EngineError, IllegalAction
from sengoku.engine.tables import (
    FOCUS,
    GROWTH,
    MAIN,
    NAMELESS,
    OP_DRAW,
    OP_GAIN_AP,
    STACK_NAMING,
    STACK_TRIGGERS,
    TARGET_COMMANDER,
    TARGET_SELF,
    DeckTables,
)

# Fields of an ally (a list): top card; HP; space (COMMAND_ZONE = -1); in Defense Stance;
# growth / evolution sources (bottom first); contracted familiar stack (bottom first, top last);
# turn it entered play; a Released familiar; turn and bit mask of ACT abilities used (once per
# turn); still in play.
A_TOP, A_HP, A_POS, A_DEF, A_SRC, A_FAM, A_TURN, A_REL, A_USED_TURN, A_USED, A_LIVE = range(11)

# An action's argument that the action checks itself: any value may be passed, and one that is not
# valid (a bad type included) is refused with IllegalAction, never a TypeError (so also when the
# engine is compiled, where declared types are enforced at the call).
Checked = Any

# Phases.
BETWEEN, CHARGE, MAIN_PHASE = 0, 1, 2

HAND_LIMIT = 5  # T2a, T3, U1
FAMILIAR_HAND_LIMIT = 3  # U1, T2c
AP_CHARGE = 10  # T2a
STRONGHOLD_HP = {False: 6, True: 8}  # S5 (Standard, Ultimate)
_INT = {int}
# For drawing 5 cards from a Stronghold of `left` cards (index `left`): the number m of ordered
# draws, and the largest multiple of m not above 2**64 (see GameState._draw).
_FIVE_DRAWS = [(m, (1 << 64) - (1 << 64) % m) for m in (
    max(1, left * (left - 1) * (left - 2) * (left - 3) * (left - 4)) for left in range(1024))]


def choose_commander(tables: DeckTables, name: str | None = None) -> int:
    """Return the Commander's card index (S1).

    With `name` (a card name, or a card id), that Level 1 Main card; otherwise the Level 1 Main
    card whose name has the most higher-level copies in the deck, ties to the lowest card id.
    """
    t = tables
    candidates = [i for i in range(t.n) if t.section[i] == "main" and t.kind[i] == MAIN and t.level[i] == 1]
    if name is not None:
        pinned = [i for i in candidates if t.name[i] == name or t.card_id[i] == name]
        if not pinned:
            known = ", ".join(sorted({t.name[i] for i in candidates})) or "none"
            raise EngineError(f"no Level 1 Main card named {name!r} in the deck to be the Commander "
                              f"(S1; candidates: {known})")
        return min(pinned, key=lambda i: t.card_id[i])
    if not candidates:
        raise EngineError("the deck has no Level 1 Main card to be the Commander (S1, D4)")

    def score(i: int) -> tuple[int, str]:
        higher = sum(t.count[j] for j in range(t.n)
                     if t.section[j] == "main" and t.name_id[j] == t.name_id[i] and t.level[j] > 1)
        return (-higher, t.card_id[i])

    return min(candidates, key=score)


def checked_commander(tables: DeckTables, commander: int | None) -> int:
    """Return the Commander's card index: S1's decision for None, else `commander` if it may be one."""
    if commander is None:
        return choose_commander(tables)
    if commander not in tables.commander_stronghold:
        raise EngineError(f"card index {commander!r} is not a Level 1 Main card of the deck (S1)")
    return commander


# Every field of a GameState (its slots; a compiled GameState has them as native attributes).
STATE_FIELDS = (
    "t", "rng", "going_first", "commander", "turn", "phase", "ap", "hand", "fam_hand",
    "stronghold", "standby", "banish", "summoning", "allies", "occupant", "command_zone",
    "by_name", "nameless", "hp_total", "top_level", "defended",
    "sh_hp", "opp_sh_hp", "opp_stronghold", "opp_standby", "opp_hand", "won_turn",
    "hp_charged", "fam_charged", "hand_used", "opening_hand", "skipped",
    "m_ap_main", "m_charge_cards", "m_growth_focus", "m_spent", "m_ability_ap",
)


class GameState:
    """One player's game: zones, allies, AP, the turn and phase; every action checks its rule.

    Public fields (read them, change them only through actions): `turn`, `phase`, `ap`, `hand`,
    `fam_hand`, `stronghold`, `standby`, `banish`, `summoning`, `allies`, `occupant` (per
    space: the ally there or None), `command_zone`, `by_name`, `nameless` (allies topped by a
    Nameless), `hp_total`, `top_level`, `sh_hp`, `opp_sh_hp`, `won_turn`, `skipped`.
    """

    __slots__ = STATE_FIELDS

    def __init__(self, tables: DeckTables, rng: random.Random, going_first: bool = True,
                 commander: int | None = None):
        """Set the game up (S1-S7)."""
        t = self.t = tables
        self.rng = rng
        self.going_first = going_first
        self.commander = commander = checked_commander(t, commander)
        # The zone lists are made once: `setup` empties them in place, so a policy bound to this
        # state (`Policy.bind`) stays bound to every game played on it.
        self.hand: list[int] = []
        self.fam_hand: list[int] = []
        self.allies: list[list[Any]] = []
        self.nameless: list[list[Any]] = []
        self.occupant: list[list[Any] | None] = [None] * t.board.n_spaces
        self.by_name: list[list[Any] | None] = [None] * t.n_names
        self.setup()

    def setup(self) -> None:
        """Start a new game on this state (S1-S7): same deck, seat, Commander and random generator.

        Every zone list keeps its identity (emptied in place); nothing of the last game remains.
        """
        t = self.t
        commander = self.commander
        self.turn = 0
        self.phase = BETWEEN
        self.standby: list[int] = []
        self.banish: list[int] = []
        occupant, by_name = self.occupant, self.by_name
        occupant[:] = t.no_allies_on_board
        by_name[:] = t.no_allies_by_name
        self.defended = False  # some ally may be in Defense Stance (T1 has work to do)
        self.skipped = 0
        self.won_turn: int | None = None
        self.hp_charged = self.fam_charged = False
        self.hand_used: set[tuple[int, int]] = set()
        self.m_ap_main = self.m_charge_cards = self.m_growth_focus = self.m_spent = self.m_ability_ap = 0
        # S1: the Commander goes to the Command Zone; S3: the rest is the Stronghold.
        self.stronghold = list(t.commander_stronghold[commander])
        # Allies as `_enter` makes them (Attack Stance, 1 HP), built in place: this runs every game.
        cz: list[Any] = [commander, 1, COMMAND_ZONE, False, [], [], 0, False, -1, 0, True]
        self.command_zone: list[Any] | None = cz
        by_name[t.name_id[commander]] = cz
        allies: list[list[Any]] = self.allies
        allies[:] = (cz,)
        nameless: list[list[Any]] = self.nameless
        nameless.clear()
        # S2: the Nameless go to the Stronghold Perimeter, in the board file's order.
        for c, space in zip(t.nameless_indices, t.board.perimeter):
            a = [c, 1, space, False, [], [], 0, False, -1, 0, True]
            allies.append(a)
            nameless.append(a)
            occupant[space] = a
        self.hp_total = len(allies)
        self.top_level = t.setup_level[commander]
        # S4: Ultimate Mode: one Familiar Egg (lowest card id) to hand, the rest to the Summoning Zone.
        if t.ultimate:
            self.fam_hand[:] = (t.first_egg,)
            self.summoning = list(t.familiars_after_egg)
        else:
            self.fam_hand.clear()
            self.summoning = []
        # S5: Stronghold HP (ours, and the mirror opponent's for K4).
        self.sh_hp = self.opp_sh_hp = STRONGHOLD_HP[t.ultimate]
        self.opp_stronghold: list[int] | None = None
        self.opp_standby: list[int] = []
        self.opp_hand: list[int] = []
        # S6: draw 5, no mulligan.
        self.hand.clear()
        self._draw(HAND_LIMIT)
        self.opening_hand = tuple(self.hand)
        # S7: starting AP.
        self.ap = 0 if self.going_first else 5

    # ---- helpers -------------------------------------------------------------------------

    def _enter(self, card: int, pos: int, hp: int = 1, released: bool = False,
               sources: list[int] | None = None) -> list[Any]:
        """Put a card into play as a new ally in Attack Stance (M1: 1 HP)."""
        t = self.t
        ally = [card, hp, pos, False, sources if sources is not None else [], [], self.turn, released,
                -1, 0, True]
        self.allies.append(ally)
        if pos == COMMAND_ZONE:
            self.command_zone = ally
        else:
            self.occupant[pos] = ally
        if t.kind[card] == NAMELESS:
            self.nameless.append(ally)
        else:
            self.by_name[t.name_id[card]] = ally
        self.hp_total += hp
        if t.level[card] > self.top_level:
            self.top_level = t.level[card]
        return ally

    def _draw(self, n: int) -> int:
        """Draw up to `n` cards; an empty Stronghold takes the Standby Zone as its new deck (T3).

        The Stronghold is kept unshuffled and each draw takes a uniformly random card of it: the
        same distribution as shuffling then drawing from the top (lazy Fisher-Yates), without
        shuffling cards that are never drawn. Five cards come from one 64-bit random number
        (exactly uniform, by rejection), fewer from one `random()` each.
        """
        sh = self.stronghold
        left = len(sh)
        if left >= n:  # the usual case: no reshuffle can happen
            pop = sh.pop
            if n == HAND_LIMIT and left < len(_FIVE_DRAWS):
                # A full hand (S6, most T3 draws) from one 64-bit number: below `limit` it is
                # uniform over the m ordered draws, which its mixed-radix digits (base left,
                # left - 1, ...) number, each draw taking a card of those still there.
                m, limit = _FIVE_DRAWS[left]
                grb = self.rng.getrandbits
                x = grb(64)
                while x >= limit:  # (chance below 1e-10): keeps every ordered draw equally likely
                    x = grb(64)
                x %= m
                i0 = x % left
                x //= left
                i1 = x % (left - 1)
                x //= left - 1
                i2 = x % (left - 2)
                x //= left - 2
                i3 = x % (left - 3)
                self.hand += (pop(i0), pop(i1), pop(i2), pop(i3), pop(x // (left - 3)))
                return n
            rnd = self.rng.random
            draw = self.hand.append
            for _ in range(n):
                draw(pop(int(rnd() * left)))
                left -= 1
            return n
        rnd = self.rng.random
        draw = self.hand.append
        drawn = 0
        while drawn < n:
            if not sh:
                if not self.standby:
                    break  # T3: both empty, stop drawing
                # T3: the Standby Zone becomes the Stronghold; draws are uniformly random, so
                # the shuffle is implicit.
                sh = self.stronghold = self.standby
                self.standby = []
            draw(sh.pop(int(rnd() * len(sh))))
            drawn += 1
        return drawn

    def _ally(self, i: Any) -> Any:
        """Return the ally named by number or by itself, or None if there is no such ally in play."""
        if i.__class__ is list:  # the ally itself, as fast policies pass it
            return i if len(i) > A_LIVE and i[A_LIVE] else None
        if i.__class__ is int:
            return self.allies[i] if 0 <= i < len(self.allies) else None
        return None

    def max_hp(self, ally: list[Any]) -> int:
        """Return an ally's max HP: its top card's deployment (or contract) cost."""
        return self.t.cost[ally[A_TOP]]

    def _spend(self, amount: int) -> None:
        self.ap -= amount
        self.m_spent += amount

    def _set_hp(self, a: list[Any], hp: int) -> None:
        self.hp_total += hp - a[A_HP]
        a[A_HP] = hp

    def _heal_target(self, target: int, source: list[Any] | None) -> list[Any] | None:
        if target == TARGET_SELF:
            return source
        if target == TARGET_COMMANDER:
            return self.command_zone
        best, missing = None, 0
        cost = self.t.cost
        for a in self.allies:
            m = cost[a[A_TOP]] - a[A_HP]
            if m > missing:
                best, missing = a, m
        return best

    def _resolve(self, effects: tuple[tuple[int, int, int], ...], source: list[Any] | None) -> None:
        """Run structured effects (C5): draw, gain AP, heal (never above max HP)."""
        for op, amount, target in effects:
            if op == OP_DRAW:
                self._draw(amount)
            elif op == OP_GAIN_AP:
                self.ap += amount
                self.m_ability_ap += amount
            else:
                a = self._heal_target(target, source)
                if a is not None and a[A_LIVE]:
                    self._set_hp(a, min(a[A_HP] + amount, self.t.cost[a[A_TOP]]))

    def _trigger(self, triggers: tuple, ally: list[Any]) -> None:
        """Use the runnable triggered abilities whose AP cost can be paid (engine decision)."""
        for ap_cost, to_def, effects in triggers:
            if self.ap >= ap_cost:
                self._spend(ap_cost)
                self._resolve(effects, ally)
                if to_def:
                    ally[A_DEF] = self.defended = True

    # ---- targeted questions (for fast policies; the actions still check everything) --------

    def stack_target(self, card: int) -> list[Any] | None:
        """Return an ally that `card` could Grow or Focus onto (M2, M3), or None.

        The ally of the same name if the card stacks on it, else the first Nameless ally of the
        card's gender and weapon (only while the card's name is not in play).
        """
        t = self.t
        a = self.by_name[t.name_id[card]]
        if a is not None:
            if not a[A_REL] and t.relation_rows[cast(int, a[A_TOP])][card]:
                return a
            return None
        if self.nameless and t.kind[card] != NAMELESS:
            rows = t.relation_rows
            for a in self.nameless:
                if rows[cast(int, a[A_TOP])][card]:
                    return a
        return None

    def free_perimeter(self) -> int | None:
        """Return the first empty Stronghold Perimeter space (board file order), or None."""
        occ = self.occupant
        for space in self.t.board.perimeter:
            if occ[space] is None:
                return space
        return None

    # ---- turn structure (T1-T5) -----------------------------------------------------------

    def begin_turn(self) -> None:
        """Start a turn: Active Phase (T1), then open the Charge Phase with AP Charge's 10 AP (T2a)."""
        if self.phase != BETWEEN:
            raise IllegalAction("a turn is already under way")
        self.turn += 1
        if self.defended:  # T1
            for a in self.allies:
                a[A_DEF] = False
            self.defended = False
        self.hp_charged = self.fam_charged = False
        if self.hand_used:
            self.hand_used = set()
        self.m_charge_cards = self.m_growth_focus = self.m_spent = self.m_ability_ap = 0
        self.phase = CHARGE
        self.ap += AP_CHARGE

    def _refuse(self, why: str, check: bool) -> str:
        """Return the reason (check-only mode) or raise it: the one way an action says no."""
        if check:
            return why
        raise IllegalAction(why)

    def can_charge_cards(self, positions: Any) -> str | None:
        """Say why these hand cards cannot be sent for AP Charge now (T2a), or None."""
        return self.charge_cards(positions, _check=True)

    def charge_cards(self, positions: Any, _check: bool = False) -> Any:
        """Send these hand cards (positions, ints) to the Standby Zone and gain their total charge value (T2a).

        `range(len(hand))` sends the whole hand.
        """
        if self.phase != CHARGE:
            return self._refuse("cards are sent for AP Charge only in the Charge Phase (T2a)", _check)
        hand = self.hand
        n = len(hand)
        if positions.__class__ is range and positions == range(n):
            ps: Any = positions  # the whole hand (the usual case): a range holds distinct ints
        else:
            try:
                ps = sorted(positions)
            except TypeError:
                ps = None
            # Distinct ints (bool and float refused) naming hand cards: sorted, so the ends bound them.
            if ps is None or ps and (not _INT.issuperset(map(type, ps)) or ps[0] < 0 or ps[-1] >= n
                                     or len(set(ps)) != len(ps)):
                return self._refuse(f"bad hand card numbers {tuple(positions)!r} ({n} cards in hand)", _check)
        if _check:
            return None
        charge = self.t.charge
        gain = 0
        if len(ps) == n:  # the whole hand
            for c in hand:
                gain += charge[c]
            self.standby += hand
            hand.clear()
        else:
            send = self.standby.append
            for p in reversed(ps):
                c = hand.pop(p)
                send(c)
                gain += charge[c]
        self.ap += gain
        self.m_charge_cards += gain
        return None

    def can_charge_card(self, pos: Checked) -> str | None:
        """Say why hand card `pos` cannot be sent for AP Charge now (T2a), or None."""
        return self.charge_cards((pos,), _check=True)

    def charge_card(self, pos: Checked) -> None:
        """Send hand card `pos` to the Standby Zone and gain its charge value (T2a)."""
        self.charge_cards((pos,))

    def can_hp_charge(self, i: Any) -> str | None:
        """Say why ally `i` cannot get HP Charge now (T2b), or None."""
        return self.hp_charge(i, _check=True)

    def hp_charge(self, i: Any, _check: bool = False) -> Any:
        """Pay max(5, deployment cost) AP: ally `i` gets +1 HP (T2b)."""
        if self.phase != CHARGE:
            return self._refuse("HP Charge happens in the Charge Phase (T2b)", _check)
        if self.hp_charged:
            return self._refuse("HP Charge was already used this turn (T2b Decision: once per turn)", _check)
        a: list[Any] | None = self._ally(i)
        if a is None:
            return self._refuse(f"no ally {i!r} in play", _check)
        t = self.t
        top: int = a[A_TOP]
        if a[A_HP] >= t.cost[top]:
            return self._refuse("the ally is at its max HP (T2b)", _check)
        price = t.hp_charge_price[top]  # max(HP_CHARGE_MIN, deployment cost)
        if self.ap < price:
            return self._refuse(f"HP Charge costs {price} AP, {self.ap} AP available (T2b)", _check)
        if _check:
            return None
        self.ap -= price
        self.m_spent += price
        self.hp_charged = True
        a[A_HP] += 1
        self.hp_total += 1
        return None

    def can_familiar_hp_charge(self, positions: tuple[int, ...], i: Any) -> str | None:
        """Say why these familiars cannot be sent for Ultimate HP Charge onto ally `i` (T2c), or None."""
        if not self.t.ultimate:
            return "Ultimate HP Charge exists only in Ultimate Mode (T2c)"
        if self.phase != CHARGE:
            return "Ultimate HP Charge happens in the Charge Phase (T2c)"
        if self.fam_charged:
            return "Ultimate HP Charge was already used this turn (T2c)"
        if not positions or len(set(positions)) != len(positions) or not all(
                p.__class__ is int and 0 <= p < len(self.fam_hand) for p in positions):
            return f"bad familiar hand cards {positions!r}"
        if i is None:
            if self.allies:
                return "choose the ally that gets the HP (T2c)"
        elif self._ally(i) is None:
            return f"no ally {i!r} in play"
        return None

    def familiar_hp_charge(self, positions: tuple[int, ...], i: Any) -> None:
        """Send familiar hand cards to the Summoning Zone; ally `i` gets +their total charge value (T2c)."""
        why = self.can_familiar_hp_charge(positions, i)
        if why:
            raise IllegalAction(why)
        total = 0
        for p in sorted(positions, reverse=True):
            f = self.fam_hand.pop(p)
            self.summoning.append(f)
            total += self.t.charge[f]
        self.fam_charged = True
        if i is not None:
            a = self._ally(i)
            self._set_hp(a, min(a[A_HP] + total, self.t.cost[a[A_TOP]]))

    def can_end_charge_phase(self) -> str | None:
        """Say why the Charge Phase cannot end yet (hand limits, T2a/U1), or None."""
        return self.end_charge_phase(_check=True)

    def end_charge_phase(self, _check: bool = False) -> Any:
        """End the Charge Phase, run the Draw Phase (T3) and open the Main Phase (T4)."""
        if self.phase != CHARGE:
            return self._refuse("not in the Charge Phase", _check)
        held = len(self.hand)
        if held > HAND_LIMIT:
            return self._refuse(f"{held} Character cards in hand: send cards until {HAND_LIMIT} remain (T2a)", _check)
        if self.fam_hand and len(self.fam_hand) > FAMILIAR_HAND_LIMIT:
            return self._refuse(f"{len(self.fam_hand)} Familiar cards in hand: send familiars until "
                                f"{FAMILIAR_HAND_LIMIT} remain (U1, T2c)", _check)
        if _check:
            return None
        if held < HAND_LIMIT:  # T3: draw up to 5
            self._draw(HAND_LIMIT - held)
        self.phase = MAIN_PHASE
        self.m_ap_main = self.ap
        if self.t.any_skip_act:
            skip_act = self.t.skip_act
            for a in self.allies:  # C5: ACT abilities usable this turn that the engine cannot run
                if a[A_POS] != COMMAND_ZONE and not a[A_REL]:
                    self.skipped += skip_act[a[A_TOP]]
        return None

    def end_turn(self) -> tuple[int, ...]:
        """End the turn (T5) and return its measures (see `MEASURES`)."""
        if self.phase != MAIN_PHASE:
            raise IllegalAction("the turn ends from the Main Phase")
        self.phase = BETWEEN
        return (self.m_ap_main, AP_CHARGE, self.m_charge_cards, self.m_growth_focus, self.m_spent,
                self.ap, len(self.allies), self.top_level, self.hp_total, len(self.hand), len(self.stronghold))

    # ---- Main Phase: Deployment, Growth, Focus (M1-M3) ------------------------------------

    def can_deploy(self, pos: Checked, dest: Checked) -> str | None:
        """Say why hand card `pos` cannot be deployed to `dest` (a space or COMMAND_ZONE), or None (M1)."""
        return self.deploy(pos, dest, _check=True)

    def deploy(self, pos: Checked, dest: Checked, _check: bool = False) -> Any:
        """Pay the deployment cost of hand card `pos` and place it on `dest` with 1 HP (M1); return the ally."""
        if self.phase != MAIN_PHASE:
            return self._refuse("Deployment happens in the Main Phase (T4)", _check)
        hand = self.hand
        if pos.__class__ is not int or not 0 <= pos < len(hand):
            return self._refuse(f"no hand card number {pos!r}", _check)
        t = self.t
        c = hand[pos]
        cost = t.cost[c]
        if self.ap < cost:
            return self._refuse(f"deploying costs {cost} AP, {self.ap} AP available (M1)", _check)
        if t.kind[c] != NAMELESS and self.by_name[t.name_id[c]] is not None:
            return self._refuse(f"an ally named {t.name[c]!r} is already in play (M1 Decision)", _check)
        if dest == COMMAND_ZONE:
            if t.level[c] != 1:
                return self._refuse("only Level 1 cards may be deployed to the Command Zone (M1)", _check)
            if self.command_zone is not None:
                return self._refuse("the Command Zone is taken (M1)", _check)
        elif dest.__class__ is not int or not 0 <= dest < t.board.n_spaces or not t.board.is_perimeter[dest]:
            return self._refuse(f"space {dest!r} is not a Stronghold Perimeter space (M1)", _check)
        elif self.occupant[dest] is not None:
            return self._refuse(f"space {dest} is taken (M1)", _check)
        if _check:
            return None
        del hand[pos]
        self.ap -= cost
        self.m_spent += cost
        ally = self._enter(c, dest)
        if dest != COMMAND_ZONE and t.has_deploy_trigger[c]:  # BF abilities fire on the field only
            self._trigger(t.on_deploy[c], ally)
            self.skipped += t.skip_deploy[c]
        return ally

    def can_stack(self, pos: Checked, i: Any, kind: Checked = None) -> str | None:
        """Say why hand card `pos` cannot Grow/Focus onto ally `i`, or None (M2, M3).

        `kind` GROWTH or FOCUS asks for that action only; None accepts either.
        """
        return self.stack(pos, i, kind, _check=True)

    def stack(self, pos: Checked, i: Any, kind: Checked = None, _check: bool = False) -> Any:
        """Grow (M2) or Focus (M3) hand card `pos` onto ally `i`; return GROWTH or FOCUS."""
        if self.phase != MAIN_PHASE:
            return self._refuse("Growth and Focus happen in the Main Phase (T4)", _check)
        hand = self.hand
        try:
            if pos.__class__ is not int or pos < 0:
                raise IndexError
            c = hand[pos]
        except IndexError:
            return self._refuse(f"no hand card number {pos!r}", _check)
        a: list[Any] | None = self._ally(i)
        if a is None:
            return self._refuse(f"no ally {i!r} in play", _check)
        top: int = a[A_TOP]
        # The stacking table has no entry under a familiar (a Released one included): one lookup
        # checks the relation (M2, M3) and the kind asked for.
        info = self.t.stack_rows[top][c]
        if info is None or (kind is not None and info[0] != kind):
            return self._refuse(self._no_stack(a, c, kind), _check)
        rel, cap, level, gain, special = info
        if special and special & STACK_NAMING and self.by_name[self.t.name_id[c]] is not None:
            # M1 Decision: the Nameless would take a name already in play.
            return self._refuse(f"an ally named {self.t.name[c]!r} is already in play (M1 Decision)", _check)
        if _check:
            return None
        del hand[pos]
        a[A_SRC].append(top)  # M6: the old top becomes a growth source
        a[A_TOP] = c
        a[A_USED_TURN] = -1  # a new card: its abilities are fresh this turn
        hp: int = a[A_HP]
        if rel == GROWTH:
            if hp < cap:  # M2: +1 HP, never above the new max
                a[A_HP] = hp + 1
                self.hp_total += 1
            if level > self.top_level:
                self.top_level = level
        elif hp > cap:
            a[A_HP] = cap
            self.hp_total += cap - hp
        self.ap += gain  # M2/M3 Decision: the charge value of the new top card
        self.m_growth_focus += gain
        if special:
            t = self.t
            if special & STACK_NAMING:  # the Nameless takes the new card's name
                self.nameless.remove(a)
                self.by_name[t.name_id[c]] = a
            if special & STACK_TRIGGERS and a[A_POS] != COMMAND_ZONE:
                self._trigger(t.on_growth[c], a)
                self.skipped += t.skip_growth[c]
                if t.board.is_frontline[a[A_POS]]:
                    self._trigger(t.on_growth_frontline[c], a)
                    self.skipped += t.skip_growth_frontline[c]
        return rel

    def _no_stack(self, a: list[Any], c: int, kind: int | None) -> str:
        """Say why card `c` cannot Grow/Focus onto ally `a` (M2, M3)."""
        if a[A_REL]:
            return "a Released familiar cannot Grow or Focus (M2, M3)"
        t = self.t
        top = a[A_TOP]
        what = {GROWTH: "Grow", FOCUS: "Focus"}.get(kind, "Grow or Focus")  # type: ignore[arg-type]
        return f"{t.name[c]!r} (Level {t.level[c]}) cannot {what} onto {t.name[top]!r} (Level {t.level[top]}) (M2, M3)"

    def grow(self, pos: Checked, i: Any) -> None:
        """Grow: hand card `pos` (same name, higher level) goes on top of ally `i` (M2)."""
        self.stack(pos, i, GROWTH)

    def focus(self, pos: Checked, i: Any) -> None:
        """Focus: hand card `pos` (same name and level) goes on top of ally `i` (M3)."""
        self.stack(pos, i, FOCUS)

    # ---- Main Phase: Move, Swap (M4, M5) ---------------------------------------------------

    def can_move(self, i: Any, dest: Checked) -> str | None:
        """Say why ally `i` cannot Move to space `dest`, or None (M4)."""
        return self.move(i, dest, _check=True)

    def move(self, i: Any, dest: Checked, _check: bool = False) -> Any:
        """Pay 1 AP: ally `i` moves one orthogonal step, or from the Command Zone to the Perimeter (M4)."""
        if self.phase != MAIN_PHASE:
            return self._refuse("Move happens in the Main Phase (T4)", _check)
        a: list[Any] | None = self._ally(i)
        if a is None:
            return self._refuse(f"no ally {i!r} in play", _check)
        if a[A_DEF]:
            return self._refuse("only an ally in Attack Stance may Move (M4)", _check)
        if self.ap < 1:
            return self._refuse("Move costs 1 AP (M4)", _check)
        board = self.t.board
        if dest.__class__ is not int or not 0 <= dest < board.n_spaces:
            return self._refuse(f"no space {dest!r} to move to (the Command Zone is never re-entered, M4)", _check)
        if self.occupant[dest] is not None:
            return self._refuse(f"space {dest} is taken (M4)", _check)
        pos = a[A_POS]
        if pos == COMMAND_ZONE:
            if not board.is_perimeter[dest]:
                return self._refuse("from the Command Zone an ally moves onto the Stronghold Perimeter (M4)", _check)
        elif dest not in board.neighbours[pos]:
            return self._refuse(f"space {dest} is not one orthogonal step from space {pos} (M4)", _check)
        if _check:
            return None
        if pos == COMMAND_ZONE:
            self.command_zone = None
        else:
            self.occupant[pos] = None
        self.occupant[dest] = a
        a[A_POS] = dest
        self.ap -= 1
        self.m_spent += 1
        return None

    def can_swap(self, i: Any, j: Any) -> str | None:
        """Say why allies `i` and `j` cannot Swap, or None (M5)."""
        if self.phase != MAIN_PHASE:
            return "Swap happens in the Main Phase (T4)"
        a, b = self._ally(i), self._ally(j)
        if a is None or b is None or a is b:
            return f"bad allies {i!r}, {j!r}"
        if a[A_DEF] or b[A_DEF]:
            return "both allies must be in Attack Stance (M5)"
        if a[A_POS] == COMMAND_ZONE or b[A_POS] == COMMAND_ZONE:
            return "only allies on the field swap (M5)"
        if b[A_POS] not in self.t.board.neighbours[a[A_POS]]:
            return "the allies are not orthogonally adjacent (M5)"
        if self.ap < 2:
            return "Swap costs 2 AP (M5)"
        return None

    def swap(self, i: Any, j: Any) -> None:
        """Pay 2 AP: two adjacent allies in Attack Stance trade spaces (M5)."""
        why = self.can_swap(i, j)
        if why:
            raise IllegalAction(why)
        a, b = self._ally(i), self._ally(j)
        a[A_POS], b[A_POS] = b[A_POS], a[A_POS]
        self.occupant[a[A_POS]] = a
        self.occupant[b[A_POS]] = b
        self._spend(2)

    # ---- Main Phase: abilities (C5) --------------------------------------------------------

    def can_use_ability(self, i: Any, k: Checked) -> str | None:
        """Say why ally `i` cannot use its k-th runnable ACT ability now, or None (C5, guide I §14)."""
        if self.phase != MAIN_PHASE:
            return "abilities are activated in the Main Phase"
        a = self._ally(i)
        if a is None:
            return f"no ally {i!r} in play"
        if a[A_REL]:
            return "familiar abilities are not simulated"
        acts = self.t.act[a[A_TOP]]
        if k.__class__ is not int or not 0 <= k < len(acts):
            return f"the ally has no runnable ability number {k!r}"
        if a[A_POS] == COMMAND_ZONE:
            return "Battlefield abilities are not used from the Command Zone (engine decision)"
        if a[A_USED_TURN] == self.turn and a[A_USED] >> k & 1:
            return "an ability of a card is used at most once per turn (guide I §14)"
        ap_cost, to_def, _ = acts[k]
        if to_def and a[A_DEF]:
            return "this ability is used from Attack Stance (BF_Stance:Atk→Def)"
        if self.ap < ap_cost:
            return f"the ability costs {ap_cost} AP, {self.ap} AP available"
        return None

    def use_ability(self, i: Any, k: Checked = 0) -> None:
        """Pay the cost of ally `i`'s k-th runnable ACT ability and resolve it."""
        why = self.can_use_ability(i, k)
        if why:
            raise IllegalAction(why)
        a = self._ally(i)
        ap_cost, to_def, effects = self.t.act[a[A_TOP]][k]
        if a[A_USED_TURN] != self.turn:
            a[A_USED_TURN], a[A_USED] = self.turn, 0
        a[A_USED] |= 1 << k
        self._spend(ap_cost)
        self._resolve(effects, a)
        if to_def:
            a[A_DEF] = self.defended = True

    def can_use_hand_ability(self, pos: Checked, k: Checked) -> str | None:
        """Say why hand card `pos` cannot use its k-th runnable hand ability now, or None."""
        if self.phase != MAIN_PHASE:
            return "abilities are activated in the Main Phase"
        if pos.__class__ is not int or not 0 <= pos < len(self.hand):
            return f"no hand card number {pos!r}"
        c = self.hand[pos]
        acts = self.t.hand_act[c]
        if k.__class__ is not int or not 0 <= k < len(acts):
            return "the card has no runnable hand ability with that number"
        if (c, k) in self.hand_used:
            return "an ability of a card is used at most once per turn (guide I §14)"
        if self.ap < acts[k][0]:
            return f"the ability costs {acts[k][0]} AP, {self.ap} AP available"
        return None

    def use_hand_ability(self, pos: Checked, k: Checked = 0) -> None:
        """Use hand card `pos`'s k-th runnable hand ability; the card then goes where it says."""
        why = self.can_use_hand_ability(pos, k)
        if why:
            raise IllegalAction(why)
        c = self.hand[pos]
        ap_cost, to_standby, effects = self.t.hand_act[c][k]
        self.hand_used.add((c, k))
        self._spend(ap_cost)
        if to_standby:
            self.hand.pop(pos)
        self._resolve(effects, None)
        if to_standby:
            self.standby.append(c)  # after resolution (guide I §14 ③)

    # ---- Attack Declaration on the Stronghold (K1-K5, S8) ----------------------------------

    def boost_cards(self, i: Any) -> int:
        """Return how many self-boost costs ally `i` could pay (K2, Quick Start II §8)."""
        t = self.t
        a = self._ally(i)
        if a[A_REL]:
            return len(self.fam_hand) + len(a[A_SRC]) + len(self.hand) // 2
        nid = t.name_id[a[A_TOP]]
        return len(a[A_SRC]) + sum(1 for c in self.hand if t.name_id[c] == nid and t.kind[c] != NAMELESS)

    def can_attack(self, i: Any, magic: Checked = False, boosts: Checked = 0) -> str | None:
        """Say why ally `i` cannot attack the opponent's Stronghold now, or None (K2, K4, S8)."""
        if self.phase != MAIN_PHASE:
            return "attacks are declared in the Main Phase (T4)"
        if self.going_first and self.turn == 1:
            return "the first player cannot attack on their first turn (S8)"
        a = self._ally(i)
        if a is None:
            return f"no ally {i!r} in play"
        t = self.t
        if a[A_DEF]:
            return "only an ally in Attack Stance may attack (guide I §12)"
        if a[A_POS] == COMMAND_ZONE:
            return "an ally in the Command Zone has no space to attack from (engine decision)"
        if a[A_TURN] == self.turn:
            return "an ally that entered play this turn may not target the Stronghold (K4)"
        if not t.board.reaches_enemy_stronghold(a[A_POS], t.corners[a[A_TOP]]):
            return "the opponent's Stronghold is out of this ally's attack range (K4, B1)"
        top = a[A_TOP]
        values = t.boost_mat[top] if magic else t.boost_atk[top]
        allowed = min(1, len(values)) if a[A_REL] else len(values)  # Quick Start II §8: once
        if boosts.__class__ is not int or not 0 <= boosts <= allowed:
            return f"this ally may self-boost 0 to {allowed} times (K2)"
        if boosts > self.boost_cards(a):
            return "not enough same-name cards to pay for the self-boosts (K2)"
        return None

    def _pay_boost(self, a: list[Any]) -> None:
        t = self.t
        if a[A_REL]:  # Quick Start II §8: a familiar, or two Character cards
            if self.fam_hand:
                self.summoning.append(self.fam_hand.pop())
            elif a[A_SRC]:
                self.summoning.append(a[A_SRC].pop(0))
            else:
                for _ in range(2):
                    self.standby.append(self.hand.pop())
            return
        nid = t.name_id[a[A_TOP]]
        best = -1
        for p, c in enumerate(self.hand):
            if t.name_id[c] == nid and t.kind[c] != NAMELESS and (best < 0 or t.level[c] < t.level[self.hand[best]]):
                best = p
        if best >= 0:
            self.standby.append(self.hand.pop(best))
        else:
            self.standby.append(a[A_SRC].pop(0))

    def _opp_draw(self) -> int | None:
        """Reveal the mirror opponent's Last Guard: a random card of their Stronghold (K4)."""
        if self.opp_stronghold is None:
            opp = self.t.stronghold_after(self.commander)
            rnd = self.rng.random
            for _ in range(HAND_LIMIT):  # their opening hand (S6)
                j = int(rnd() * len(opp))
                self.opp_hand.append(opp[j])
                opp[j] = opp[-1]
                opp.pop()
            self.opp_stronghold = opp
        opp = self.opp_stronghold
        if not opp:
            return None
        j = int(self.rng.random() * len(opp))
        c = opp[j]
        opp[j] = opp[-1]
        opp.pop()
        return c

    def attack(self, i: Any, magic: Checked = False, boosts: Checked = 0) -> int:
        """Attack the opponent's Stronghold with ally `i` (K4); return the K4 outcome code."""
        why = self.can_attack(i, magic, boosts)
        if why:
            raise IllegalAction(why)
        t = self.t
        a = self._ally(i)
        top = a[A_TOP]
        power = t.mat[top] if magic else t.atk[top]
        if a[A_FAM]:  # U3: the contracted familiar's attack power adds in Attack Stance
            power += t.mat[a[A_FAM][-1]] if magic else t.atk[a[A_FAM][-1]]
        values = t.boost_mat[top] if magic else t.boost_atk[top]
        for k in range(boosts):
            self._pay_boost(a)
            power += values[k]
        guard = self._opp_draw()
        guard_power = 0 if guard is None else (t.mat[guard] if magic else t.atk[guard])
        outcome, to_attacker, to_stronghold = last_guard_combat(power, guard_power)
        if guard is not None:
            (self.opp_hand if outcome == GUARD_HIGHER else self.opp_standby).append(guard)
        if to_stronghold:
            if self.opp_sh_hp == 0:
                if self.won_turn is None:
                    self.won_turn = self.turn  # K5
            else:
                self.opp_sh_hp -= 1
            if t.on_combat_damage[top] or t.skip_combat_damage[top]:
                self._trigger(t.on_combat_damage[top], a)
                self.skipped += t.skip_combat_damage[top]
        a[A_DEF] = self.defended = True  # end of combat: the attacker turns to Defense Stance
        if to_attacker:
            if a[A_HP] <= to_attacker:
                self.leave_play(a)
            else:
                self._set_hp(a, a[A_HP] - to_attacker)
        return outcome

    def leave_play(self, a: list[Any], keep: int | None = None) -> None:
        """Take an ally out of play (defeated): M6 for its growth sources, U5 for its familiar.

        `keep` is the growth source (index into its sources) returned to hand; None returns the
        highest-level one. The rest go to the Standby Zone (familiars: Summoning Zone, eggs to hand).
        """
        t = self.t
        self.allies.remove(a)
        a[A_LIVE] = False
        self.hp_total -= a[A_HP]
        pos = a[A_POS]
        if pos == COMMAND_ZONE:
            self.command_zone = None
        else:
            self.occupant[pos] = None
        top = a[A_TOP]
        if t.kind[top] == NAMELESS:
            self.nameless.remove(a)
        else:
            self.by_name[t.name_id[top]] = None
        self.top_level = max((t.level[b[A_TOP]] for b in self.allies), default=0)
        if a[A_REL]:  # Quick Start II §7: eggs return to hand, other familiars to the Summoning Zone
            for f in a[A_SRC] + [top]:
                (self.fam_hand if t.is_egg[f] else self.summoning).append(f)
            return
        sources = a[A_SRC]
        if sources:
            if keep is None:
                keep = max(range(len(sources)), key=lambda k: (t.level[sources[k]], k))
            self.hand.append(sources.pop(keep))  # M6
            self.standby.extend(sources)
        self.standby.append(top)
        fam = a[A_FAM]
        if fam:
            ftop = fam[-1]
            if t.is_egg[ftop] or pos == COMMAND_ZONE:
                for f in fam:  # an Egg is never Released; no familiar stands in the Command Zone
                    (self.fam_hand if t.is_egg[f] else self.summoning).append(f)
            else:  # U5: the familiar stays, Released
                self._release_stack(fam, pos)

    # ---- Ultimate Mode: Contract, Evolution, Release (U2-U5) -------------------------------

    def _familiar_hand_action(self, action: str, rule: str, fpos: Any, i: Any) -> tuple[str | None, Any]:
        """Check what Contract and Evolution share; return (why not, None) or (None, the ally `i`)."""
        if not self.t.ultimate:
            return f"{action} exists only in Ultimate Mode ({rule})", None
        if self.phase != MAIN_PHASE:
            return f"{action} happens in the Main Phase (T4)", None
        if fpos.__class__ is not int or not 0 <= fpos < len(self.fam_hand):
            return f"no familiar hand card number {fpos!r}", None
        a = self._ally(i)
        if a is None:
            return f"no ally {i!r} in play", None
        return None, a

    def can_contract(self, fpos: Checked, i: Any) -> str | None:
        """Say why familiar hand card `fpos` cannot be contracted to ally `i`, or None (U3)."""
        why, a = self._familiar_hand_action("Contract", "U3", fpos, i)
        if why:
            return why
        t = self.t
        f = self.fam_hand[fpos]
        if a[A_REL]:
            return "a Released familiar cannot hold a Contract (Quick Start II Q&A)"
        if a[A_DEF]:
            return "the Contract Holder must be in Attack Stance (U3)"
        if a[A_FAM]:
            return "one familiar per character (U3)"
        if t.level[f] > t.level[a[A_TOP]]:
            return f"a Level {t.level[f]} familiar cannot contract with a Level {t.level[a[A_TOP]]} character (U3)"
        if self.ap < t.cost[f]:
            return f"the Contract costs {t.cost[f]} AP, {self.ap} AP available (U3)"
        return None

    def contract(self, fpos: Checked, i: Any) -> None:
        """Pay the contract cost: familiar hand card `fpos` goes under ally `i` (U3)."""
        why = self.can_contract(fpos, i)
        if why:
            raise IllegalAction(why)
        f = self.fam_hand.pop(fpos)
        self._spend(self.t.cost[f])
        self._ally(i)[A_FAM].append(f)

    def can_evolve(self, fpos: Checked, i: Any) -> str | None:
        """Say why familiar hand card `fpos` cannot evolve ally `i`'s familiar, or None (U4)."""
        why, a = self._familiar_hand_action("Evolution", "U4", fpos, i)
        if why:
            return why
        t = self.t
        f = self.fam_hand[fpos]
        if a[A_REL]:
            current = a[A_TOP]
        else:
            if not a[A_FAM]:
                return "the ally holds no familiar (U4)"
            if not a[A_DEF]:
                return "the Contract Holder must be in Defense Stance (U4)"
            current = a[A_FAM][-1]
            if t.level[f] > t.level[a[A_TOP]]:
                return "a familiar cannot evolve above its Contract Holder's Level (U4)"
        if t.evolves_from[f] != t.name_id[current]:
            return f"{t.name[f]!r} does not evolve from {t.name[current]!r} (U4)"
        return None

    def evolve(self, fpos: Checked, i: Any) -> None:
        """Evolve ally `i`'s familiar (or the Released familiar `i`) with familiar hand card `fpos` (U4)."""
        why = self.can_evolve(fpos, i)
        if why:
            raise IllegalAction(why)
        t = self.t
        f = self.fam_hand.pop(fpos)
        a = self._ally(i)
        if a[A_REL]:  # Quick Start II §7: +HP equal to the new card's charge value, capped
            old = a[A_TOP]
            a[A_SRC].append(old)
            a[A_TOP] = f
            self.by_name[t.name_id[old]] = None
            self.by_name[t.name_id[f]] = a
            self._set_hp(a, min(a[A_HP] + t.charge[f], t.cost[f]))
            if t.level[f] > self.top_level:
                self.top_level = t.level[f]
        else:
            a[A_FAM].append(f)

    def can_release(self, i: Any, dest: Checked, move_holder: Checked = False) -> str | None:
        """Say why ally `i`'s familiar cannot be Released by a step to `dest`, or None (U5)."""
        if not self.t.ultimate:
            return "Release exists only in Ultimate Mode (U5)"
        if self.phase != MAIN_PHASE:
            return "Release happens in the Main Phase (T4)"
        a = self._ally(i)
        if a is None:
            return f"no ally {i!r} in play"
        t = self.t
        if a[A_REL] or not a[A_FAM]:
            return "the ally holds no familiar (U5)"
        if t.is_egg[a[A_FAM][-1]]:
            return "a Familiar Egg cannot be Released (U5)"
        if self.ap < 1:
            return "Release costs 1 AP (U5)"
        board = t.board
        if dest.__class__ is not int or not 0 <= dest < board.n_spaces or self.occupant[dest] is not None:
            return f"space {dest!r} is not an empty space (U5)"
        pos = a[A_POS]
        if move_holder:
            if a[A_DEF]:
                return "the Contract Holder moves only from Attack Stance (U5)"
            if pos == COMMAND_ZONE:
                return "a familiar cannot stay in the Command Zone (Quick Start II §7)"
        if pos == COMMAND_ZONE:
            if not board.is_perimeter[dest]:
                return "from the Command Zone the familiar steps onto the Stronghold Perimeter (engine decision)"
        elif dest not in board.neighbours[pos]:
            return f"space {dest} is not one orthogonal step from space {pos} (U5)"
        return None

    def _release_stack(self, fam: list[int], pos: int) -> list[Any]:
        t = self.t
        top = fam[-1]
        # U5: HP = total charge value of the familiar and its evolution sources, capped at max HP.
        hp = min(sum(t.charge[f] for f in fam), t.cost[top])
        return self._enter(top, pos, hp, True, fam[:-1])

    def release(self, i: Any, dest: Checked, move_holder: Checked = False) -> list[Any]:
        """Pay 1 AP: the holder (or its familiar) steps to `dest`; the familiar is Released (U5)."""
        why = self.can_release(i, dest, move_holder)
        if why:
            raise IllegalAction(why)
        a = self._ally(i)
        fam = a[A_FAM]
        a[A_FAM] = []
        self._spend(1)
        if move_holder:
            old = a[A_POS]
            self.occupant[old] = None
            self.occupant[dest] = a
            a[A_POS] = dest
            return self._release_stack(fam, old)
        return self._release_stack(fam, dest)

    def stronghold_damaged(self, amount: int, picks: list[int] | None = None) -> list[int]:
        """Our Stronghold takes `amount` combat damage (U2): take familiars from the Summoning Zone.

        Each taken familiar's contract cost is at most 10 minus the remaining HP. `picks` are
        Summoning Zone positions; None takes the eligible ones in zone order. Return the cards taken.
        """
        self.sh_hp = max(0, self.sh_hp - amount)
        if not self.t.ultimate:
            return []
        limit = 10 - self.sh_hp
        cost = self.t.cost
        eligible = [p for p, f in enumerate(self.summoning) if cost[f] <= limit]
        if picks is None:
            picks = eligible[:amount]
        if len(picks) > amount or len(set(picks)) != len(picks) or not set(picks) <= set(eligible):
            raise IllegalAction(f"take at most {amount} familiars with contract cost ≤ {limit} (U2)")
        taken = [self.summoning[p] for p in picks]
        for p in sorted(picks, reverse=True):
            self.summoning.pop(p)
        self.fam_hand.extend(taken)
        return taken

    # ---- every legal action, for policies that enumerate ----------------------------------

    def legal_actions(self) -> list[tuple[Any, ...]]:
        """List every legal action as a tuple (name, *arguments) for `apply`."""
        return list(self._candidates())

    def _candidates(self) -> Iterator[tuple[Any, ...]]:
        if self.phase == CHARGE:
            for p in range(len(self.hand)):
                if self.can_charge_card(p) is None:
                    yield ("charge_card", p)
            for i in range(len(self.allies)):
                if self.can_hp_charge(i) is None:
                    yield ("hp_charge", i)
            if self.t.ultimate and not self.fam_charged and self.fam_hand:
                targets: list[int | None] = list(range(len(self.allies))) or [None]
                for r in range(1, len(self.fam_hand) + 1):
                    for combo in combinations(range(len(self.fam_hand)), r):
                        for ti in targets:
                            if self.can_familiar_hp_charge(combo, ti) is None:
                                yield ("familiar_hp_charge", combo, ti)
            if self.can_end_charge_phase() is None:
                yield ("end_charge_phase",)
            return
        if self.phase != MAIN_PHASE:
            if self.phase == BETWEEN:
                yield ("begin_turn",)
            return
        t = self.t
        board = t.board
        occ = self.occupant
        allies = self.allies
        index = {id(a): i for i, a in enumerate(allies)}
        # Candidates are narrowed to where each action could possibly go (empty spaces, the ally
        # of a card's name or a Nameless, adjacent allies); the can_* checks alone decide.
        dests = [d for d in board.perimeter if occ[d] is None]
        if self.command_zone is None:
            dests.append(COMMAND_ZONE)
        for p in range(len(self.hand)):
            c = self.hand[p]
            for d in dests:
                if self.can_deploy(p, d) is None:
                    yield ("deploy", p, d)
            named = self.by_name[t.name_id[c]]
            for a in ([named] if named is not None else []) + self.nameless:
                i = index[id(a)]
                if self.can_stack(p, i) is None:
                    yield ("stack", p, i)
            for k in range(len(t.hand_act[c])):
                if self.can_use_hand_ability(p, k) is None:
                    yield ("use_hand_ability", p, k)
        for i, a in enumerate(allies):
            pos = a[A_POS]
            steps = board.perimeter if pos == COMMAND_ZONE else board.neighbours[pos]
            empty = [d for d in steps if occ[d] is None]
            for d in empty:
                if self.can_move(i, d) is None:
                    yield ("move", i, d)
            if pos != COMMAND_ZONE:
                for d in steps:
                    b = occ[d]
                    if b is not None and index[id(b)] > i and self.can_swap(i, index[id(b)]) is None:
                        yield ("swap", i, index[id(b)])
            # A refusal without self-boosts holds for every attack kind and boost count (K2 last).
            if self.can_attack(i, False, 0) is None:
                for magic in (False, True):
                    for boosts in range(3):
                        if self.can_attack(i, magic, boosts) is None:
                            yield ("attack", i, magic, boosts)
            for k in range(len(t.act[a[A_TOP]])):
                if self.can_use_ability(i, k) is None:
                    yield ("use_ability", i, k)
            if t.ultimate:
                for fp in range(len(self.fam_hand)):
                    if self.can_contract(fp, i) is None:
                        yield ("contract", fp, i)
                    if self.can_evolve(fp, i) is None:
                        yield ("evolve", fp, i)
                if a[A_FAM]:
                    for d in empty:
                        for mh in (False, True):
                            if self.can_release(i, d, mh) is None:
                                yield ("release", i, d, mh)
        yield ("end_turn",)

    _ACTIONS: ClassVar[frozenset[str]] = frozenset({
        "begin_turn", "charge_card", "charge_cards", "hp_charge", "familiar_hp_charge", "end_charge_phase", "deploy",
        "stack", "grow", "focus", "move", "swap", "attack", "use_ability", "use_hand_ability",
        "contract", "evolve", "release", "end_turn",
    })

    def apply(self, action: tuple[Any, ...]) -> Any:
        """Apply one action tuple (name, *arguments), with the rule checks of its method."""
        if not action or action[0] not in self._ACTIONS:
            raise IllegalAction(f"unknown action {action!r}")
        return getattr(self, action[0])(*action[1:])
