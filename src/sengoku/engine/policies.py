"""Policies (G2): they choose; the state checks every action they take against the rules.

A policy has two methods, `charge_phase(state)` and `main_phase(state)`, which act on the
state through its action methods (`charge_card`, `hp_charge`, `deploy`, `stack`, ...) and
return when they are done; the game loop then ends the phase. Chance comes only from
`state.rng`. The first line of each class docstring is what the CLI shows.
"""

from __future__ import annotations

from sengoku.engine.board import COMMAND_ZONE
from sengoku.engine.errors import EngineError
from sengoku.engine.state import (
    A_DEF,
    A_FAM,
    A_HP,
    A_REL,
    A_TOP,
    FAMILIAR_HAND_LIMIT,
    HAND_LIMIT,
    HP_CHARGE_MIN,
    GameState,
)
from sengoku.engine.tables import NAMELESS, NO_STACK


class Policy:
    """Base class: never acts, except what the rules force (hand limits, T2a/U1)."""

    name = "base"

    def charge_phase(self, state: GameState) -> None:
        _forced_charges(state)

    def main_phase(self, state: GameState) -> None:
        pass

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


def _forced_charges(state: GameState, keep: list[bool] | None = None) -> None:
    """Send cards until the hand limits hold (T2a, U1): lowest charge value first among cards not kept."""
    t = state.t
    hand = state.hand
    while len(hand) > HAND_LIMIT:
        order = sorted(range(len(hand)), key=lambda p: (bool(keep and p < len(keep) and keep[p]), t.charge[hand[p]]))
        p = order[0]
        if keep is not None and p < len(keep):
            keep.pop(p)
        state.charge_card(p)
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


def _stack_targets(state: GameState, c: int) -> int:
    """Return the number of the first ally hand card `c` can Grow or Focus onto, or -1 (M2, M3)."""
    t = state.t
    rel, n, kind, in_play, nid = t.relation, t.n, t.kind, state.in_play, t.name_id[c]
    for i, a in enumerate(state.allies):
        if a[A_REL]:
            continue
        top = a[A_TOP]
        if rel[top * n + c] != NO_STACK and (kind[top] != NAMELESS or not in_play[nid]):
            return i
    return -1


def _free_perimeter(state: GameState) -> int | None:
    """Return a free Stronghold Perimeter space, or None."""
    occ = state.occupant
    for s in state.t.board.perimeter:
        if occ[s] is None:
            return s
    return None


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
        for d in sorted(board.neighbours[s], key=lambda d: -board.coords[d][0]):
            if occ[d] is None and not board.is_perimeter[d]:
                state.move(state.allies.index(a), d)
                return s
    return None


class GreedyPolicy(Policy):
    """Develop the board as fast as AP allows: grow and focus whenever possible, deploy the cheapest
    card of each new name and stack its other cards on it, charge the cards it cannot use soon."""

    name = "greedy"
    keep_for_next_turn = True
    hp_charge = True
    move_for_room = True

    def _plan(self, state: GameState) -> tuple[list[bool], int]:
        """Mark the hand cards worth keeping this turn; return the marks and the AP left after the plan."""
        t = state.t
        hand = state.hand
        n_hand = len(hand)
        keep = [False] * n_hand
        charge, cost, kind, nid, level = t.charge, t.cost, t.kind, t.name_id, t.level
        # Growth and Focus give back the card's charge value (M2/M3 Decision), exactly what
        # charging it would: every card that can stack now is kept.
        ap = state.ap
        groups: dict[int, list[int]] = {}
        for p in range(n_hand):
            c = hand[p]
            if _stack_targets(state, c) >= 0:
                keep[p] = True
            elif kind[c] != NAMELESS and not state.in_play[nid[c]]:
                groups.setdefault(nid[c], []).append(p)
        ap += sum(charge[c] for c in hand)
        spaces = sum(1 for s in t.board.perimeter if state.occupant[s] is None)
        cz_free = state.command_zone is None
        # New names: deploy the cheapest card, stack the others on it (Growth is free and pays AP).
        order = sorted(groups.values(), key=lambda g: (-len(g), min(cost[hand[p]] for p in g)))
        later: list[int] = []
        for g in order:
            base = min(g, key=lambda p: (level[hand[p]], cost[hand[p]]))
            b = hand[base]
            price = cost[b] + charge[b]  # pay the cost and forgo its charge value
            room = spaces > 0 or (cz_free and level[b] == 1)
            if room and ap >= price:
                ap -= price
                if spaces > 0:
                    spaces -= 1
                else:
                    cz_free = False
                for p in g:
                    if p == base or t.relation[b * t.n + hand[p]] != NO_STACK:
                        keep[p] = True
            else:
                later.append(base)
        if self.keep_for_next_turn:
            for base in later:  # cards it can deploy next turn are "used soon"
                if spaces > 0 and cost[hand[base]] <= ap + 10 - charge[hand[base]]:
                    keep[base] = True
                    ap -= charge[hand[base]]
                    spaces -= 1
        return keep, ap

    def charge_phase(self, state: GameState) -> None:
        keep, left = self._plan(state)
        t = state.t
        p = len(keep) - 1
        while p >= 0:  # send from the back so positions stay valid
            if not keep[p]:
                state.charge_card(p)
                keep.pop(p)
            p -= 1
        _forced_charges(state, keep)
        if self.hp_charge and state.allies:
            # T2b with AP to spare beyond the plan: the ally missing the most HP.
            cost = t.cost
            i = max(range(len(state.allies)),
                    key=lambda k: (cost[state.allies[k][A_TOP]] - state.allies[k][A_HP], -k))
            a = state.allies[i]
            price = max(HP_CHARGE_MIN, cost[a[A_TOP]])
            if a[A_HP] < cost[a[A_TOP]] and left >= price + HP_CHARGE_MIN and state.ap >= price:
                state.hp_charge(i)

    def main_phase(self, state: GameState) -> None:
        t = state.t
        hand = state.hand
        cost, kind, nid, level = t.cost, t.kind, t.name_id, t.level
        while True:
            # 1. Grow and Focus whenever possible, lowest level first so chains go up in order.
            done = False
            for p in sorted(range(len(hand)), key=lambda p: level[hand[p]]):
                i = _stack_targets(state, hand[p])
                if i >= 0:
                    state.stack(p, i)
                    done = True
                    break
            if done:
                continue
            # 2. Deploy the cheapest card of the new name with the most cards in hand.
            groups: dict[int, list[int]] = {}
            for p, c in enumerate(hand):
                if kind[c] == NAMELESS or not state.in_play[nid[c]]:
                    groups.setdefault(-1 - p if kind[c] == NAMELESS else nid[c], []).append(p)
            best = None
            for g in groups.values():
                base = min(g, key=lambda p: (level[hand[p]], cost[hand[p]]))
                if cost[hand[base]] <= state.ap:
                    key = (kind[hand[base]] == NAMELESS, -len(g), cost[hand[base]])
                    if best is None or key < best[0]:
                        best = (key, base)
            if best is not None:
                base = best[1]
                c = hand[base]
                dest: int | None
                if state.command_zone is None and level[c] == 1:
                    dest = COMMAND_ZONE
                else:
                    dest = _free_perimeter(state)
                    if dest is None and self.move_for_room:
                        dest = _make_room(state, cost[c])
                if dest is not None:
                    state.deploy(base, dest)
                    continue
            # 3. Ultimate: contract the highest-level familiar it can afford (U3).
            if t.ultimate and state.fam_hand and self._contract(state):
                continue
            return

    def _contract(self, state: GameState) -> bool:
        t = state.t
        fh = state.fam_hand
        for fp in sorted(range(len(fh)), key=lambda p: (-t.level[fh[p]], t.card_id[fh[p]])):
            f = fh[fp]
            if t.cost[f] > state.ap:
                continue
            for i, a in enumerate(state.allies):
                if not a[A_REL] and not a[A_FAM] and not a[A_DEF] and t.level[a[A_TOP]] >= t.level[f]:
                    state.contract(fp, i)
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

