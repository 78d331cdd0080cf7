"""Policies (G2): they choose; the state checks every action they take against the rules.

A policy has two methods, `charge_phase(state)` and `main_phase(state)`, which act on the
state through its action methods (`charge_card`, `hp_charge`, `deploy`, `stack`, ...) and
return when they are done; the game loop then ends the phase. Chance comes only from
`state.rng`. The first line of each class docstring is what the CLI shows.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from mypy_extensions import mypyc_attr  # read by mypyc when the engine is compiled

from sengoku.engine.board import COMMAND_ZONE
from sengoku.engine.errors import EngineError
from sengoku.engine.state import (
    A_DEF,
    A_LIVE,
    AP_CHARGE,
    A_FAM,
    A_HP,
    A_REL,
    A_TOP,
    FAMILIAR_HAND_LIMIT,
    HAND_LIMIT,
    GameState,
)
from sengoku.engine.tables import HP_CHARGE_MIN, NAMELESS


@mypyc_attr(allow_interpreted_subclasses=True)  # others may write policies on top of these
class Policy:
    """Base class: never acts, except what the rules force (hand limits, T2a/U1)."""

    name = "base"

    def charge_phase(self, state: GameState) -> None:
        _forced_charges(state)

    def main_phase(self, state: GameState) -> None:
        pass

    def bind(self, state: GameState) -> tuple[Callable[[], None], Callable[[], None]]:
        """Return this game's (charge phase, main phase) as calls without arguments.

        The game loop asks once per game, so a policy may look up the state's zones and tables
        here instead of every turn; the default calls the two methods.
        """
        return partial(self.charge_phase, state), partial(self.main_phase, state)

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


def _forced_charges(state: GameState) -> None:
    """Send cards until the hand limits hold (T2a, U1): unstackable cards first, lowest charge value first."""
    hand = state.hand
    if len(hand) > HAND_LIMIT:
        charge = state.t.charge
        order = sorted(range(len(hand)),
                       key=lambda p: (state.stack_target(hand[p]) is not None, charge[hand[p]], p))
        state.charge_cards(order[: len(hand) - HAND_LIMIT])
    if len(state.fam_hand) > FAMILIAR_HAND_LIMIT:
        _forced_familiar_charge(state)


def _forced_familiar_charge(state: GameState) -> None:
    """Send familiars down to 3 (T2c, U1): the ones least able to contract; HP to the neediest ally."""
    t = state.t
    top_level = max((t.level[a[A_TOP]] for a in state.allies if not a[A_REL]), default=0)
    fh = state.fam_hand
    order = sorted(range(len(fh)), key=lambda p: (t.level[fh[p]] <= top_level, -t.level[fh[p]], p))
    positions = tuple(order[: len(fh) - FAMILIAR_HAND_LIMIT])
    target = None
    if state.allies:
        target = max(range(len(state.allies)),
                     key=lambda i: (t.cost[state.allies[i][A_TOP]] - state.allies[i][A_HP], -i))
    state.familiar_hp_charge(positions, target)


class IdlePolicy(Policy):
    """Never charge cards, never act: AP is exactly the start plus 10 per turn (a baseline)."""

    name = "idle"


@mypyc_attr(allow_interpreted_subclasses=True)
class RandomPolicy(Policy):
    """Pick uniformly among all legal actions, until ending the phase is picked (for testing)."""

    name = "random"

    def _run(self, state: GameState, end: str) -> None:
        choice = state.rng.choice
        while True:
            action = choice(state.legal_actions())
            if action[0] == end:
                return
            state.apply(action)

    def charge_phase(self, state: GameState) -> None:
        self._run(state, "end_charge_phase")

    def main_phase(self, state: GameState) -> None:
        self._run(state, "end_turn")


def _make_room(state: GameState, budget: int) -> int | None:
    """Move a Perimeter ally one step off the Perimeter to free a space (M4); return the space or None."""
    if state.ap < 1 + budget:
        return None
    board = state.t.board
    occ = state.occupant
    for s in board.perimeter:
        a = occ[s]
        if a is None or a[A_DEF]:
            continue
        # Prefer the step that goes furthest ahead (Frontline, then the Invasion Zone).
        for d in board.ahead_first[s]:
            if occ[d] is None and not board.is_perimeter[d]:
                state.move(a, d)
                return s
    return None


@mypyc_attr(allow_interpreted_subclasses=True)
class GreedyPolicy(Policy):
    """Develop the board as fast as AP allows: grow and focus whenever possible, deploy the cheapest
    card of each new name and stack its other cards on it, keep cards it can deploy next turn,
    HP-charge with AP to spare, charge the rest."""

    name = "greedy"
    keep_for_next_turn = True
    hp_charge = True
    move_for_room = True

    def charge_phase(self, state: GameState) -> None:
        self.bind(state)[0]()

    def main_phase(self, state: GameState) -> None:
        self.bind(state)[1]()

    def bind(self, state: GameState) -> tuple[Callable[[], None], Callable[[], None]]:
        # The game's tables, zones and action methods are looked up once per game (the zone
        # lists never change identity); the phases read AP, the Command Zone and the like live.
        t = state.t
        hand = state.hand
        fam_hand = state.fam_hand
        by_name = state.by_name
        nameless = state.nameless
        allies = state.allies
        occ = state.occupant
        perimeter = t.board.perimeter
        rows, nid, kind, level, cost, charge = t.hot
        hp_price = t.hp_charge_price
        deploy_key: tuple[int, ...] | None = t.policy_cache.get("greedy_deploy_key")
        if deploy_key is None:
            # Which new name to deploy first: Nameless last, then (with the count of its name's
            # cards in hand in bits 15-19) the lowest level, then the lowest cost.
            deploy_key = t.policy_cache["greedy_deploy_key"] = tuple(
                (kind[c] == NAMELESS) << 20 | level[c] << 10 | cost[c] for c in range(t.n))
        level_cost = t.policy_cache.get("greedy_level_cost")
        if level_cost is None:
            level_cost = t.policy_cache["greedy_level_cost"] = tuple(level[c] << 10 | cost[c] for c in range(t.n))
        stack, deploy, charge_cards, hp_charge = state.stack, state.deploy, state.charge_cards, state.hp_charge
        keep_for_next_turn, use_hp_charge, move_for_room = self.keep_for_next_turn, self.hp_charge, self.move_for_room
        ultimate = t.ultimate
        level_of = level.__getitem__
        contract = self._contract

        def charge_phase() -> None:
            top: int  # (typed for the compiled build: an ally's fields are Any)
            # Growth and Focus give back the card's charge value (M2/M3 Decision), exactly what
            # charging it would: every card that can stack now is kept, and the AP the turn can
            # count on is the current AP plus every hand card's charge value.
            ap = state.ap
            send = []
            groups: dict[int, list[int]] | None = None
            p = -1
            for c in hand:
                p += 1
                ap += charge[c]
                a = by_name[nid[c]]
                if a is not None:
                    top = a[A_TOP]
                    if not rows[top][c]:  # (no row under a Released familiar's top)
                        send.append(p)  # its name is in play and it cannot stack: charge it
                elif kind[c] == NAMELESS:
                    send.append(p)
                else:
                    for b in nameless:
                        top = b[A_TOP]
                        if rows[top][c]:
                            break  # it can Grow or Focus onto a Nameless ally: keep it
                    else:
                        if groups is None:
                            groups = {}
                        groups.setdefault(nid[c], []).append(p)
            if groups:
                # New names: deploy the cheapest card, stack the others on it (Growth is free and pays AP).
                spaces = 0
                for sp in perimeter:
                    if occ[sp] is None:
                        spaces += 1
                cz_free = state.command_zone is None
                if len(groups) == 1:
                    order = list(groups.values())
                else:
                    # Most cards first, then the lowest cost; the index keeps equal keys in order
                    # (a hand holds far fewer than 2**16 cards; costs are below 2**16).
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
                    order = [gs[k & 0xFFFF] for k in keys]
                for g in order:
                    if len(g) == 1:
                        base = g[0]
                    else:  # the lowest (level, cost), first in hand order on a tie
                        base, low = -1, 1 << 30
                        for p in g:
                            v = level_cost[hand[p]]
                            if v < low:
                                base, low = p, v
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
                    elif keep_for_next_turn and spaces > 0 and cost[bc] <= ap + AP_CHARGE - charge[bc]:
                        ap -= charge[bc]  # deployable next turn: "used soon", keep it
                        spaces -= 1
                        for p in g:
                            if p != base:
                                send.append(p)
                    else:
                        send.extend(g)
            if send:
                charge_cards(range(len(hand)) if len(send) == len(hand) else send)
            if len(hand) > HAND_LIMIT or fam_hand and len(fam_hand) > FAMILIAR_HAND_LIMIT:
                _forced_charges(state)
            if use_hp_charge and ap >= 2 * HP_CHARGE_MIN:
                # T2b with AP to spare beyond the plan: the Commander (the ally the deck builds
                # on) while it is below its max HP, else the ally missing the most HP.
                best = state.command_zone
                if best is None or best[A_HP] >= cost[best[A_TOP]]:
                    best, missing = None, 0
                    for a in allies:
                        m = cost[a[A_TOP]] - a[A_HP]
                        if m > missing:
                            best, missing = a, m
                    if best is None:
                        return
                price = hp_price[best[A_TOP]]
                if ap >= price + HP_CHARGE_MIN and state.ap >= price:
                    hp_charge(best)

        def main_phase() -> None:
            top: int  # (typed for the compiled build: an ally's fields are Any)
            while True:
                # 1. Grow and Focus whenever possible, lowest level first so chains go up in order
                #    (each card is asked after the ones below it have stacked); cards of names not
                #    in play wait for step 2.
                expected = len(hand)
                fresh: list[int] = []
                for c in sorted(hand, key=level_of):
                    a = by_name[nid[c]]
                    if a is not None:
                        top = a[A_TOP]
                        if rows[top][c]:  # (no row under a Released familiar's top)
                            stack(hand.index(c), a)
                            expected -= 1
                    elif kind[c] == NAMELESS:
                        fresh.append(c)
                    else:
                        for b in nameless:
                            top = b[A_TOP]
                            if rows[top][c]:
                                stack(hand.index(c), b)
                                expected -= 1
                                break
                        else:
                            fresh.append(c)
                if len(hand) != expected:
                    continue  # an ability drew cards: look at them too
                # 2. Deploy the lowest-level card of the new name with the most cards in hand
                #    (Nameless last), if AP allows and there is room; then stack its namesakes on it.
                drew = False
                while fresh:
                    ap = state.ap
                    if len(fresh) == 1:
                        best_c = fresh[0]
                        if cost[best_c] > ap:
                            break
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
                            break
                    if kind[best_c] != NAMELESS and by_name[nid[best_c]] is not None:
                        fresh.remove(best_c)  # a Nameless took this name in step 1 (M1 Decision)
                        continue
                    dest: int | None
                    if state.command_zone is None and level[best_c] == 1:
                        dest = COMMAND_ZONE
                    else:
                        for dest in perimeter:  # the first empty Perimeter space (board file order)
                            if occ[dest] is None:
                                break
                        else:
                            dest = _make_room(state, cost[best_c]) if move_for_room else None
                            if dest is None:
                                break
                    expected = len(hand) - 1
                    ally = deploy(hand.index(best_c), dest)
                    fresh.remove(best_c)
                    if fresh and kind[best_c] != NAMELESS:
                        name = nid[best_c]
                        namesakes = [d for d in fresh if nid[d] == name]
                        if namesakes:  # (in level order, as `fresh` is)
                            for d in namesakes:
                                fresh.remove(d)
                                if ally[A_LIVE] and rows[ally[A_TOP]][d]:
                                    stack(hand.index(d), ally)
                                else:
                                    expected += 1
                            expected -= len(namesakes)
                    if len(hand) != expected:
                        drew = True  # an ability drew cards: look at everything again
                        break
                if drew:
                    continue
                # 3. Ultimate: contract the highest-level familiar it can afford (U3).
                if fam_hand and ultimate and contract(state):
                    continue
                return

        return charge_phase, main_phase

    def _contract(self, state: GameState) -> bool:
        t = state.t
        fh = state.fam_hand
        for fp in sorted(range(len(fh)), key=lambda p: (-t.level[fh[p]], t.card_id[fh[p]])):
            f = fh[fp]
            if t.cost[f] > state.ap:
                continue
            for a in state.allies:
                if not a[A_REL] and not a[A_FAM] and not a[A_DEF] and t.level[a[A_TOP]] >= t.level[f]:
                    state.contract(fp, a)
                    return True
        return False


class ChargePolicy(GreedyPolicy):
    """Charge every card it cannot play this turn, then play like greedy (no HP Charge)."""

    name = "charge"
    keep_for_next_turn = False
    hp_charge = False


POLICIES: dict[str, type[Policy]] = {
    "greedy": GreedyPolicy,
    "charge": ChargePolicy,
    "random": RandomPolicy,
    "idle": IdlePolicy,
}


def make_policy(name: str = "greedy") -> Policy:
    """Return a new policy by name (see `POLICIES`)."""
    try:
        return POLICIES[name]()
    except KeyError:
        raise EngineError(f"unknown policy {name!r} (known: {', '.join(POLICIES)})") from None


def describe(name: str) -> str:
    """Return a policy's one-paragraph description (its docstring), for `--help` and the README."""
    doc = POLICIES[name].__doc__ or ""
    return " ".join(doc.split())

