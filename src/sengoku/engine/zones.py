"""The game state's fields and what every rule group shares: entering and leaving play, drawing.

`Zones` is the bottom of the `GameState` line (see `sengoku.engine.state`): it holds every zone,
the allies and the counters, and the few moves that several rule groups make (a card enters play,
an ally leaves play, cards are drawn). Zones hold card indices (see `tables.DeckTables`); an ally
in play is an `Ally`. Because names are unique on the Battlefield (M1), `by_name[name_id]` is the
ally bearing a name there; the Command Zone's ally, which may share a name (M1), is
`command_zone`.
"""

from __future__ import annotations

import random
from typing import Any

from sengoku.engine.ally import Ally, Enemy
from sengoku.engine.board import COMMAND_ZONE
from sengoku.engine.chance import Chance, Unordered, keyed_part
from sengoku.engine.chooser import Chooser
from sengoku.engine.tables import NAMELESS, DeckTables

# An action's argument that the action checks itself: any value may be passed, and one that is not
# valid (a bad type included) is refused with IllegalAction, never a TypeError (so also when the
# engine is compiled, where declared types are enforced at the call).
Checked = Any

# Every field of a GameState: its slots (a compiled GameState has them as native attributes), but for
# `stronghold`, a property over the two slots that hold the Stronghold (see `Zones.stronghold`).
STATE_FIELDS = (
    "t", "chance", "going_first", "commander", "turn", "phase", "ap", "hand", "fam_hand",
    "stronghold", "standby", "banish", "summoning", "allies", "occupant", "command_zone", "cz_name",
    "by_name", "nameless", "hp_total", "top_level", "defended",
    "sh_hp", "opp_t", "opp_defends", "opp_allies", "opp_commander", "opp_board",
    "opp_sh_hp", "opp_stronghold", "opp_unordered", "opp_standby", "opp_hand", "won_turn",
    "hp_charged", "fam_charged", "hand_used", "opening_hand", "skipped", "chooser",
    "m_ap_main", "m_charge_cards", "m_growth_focus", "m_spent", "m_ability_ap",
    "m_attacks", "m_hits", "m_lost",
    "sh_bottom", "fam_used", "record",
)


_SLOTS = tuple(f for f in STATE_FIELDS if f != "stronghold") + ("sh_top", "sh_unordered")


class Zones:
    """Zones, allies, AP, turn and phase of one player's game, and the moves rule groups share."""

    __slots__ = _SLOTS

    t: DeckTables
    chance: Chance  # all of the game's chance, one stream per purpose (G7)
    going_first: bool
    commander: int
    turn: int
    phase: int
    ap: int
    hand: list[int]
    fam_hand: list[int]
    # The Stronghold (S3), its top last: the compiled engine orders it a part at a time, like the
    # opponent's (see `Chance.stronghold`), so it is held as its ordered top part (`sh_top`) and the
    # cards below that part, not ordered yet (`sh_unordered`; None when there are none).
    # `stronghold` is the whole of it; the rules draw from `sh_top` through `_draw`.
    sh_top: list[int]
    sh_unordered: Unordered | None
    standby: list[int]
    banish: list[int]
    summoning: list[int]
    allies: list[Ally]
    occupant: list[Ally | None]
    command_zone: Ally | None
    cz_name: int  # the name id the Command Zone's ally bears; -1 when empty or a Nameless (M1)
    by_name: list[Ally | None]
    nameless: list[Ally]
    hp_total: int
    top_level: int
    defended: bool  # some ally may be in Defense Stance (T1 has work to do)
    sh_hp: int
    opp_t: DeckTables  # the opponent's deck (G4): this deck's own tables for a mirror
    opp_defends: bool  # G4: the opponent adds its Commander's ATK and self-boosts its Last Guards
    opp_allies: list[Enemy]  # its Commander (first) and its Nameless
    opp_commander: Enemy | None  # while in its Command Zone
    opp_board: list[Ally | None]  # `occupant` at setup: the enemies on spaces we can reach
    opp_sh_hp: int
    opp_stronghold: list[int] | None  # None until its first Last Guard is revealed (see Attack)
    opp_unordered: Unordered | None  # the cards below opp_stronghold not ordered yet (compiled engine)
    opp_standby: list[int]
    opp_hand: list[int]
    won_turn: int | None
    hp_charged: bool
    fam_charged: bool
    hand_used: dict[tuple[int, int], int]  # (card, ability bit) -> copies in hand that used it (A1)
    opening_hand: tuple[int, ...]
    skipped: int
    chooser: Chooser  # asked the choices an action makes on the way (A2)
    m_ap_main: int
    m_charge_cards: int
    m_growth_focus: int
    m_spent: int
    m_ability_ap: int
    m_attacks: int
    m_hits: int
    m_lost: int
    sh_bottom: list[int]  # cards put on the Stronghold's bottom (A4 Troop), drawn last, in order
    fam_used: list[int]  # per familiar card: the turn the familiar stack it is the bottom of used its ability (A4)
    # G8: the events of the game as its actions play them (see `sengoku.trace`), or None when no
    # trace is asked for: each action then pays one `is not None` test, nothing more.
    record: list[dict[str, Any]] | None

    def _enter(self, card: int, pos: int, hp: int = 1, released: bool = False,
               sources: list[int] | None = None) -> Ally:
        """Put a card into play as a new ally in Attack Stance (M1: 1 HP)."""
        t = self.t
        ally = Ally(card, hp, pos, self.turn, released, sources)
        self.allies.append(ally)
        if t.kind[card] == NAMELESS:
            self.nameless.append(ally)
        if pos == COMMAND_ZONE:
            self._set_command_zone(ally)
        else:
            self.occupant[pos] = ally
            if t.kind[card] != NAMELESS:
                self.by_name[t.name_id[card]] = ally  # M1: names are unique on the Battlefield
        self.hp_total += hp
        if t.level[card] > self.top_level:
            self.top_level = t.level[card]
        return ally

    @property
    def stronghold(self) -> list[int]:
        """The Stronghold's cards in their order, the top last (S3, T3): all of them, ordered now if need be."""
        u = self.sh_unordered
        if u is not None:
            if u.left:
                self.sh_top[:0] = keyed_part(u, u.left)
            self.sh_unordered = None
        return self.sh_top

    @stronghold.setter
    def stronghold(self, cards: list[int]) -> None:
        self.sh_top = cards
        self.sh_unordered = None

    def stronghold_count(self) -> int:
        """Return the number of cards in the Stronghold (not counting those Troop put on its bottom)."""
        u = self.sh_unordered
        return len(self.sh_top) if u is None else len(self.sh_top) + u.left

    def _stronghold_top(self, n: int) -> list[int]:
        """Return `sh_top` with at least its top `n` cards ordered (or all the Stronghold's).

        A game that draws past the part ordered at setup is one that draws much of its Stronghold
        (a developing policy draws about 40 of 51 cards in 8 turns): the rest is ordered at once,
        one more pass over the keys, not a pass per part.
        """
        sh = self.sh_top
        if len(sh) < n:
            u = self.sh_unordered
            if u is not None:
                if u.left:
                    sh[:0] = keyed_part(u, u.left)  # every card of it goes below the ordered ones
                self.sh_unordered = None
        return sh

    def _draw(self, n: int) -> int:
        """Draw up to `n` cards from the top of the Stronghold; an empty one takes the Standby Zone (T3).

        The Stronghold is in its shuffled order (G7: keyed by card copy, see `chance`), its top last;
        the cards Troop put on its bottom (`sh_bottom`, A4) come after it, in their order.
        """
        sh = self._stronghold_top(n)
        if len(sh) >= n:  # the usual case: no reshuffle can happen
            hand = self.hand
            for _ in range(n):  # (compiled, a pop and an append a card are cheaper than slices)
                hand.append(sh.pop())
            return n
        draw = self.hand.append
        drawn = 0
        while drawn < n:
            if not sh:
                if self.sh_bottom:  # the cards put on the bottom (A4 Troop) come last, in their order
                    draw(self.sh_bottom.pop(0))
                    drawn += 1
                    continue
                if not self.standby:
                    break  # T3: both empty, stop drawing
                # T3: the Standby Zone is shuffled into a new Stronghold.
                sh = self.sh_top = self.chance.reshuffle(self.standby, self.t.copy_codes)
                self.sh_unordered = None
                self.standby = []
            draw(sh.pop())
            drawn += 1
        return drawn

    @property
    def policy_rng(self) -> random.Random:
        """The policy's own random generator (G7): the random policy's picks, the search's rollout
        seeds. The rules never draw from it, so a policy's draws shift no card, die or Last Guard."""
        return self.chance.policy_rng()

    def _set_command_zone(self, ally: Ally | None) -> None:
        """Put `ally` (or nobody) in the Command Zone, and note the name it bears for `name_in_play`."""
        self.command_zone = ally
        t = self.t
        self.cz_name = -1 if ally is None or t.kind[ally.top] == NAMELESS else t.name_id[ally.top]

    def _ally(self, i: Any) -> Ally | None:
        """Return the ally named by number or by itself, or None if there is no such ally in play."""
        if type(i) is Ally:  # the ally itself, as fast policies pass it: one of this game's
            sp = i.space  # (on its space, or in the Command Zone: no other record is ours)
            if i.in_play and (self.occupant[sp] is i if 0 <= sp < len(self.occupant) else self.command_zone is i):
                return i
            return None
        if type(i) is int:
            return self.allies[i] if 0 <= i < len(self.allies) else None
        return None

    def max_hp(self, ally: Ally) -> int:
        """Return an ally's max HP: its top card's deployment (or contract) cost."""
        return self.t.cost[ally.top]

    def _hand_left(self, card: int) -> None:
        """A copy of `card` left the hand: one that used an ability this turn, if any did (A1).

        Copies of a card are alike, so the player is taken to part with a used copy first.
        """
        for key in [k for k in self.hand_used if k[0] == card]:
            left = self.hand_used[key] - 1
            if left:
                self.hand_used[key] = left
            else:
                del self.hand_used[key]

    def _spend(self, amount: int) -> None:
        self.ap -= amount
        self.m_spent += amount

    def _set_hp(self, a: Ally, hp: int) -> None:
        self.hp_total += hp - a.hp
        a.hp = hp

    # ---- targeted questions (for fast policies; the actions still check everything) --------

    def stack_target(self, card: int) -> Ally | None:
        """Return an ally that `card` could Grow or Focus onto (M2, M3), or None.

        In this order: the Battlefield ally of the card's name, the Commander (M1: it may share
        that name), and, while no ally bears the card's name, the first Nameless ally of the
        card's gender and weapon.
        """
        found = self.stack_target_or_name(card)
        return None if isinstance(found, bool) else found

    def stack_target_or_name(self, card: int) -> Ally | bool:
        """Return the ally `card` could Grow or Focus onto (as `stack_target`); else whether its
        name is in play (as `name_in_play`).

        What a developing policy asks of each hand card (stack it, keep it for its name's ally,
        or deploy it as a new name), answered with one look at the card's name.
        """
        t = self.t
        rows = t.relation_rows
        name = t.name_id[card]
        a = self.by_name[name]
        if a is not None and rows[a.top][card] and not a.released:
            return a
        cz = self.command_zone
        if cz is not None and rows[cz.top][card]:
            return cz
        if t.kind[card] == NAMELESS:
            return False  # (Nameless cards carry no name, M1)
        if a is not None:
            return True  # its name is on the Battlefield
        for b in self.nameless:
            if b.space != COMMAND_ZONE and rows[b.top][card]:
                return b
        return self.cz_name == name

    def name_in_play(self, card: int) -> bool:
        """Check if an ally bearing `card`'s name is in play, on the Battlefield or in the Command Zone."""
        t = self.t
        name = t.name_id[card]
        # (Nameless cards carry no name, M1: the kind is asked last, only when the name is borne.)
        return (self.by_name[name] is not None or self.cz_name == name) and t.kind[card] != NAMELESS

    def free_perimeter(self) -> int | None:
        """Return the first empty Stronghold Perimeter space (board file order), or None."""
        occ = self.occupant
        for space in self.t.board.perimeter:
            if occ[space] is None:
                return space
        return None

    def neediest_ally(self) -> Ally | None:
        """Return the ally missing the most HP (the first of equals), or None if none is hurt."""
        best, missing = None, 0
        cost = self.t.cost
        for a in self.allies:
            m = cost[a.top] - a.hp
            if m > missing:
                best, missing = a, m
        return best

    # ---- leaving play (M6, U5) ---------------------------------------------------------------

    def leave_play(self, a: Ally, keep: int | None = None) -> None:
        """Take an ally out of play (defeated): M6 for its growth sources, U5 for its familiar.

        `keep` is the growth source (index into its sources) returned to hand; None returns the
        highest-level one. The rest go to the Standby Zone (familiars: Summoning Zone, eggs to hand).
        """
        t = self.t
        if self.record is not None:
            self._note_leave_play(a, keep)
        remove_ally(self.allies, a)
        a.in_play = False
        self.m_lost += 1
        self.hp_total -= a.hp
        pos = a.space
        top = a.top
        if t.kind[top] == NAMELESS:
            remove_ally(self.nameless, a)
        if pos == COMMAND_ZONE:
            self._set_command_zone(None)
        else:
            self.occupant[pos] = None
            if self.by_name[t.name_id[top]] is a:
                self.by_name[t.name_id[top]] = None
        highest = 0
        for b in self.allies:
            if t.level[b.top] > highest:
                highest = t.level[b.top]
        self.top_level = highest
        if a.released:  # Quick Start II §7: eggs return to hand, other familiars to the Summoning Zone
            for f in a.sources + [top]:
                (self.fam_hand if t.is_egg[f] else self.summoning).append(f)
            return
        sources = a.sources
        if sources:
            if keep is None:
                keep = _highest_source(t, sources)
            self.hand.append(sources.pop(keep))  # M6
            self.standby.extend(sources)
        self.standby.append(top)
        fam = a.familiars
        if fam:
            ftop = fam[-1]
            if t.is_egg[ftop] or pos == COMMAND_ZONE:
                for f in fam:  # an Egg is never Released; no familiar stands in the Command Zone
                    (self.fam_hand if t.is_egg[f] else self.summoning).append(f)
            else:  # U5: the familiar stays, Released
                self._release_stack(fam, pos)

    def _note_leave_play(self, a: Ally, keep: int | None) -> None:
        """Record an ally leaving play (G8): where its cards go, as `leave_play` is about to send them."""
        assert self.record is not None
        t = self.t
        sources = a.sources
        back = -1
        if sources and not a.released:
            if keep is None:  # (as `leave_play` picks it)
                keep = _highest_source(t, sources)
            back = sources[keep]
        self.record.append({"event": "leave_play", "card": a.top, "space": a.space, "sources": list(sources),
                            "to_hand": back, "familiars": list(a.familiars), "released": a.released})

    def _note_draw(self, why: str, before: int, stronghold: list[int]) -> None:
        """Record the cards a draw just put at the end of the hand (G8; T3: whether the Standby Zone
        became the Stronghold on the way). `before` is the hand's size and `stronghold` the
        Stronghold's list (`sh_top`) before the draw."""
        assert self.record is not None
        self.record.append({"event": "draw", "why": why, "cards": self.hand[before:],
                            "reshuffled": self.sh_top is not stronghold,
                            "stronghold": self.stronghold_count() + len(self.sh_bottom)})

    def _release_stack(self, fam: list[int], pos: int) -> Ally:
        """Put a familiar stack into play as a Released familiar on `pos` (U5)."""
        t = self.t
        top = fam[-1]
        # U5: HP = total charge value of the familiar and its evolution sources, capped at max HP.
        hp = min(sum(t.charge[f] for f in fam), t.cost[top])
        return self._enter(top, pos, hp, True, fam[:-1])


def _highest_source(t: DeckTables, sources: list[int]) -> int:
    """Return the index of the highest-level growth source, the last of equals (M6: back to hand)."""
    best = 0
    level = t.level
    for k in range(1, len(sources)):
        if level[sources[k]] >= level[sources[best]]:
            best = k
    return best


def remove_ally(allies: list[Ally], a: Ally) -> None:
    """Remove ally `a` from a list of allies in play: what `list.remove` does, asking `is` instead of `==`.

    (Allies compare equal field by field, the space included, and no two allies in play share a
    space, so the one equal to `a` is `a` itself; compiled, `==` built two tuples per ally asked.)
    """
    for k in range(len(allies)):
        if allies[k] is a:
            del allies[k]
            return
    raise ValueError("the ally is not in the list")
