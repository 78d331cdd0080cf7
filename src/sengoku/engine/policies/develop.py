"""The `develop` policy: develops the board as fast as AP allows and never attacks (the old default)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from mypy_extensions import mypyc_attr  # read by mypyc when the engine is compiled

from sengoku.engine.ally import Ally
from sengoku.engine.board import COMMAND_ZONE
from sengoku.engine.constants import AP_CHARGE, FAMILIAR_HAND_LIMIT, HAND_LIMIT, HP_CHARGE_MIN
from sengoku.engine.policies.base import Policy, forced_charges
from sengoku.engine.state import GameState
from sengoku.engine.tables import NAMELESS, DeckTables


def _make_room(state: GameState, budget: int) -> int | None:
    """Move a Perimeter ally one step off the Perimeter to free a space (M4); return the space or None."""
    if state.ap < 1 + budget:
        return None
    board = state.t.board
    occ = state.occupant
    for s in board.perimeter:
        a = occ[s]
        if a is None or a.defending:
            continue
        # Prefer the step that goes furthest ahead (Frontline, then the Invasion Zone).
        for d in board.ahead_first[s]:
            if occ[d] is None and not board.is_perimeter[d]:
                state.move(a, d)
                return s
    return None


@dataclass(frozen=True)
class DevelopSettings:
    """The choices of `develop` that the policies built on it change (one record, passed whole)."""

    keep_for_next_turn: bool = True  # keep a card deployable next turn instead of sending it for AP
    # Plan the cards that can be deployed this turn before those kept for the next: a kept card
    # no longer sends its charge value, which a deployment this turn may need (a heavy hand).
    deploy_first: bool = True
    contracts: bool = True  # Ultimate: contract familiars (U3)
    hp_charge: bool = True  # HP Charge (T2b) with AP to spare
    move_for_room: bool = True  # with no free Perimeter space, move a Perimeter ally off to make room (M4)


@mypyc_attr(allow_interpreted_subclasses=True)
class DevelopPolicy(Policy):
    """Develop the board as fast as AP allows: grow and focus whenever possible, deploy the cheapest
    card of each new name and stack its other cards on it, keep cards it can deploy next turn,
    HP-charge with AP to spare, charge the rest."""

    name = "develop"

    def __init__(self, develop: DevelopSettings = DevelopSettings()) -> None:
        self.develop = develop
        # Per-deck orderings (see `_prepare`), for the deck of `_tables`.
        self._tables: DeckTables | None = None
        self._deploy_key: tuple[int, ...] = ()
        self._level_cost: tuple[int, ...] = ()

    def bind(self, state: GameState) -> tuple[Callable[[], None], Callable[[], None]]:
        if self._tables is not state.t:
            self._prepare(state.t)
        return partial(self.charge_phase, state), partial(self.main_phase, state)

    def _prepare(self, t: DeckTables) -> None:
        """Work out this deck's orderings once: which new name to deploy first, and which of its cards."""
        kind, level, cost = t.kind, t.level, t.cost
        # Nameless last, then (with the count of its name's cards in hand in bits 15-19, added
        # at the time) the lowest level, then the lowest cost.
        self._deploy_key = tuple((kind[c] == NAMELESS) << 20 | level[c] << 10 | cost[c] for c in range(t.n))
        self._level_cost = tuple(level[c] << 10 | cost[c] for c in range(t.n))
        self._tables = t

    # ---- Charge Phase ------------------------------------------------------------------------

    def charge_phase(self, state: GameState) -> None:
        if self._tables is not state.t:
            self._prepare(state.t)
        send, ap = self._plan_charges(state)
        hand = state.hand
        if send:
            state.charge_cards(range(len(hand)) if len(send) == len(hand) else send)
        if len(hand) > HAND_LIMIT or state.fam_hand and len(state.fam_hand) > FAMILIAR_HAND_LIMIT:
            forced_charges(state)
        if self.develop.hp_charge and ap >= 2 * HP_CHARGE_MIN:
            self._hp_charge(state, ap)

    def _plan_charges(self, state: GameState) -> tuple[list[int], int]:
        """Return the hand positions to send for AP Charge (T2a), and the AP the turn can count on.

        Growth and Focus give back the card's charge value (M2/M3 Decision), exactly what
        charging it would: every card that can stack now is kept, and the AP the turn can count
        on is the current AP plus every hand card's charge value.
        """
        t = state.t
        nid, kind, charge = t.name_id, t.kind, t.charge
        ap = state.ap
        send: list[int] = []
        groups: dict[int, list[int]] | None = None
        p = -1
        for c in state.hand:
            p += 1
            ap += charge[c]
            found = state.stack_target_or_name(c)
            if found is True or (found is False and kind[c] == NAMELESS):
                send.append(p)  # its name is in play and it cannot stack (or a Nameless): charge it
            elif found is not False:
                if self._holds_back(state, c, found):
                    send.append(p)  # it could stack, but it is not to (see _holds_back): charge it
                continue  # it can Grow or Focus now: keep it
            else:
                if groups is None:
                    groups = {}
                g = groups.get(nid[c])  # (not setdefault: compiled, it makes a list for every card)
                if g is None:
                    groups[nid[c]] = [p]
                else:
                    g.append(p)
        if groups:
            ap = self._plan_new_names(state, groups, send, ap)
        return send, ap

    def _plan_new_names(self, state: GameState, groups: dict[int, list[int]], send: list[int], ap: int) -> int:
        """Plan the cards of names not in play: deploy the cheapest card, stack the others on it
        (Growth is free and pays AP), keep what is deployable next turn, send the rest. Return
        the AP left for the turn's other uses."""
        t = state.t
        hand = state.hand
        level, cost, charge, rows = t.level, t.cost, t.charge, t.relation_rows
        occ = state.occupant
        spaces = 0
        for sp in t.board.perimeter:
            if occ[sp] is None:
                spaces += 1
        cz_free = state.command_zone is None
        order = self._group_order(hand, groups, cost) if len(groups) > 1 else list(groups.values())
        kept: list[list[int]] = []
        for g in order:
            base = g[0] if len(g) == 1 else self._cheapest(hand, g)
            bc = hand[base]
            price = cost[bc] + charge[bc]  # pay the cost and forgo its charge value
            if (spaces > 0 or (cz_free and level[bc] == 1)) and ap >= price:
                ap -= price
                if spaces > 0:
                    spaces -= 1
                else:
                    cz_free = False
                row = rows[bc]
                for p in g:
                    if p != base and not row[hand[p]]:
                        send.append(p)
            elif self.develop.deploy_first:
                kept.append(g)  # decided once every group that can deploy now has its AP
            else:
                ap, spaces = self._keep(hand, g, base, send, ap, spaces, False)
        for g in kept:
            base = g[0] if len(g) == 1 else self._cheapest(hand, g)
            ap, spaces = self._keep(hand, g, base, send, ap, spaces, True)
        return ap

    def _keep(self, hand: list[int], g: list[int], base: int, send: list[int], ap: int, spaces: int,
              guard_ap: bool) -> tuple[int, int]:
        """Keep group `g` (its card `base`) for next turn if it is deployable then ("used soon"), else
        send it; `guard_ap`: keep only if the AP this turn's deployments count on stays (sending it
        is what pays for them). Return the AP and spaces left."""
        t = self._tables
        assert t is not None
        bc = hand[base]
        cost, charge = t.cost[bc], t.charge[bc]
        if self.develop.keep_for_next_turn and spaces > 0 and cost <= ap + AP_CHARGE - charge \
                and (not guard_ap or ap >= charge):
            for p in g:
                if p != base:
                    send.append(p)
            return ap - charge, spaces - 1
        send.extend(g)
        return ap, spaces

    def _group_order(self, hand: list[int], groups: dict[int, list[int]], cost: tuple[int, ...]) -> list[list[int]]:
        """Order new-name groups: most cards first, then the lowest cost, then hand order."""
        # Keys packed in one int: a hand holds far fewer than 2**16 cards; costs are below 2**16.
        keys = []
        k = 0
        gs = list(groups.values())
        for g in gs:
            low = 1 << 16
            for p in g:
                v = cost[hand[p]]
                if v < low:
                    low = v
            keys.append(((1 << 16) - len(g)) << 32 | low << 16 | k)
            k += 1
        keys.sort()
        return [gs[k & 0xFFFF] for k in keys]

    def _cheapest(self, hand: list[int], g: list[int]) -> int:
        """Return the position in `g` of the lowest (level, cost) card, first in hand order on a tie."""
        level_cost = self._level_cost
        base, low = -1, 1 << 30
        for p in g:
            v = level_cost[hand[p]]
            if v < low:
                base, low = p, v
        return base

    def _hp_charge(self, state: GameState, ap: int) -> None:
        """T2b with AP to spare beyond the plan: the Commander (the ally the deck builds on) while
        it is below its max HP, else the ally missing the most HP."""
        cost = state.t.cost
        best = state.command_zone
        if best is None or best.hp >= cost[best.top]:
            best = state.neediest_ally()
            if best is None:
                return
        price = state.t.hp_charge_price[best.top]
        if ap >= price + HP_CHARGE_MIN and state.ap >= price:
            state.hp_charge(best)

    # ---- Main Phase --------------------------------------------------------------------------

    def main_phase(self, state: GameState) -> None:
        if self._tables is not state.t:
            self._prepare(state.t)
        while True:
            fresh = self._grow_and_focus(state)
            if fresh is None:
                continue  # an ability drew cards: look at them too
            if self._deploy_new_names(state, fresh):
                continue  # an ability drew cards: look at everything again
            # Ultimate: contract the highest-level familiar it can afford (U3).
            if self.develop.contracts and state.fam_hand and state.t.ultimate and self._contract(state):
                continue
            return

    def _grow_and_focus(self, state: GameState) -> list[int] | None:
        """Grow and Focus whenever possible (M2, M3), lowest level first so chains go up in order
        (each card is asked after the ones below it have stacked). Return the cards of names not
        in play, in level order, or None if an ability drew cards meanwhile."""
        level = state.t.level
        hand = state.hand
        cards = list(hand)  # the hand as it was: stacking takes cards out of it
        n = expected = len(cards)
        # Level order, ties in hand order, as one int per card (level * n + position): sorted
        # without a key function, which the compiled engine would call through Python per card.
        order = [0] * n  # (made whole, then filled: no append a card)
        for p in range(n):
            order[p] = level[cards[p]] * n + p
        order.sort()
        fresh: list[int] = []
        for k in order:
            c = cards[k % n]
            found = state.stack_target_or_name(c)
            if found is False:
                fresh.append(c)
            elif found is not True:  # an ally to stack onto
                if self._holds_back(state, c, found):
                    continue
                if self._deploys_instead(state, c, found):
                    fresh.append(c)  # deployed as an ally of its own (M1) with the new names
                    continue
                state.stack(hand.index(c), found)
                expected -= 1
        return fresh if len(hand) == expected else None

    def _holds_back(self, state: GameState, card: int, ally: Ally) -> bool:
        """Whether hand card `card`, which can Grow or Focus onto `ally`, is not to (the default
        policy's choice; this policy stacks whatever can)."""
        return False

    def _deploys_instead(self, state: GameState, card: int, ally: Ally) -> bool:
        """Whether hand card `card`, which can Focus onto the Nameless `ally`, is deployed as an ally
        of its own instead (the default policy's choice; this policy stacks whatever can)."""
        return False

    def _deploy_new_names(self, state: GameState, fresh: list[int]) -> bool:
        """Deploy the lowest-level card of the new name with the most cards in hand (Nameless
        last), while AP allows and there is room, then stack its namesakes on it (M1-M3).
        Return True if an ability drew cards meanwhile."""
        if not fresh:
            return False
        t = state.t
        hand = state.hand
        nid, kind, cost, rows = t.name_id, t.kind, t.cost, t.relation_rows
        deploy_key = self._deploy_key
        while fresh:
            ap = state.ap
            if len(fresh) == 1:
                best_c = fresh[0]
                if cost[best_c] > ap:
                    return False
            else:
                best_c, best_key = -1, 1 << 30
                for c in fresh:
                    if cost[c] <= ap:
                        name = nid[c]
                        same = 0
                        for d in fresh:
                            if nid[d] == name:
                                same += 1
                        key = deploy_key[c] | (15 - same) << 15
                        if key < best_key:
                            best_c, best_key = c, key
                if best_c < 0:
                    return False
            if state.name_in_play(best_c):
                fresh.remove(best_c)  # a Nameless took this name while growing (M1 Decision)
                continue
            dest = self._deploy_space(state, best_c)
            if dest is None:
                return False
            expected = len(hand) - 1
            ally = state.deploy(hand.index(best_c), dest)
            fresh.remove(best_c)
            if fresh and kind[best_c] != NAMELESS:
                name = nid[best_c]
                namesakes = [d for d in fresh if nid[d] == name]
                for d in namesakes:  # (in level order, as `fresh` is)
                    fresh.remove(d)
                    if ally.in_play and rows[ally.top][d]:
                        state.stack(hand.index(d), ally)
                    else:
                        expected += 1
                expected -= len(namesakes)
            if len(hand) != expected:
                return True
        return False

    def _deploy_space(self, state: GameState, card: int) -> int | None:
        """Where to deploy `card`: the empty Command Zone for a Level 1 card, else the first empty
        Perimeter space (board file order), else one freed by a Move if allowed; or None."""
        if state.command_zone is None and state.t.level[card] == 1:
            return COMMAND_ZONE
        dest = state.free_perimeter()
        if dest is None and self.develop.move_for_room:
            dest = _make_room(state, state.t.cost[card])
        return dest

    def _contract(self, state: GameState) -> bool:
        """Contract the highest-level familiar in hand it can afford to an ally that may hold it (U3)."""
        t = state.t
        fh = state.fam_hand
        for fp in sorted(range(len(fh)), key=lambda p: (-t.level[fh[p]], t.card_id[fh[p]])):
            f = fh[fp]
            if t.cost[f] > state.ap:
                continue
            for a in state.allies:
                if not a.released and not a.familiars and not a.defending and t.level[a.top] >= t.level[f]:
                    state.contract(fp, a)
                    return True
        return False


class ChargePolicy(DevelopPolicy):
    """Charge every card it cannot play this turn, then play like develop (no HP Charge)."""

    name = "charge"

    def __init__(self) -> None:
        super().__init__(DevelopSettings(keep_for_next_turn=False, hp_charge=False))
