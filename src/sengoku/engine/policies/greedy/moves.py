"""The default policy's Moves (M4) and Swaps (M5): walks into attack range, and the steps that open them.

A walk is the shortest run of Moves through empty spaces to a space from which the ally reaches
the opponent's Stronghold (K4), breadth first; the steps aside make room for another ally's
walk, for a deployment, or keep a defending opponent's Commander (G4) from joining.
"""

from __future__ import annotations

from sengoku.engine.ally import Ally
from sengoku.engine.errors import IllegalAction
from sengoku.engine.policies.greedy.known import Known
from sengoku.engine.policies.greedy.odds import best_attack
from sengoku.engine.policies.greedy.walks import free_mask, walk_length, walk_path
from sengoku.engine.state import GameState

def move_into_range(k: Known, state: GameState, now: bool) -> bool:
    """Move allies to free spaces in attack range, cheapest path first (M4); return True if one moved.

    `now`: allies that can attack this turn (else: every ally in Attack Stance, for
    next turn). One ally per call, the likeliest to hit first.
    """
    if state.ap < 1:
        return False
    # The ready allies are tried likeliest to hit first, ties in `allies`' order. The first ready
    # one is `first`; with two or more, `chances` holds each ally's hit chance, -1 if it is not
    # ready (a chance is 0 or more): no list is made, or sorted, for the usual one.
    ready = 0
    first = -1
    first_chance = 0.0
    chances: list[float] | None = None
    occ = state.occupant
    reaches = k.reaches
    allies = state.allies
    for n in range(len(allies)):
        a = allies[n]
        if a.defending or (now and a.entered == state.turn and not a.released):  # K4
            continue
        spots = k.spots[a.top]
        if not spots or (a.space >= 0 and reaches[a.top][a.space]):
            continue  # never in range, or in range already
        for s in spots:
            if occ[s] is None:
                break
        else:
            continue  # every space in range is taken
        chance = best_attack(k, state, a)[0]  # (at any hit chance, as every attack)
        ready += 1
        if first < 0:
            first, first_chance = n, chance
            continue
        if chances is None:
            chances = [-1.0] * len(allies)
            chances[first] = first_chance
        chances[n] = chance
    if not ready:
        return False
    free = free_mask(occ)
    board = state.t.board
    for _ in range(ready):
        n = first
        if chances is not None:
            n = 0
            for m in range(1, len(chances)):
                if chances[m] > chances[n]:
                    n = m
            chances[n] = -1.0  # (tried)
        a = allies[n]
        path = walk_path(k, board, a, k.spots[a.top], k.spot_mask[a.top], free, state.ap)
        if path:
            for d in path:
                try:
                    state.move(a, d)  # (checks the step: one lookup, not can_move and then move)
                except IllegalAction:
                    return d != path[0]
            return True
    return False


def make_ways(k: Known, state: GameState) -> None:
    """`step_ahead_for_walk`, before the attacks: open the way (`step_ahead_for_walk`) for each ally
    that can attack this turn but stands out of range, with a walk into it of 3 Moves or more, or
    none the AP pays for."""
    reaches = k.reaches
    turn = state.turn
    free = -1  # the free spaces, worked out when first needed and again after a step aside
    for a in state.allies:  # (steps aside move allies, never add or remove one: no copy of the list)
        if state.ap < 2:
            return  # (no step aside is paid for any more: the walks need not be looked at)
        if a.defending or (a.entered == turn and not a.released) or not k.spots[a.top]:
            continue
        if a.space >= 0 and reaches[a.top][a.space]:
            continue
        if free < 0:
            free = free_mask(state.occupant)
        walk = walk_length(k, a, k.spot_mask[a.top], free, state.ap)
        if (not walk or walk >= 3) and step_ahead_for_walk(k, state, a, walk, free):
            free = -1


def step_ahead_for_walk(k: Known, state: GameState, a: Ally, walk: int, free: int) -> bool:
    """When ally `a`'s walk into range is long (`walk` Moves, 0: none), step an ally in Attack Stance
    that stands in range one space (M4, 1 AP) to a free space from which it still reaches the
    Stronghold, if that shortens `a`'s walk by two Moves or more; return True if one stepped.
    `free`: the free spaces (`walks.free_mask` of the board)."""
    if state.ap < 2:
        return False
    goals = k.spot_mask[a.top]
    movers = in_range_but(k, state, a)
    best: Ally | None = None
    best_d = -1
    best_len = walk - 1 if walk else state.ap
    neighbours = state.t.board.neighbours
    reaches = k.reaches
    occ = state.occupant
    for b in movers:
        for d in neighbours[b.space]:
            if occ[d] is None and reaches[b.top][d]:
                # (a walk of best_len Moves or more would not be taken: none is looked for)
                n = walk_after_step(k, a, goals, free, b, d, min(state.ap - 1, best_len - 1))
                if n and n < best_len:
                    best, best_d, best_len = b, d, n
    if best is None:
        return k.settings.pair_steps_for_walk and step_pair_for_walk(k, state, a, walk, free, movers)
    state.move(best, best_d)
    return True


def walk_after_step(k: Known, a: Ally, goals: int, free: int, b: Ally, d: int, limit: int) -> int:
    """The Moves of ally `a`'s walk to one of `goals` (`walk_length` within `limit`; 0: none) through
    the `free` spaces with ally `b` stepped aside to space `d`."""
    return walk_length(k, a, goals, (free | 1 << b.space) & ~(1 << d), limit)


def in_range_but(k: Known, state: GameState, a: Ally) -> list[Ally]:
    """The allies other than `a` in Attack Stance on a space from which they reach the Stronghold."""
    reaches = k.reaches
    return [b for b in state.allies if b is not a and not b.defending and b.space >= 0 and reaches[b.top][b.space]]


def step_pair_for_walk(k: Known, state: GameState, a: Ally, walk: int, free: int, movers: list[Ally]) -> bool:
    """`pair_steps_for_walk`: step two allies in Attack Stance that stand in range one space each
    (M4, 2 AP) to free spaces from which they still reach the Stronghold, if that shortens ally
    `a`'s walk (`walk` Moves, 0: none) by three Moves or more; return True if they stepped.
    `movers`: those allies (`in_range_but`)."""
    if state.ap < 3 or len(movers) < 2:
        return False  # (fewer than two: no pair)
    goals = k.spot_mask[a.top]
    best: tuple[Ally, int, Ally, int] | None = None
    best_len = walk - 2 if walk else state.ap - 1
    neighbours = state.t.board.neighbours
    reaches = k.reaches
    occ = state.occupant
    for n in range(len(movers)):
        b = movers[n]
        for d in neighbours[b.space]:
            if occ[d] is not None or not reaches[b.top][d]:
                continue
            stepped = (free | 1 << b.space) & ~(1 << d)  # the free spaces once b stepped to d
            for c in movers[n + 1:]:
                for e in neighbours[c.space]:
                    if stepped >> e & 1 and reaches[c.top][e]:
                        # (a walk of best_len Moves or more would not be taken: none is looked for)
                        m = walk_after_step(k, a, goals, stepped, c, e, min(state.ap - 2, best_len - 1))
                        if m and m < best_len:
                            best, best_len = (b, d, c, e), m
    if best is None:
        return False
    state.move(best[0], best[1])
    state.move(best[2], best[3])
    return True


def step_ahead(k: Known, state: GameState, a: Ally) -> None:
    """`step_ahead`: move ally `a` off the Stronghold Perimeter to a free space still in range (M4,
    K4), other than the one a joining Commander would take (G4); the Perimeter space it frees may
    take a deployment (M1) in range."""
    if state.ap < 1:
        return
    board = state.t.board
    reaches = k.reaches[a.top]
    occ = state.occupant
    landing = landing_to_avoid(k, state)
    for d in board.neighbours[a.space]:
        if occ[d] is None and reaches[d] and not board.is_perimeter[d] and d != landing:
            state.move(a, d)
            return


def landing_to_avoid(k: Known, state: GameState) -> int:
    """The space a joining Commander would take (`commander_landing`) when it is to be left free:
    always, or with `landing_value` only when taking it sends the Commander somewhere worse for
    us (`landing_matters`); else -1."""
    landing = commander_landing(state)
    if k.settings.landing_value and landing >= 0 and not landing_matters(k, state, landing):
        return -1
    return landing


def commander_landing(state: GameState) -> int:
    """The space of ours a defending opponent's Commander would step onto when it joins (G4), or -1.

    Standing there sends it to the next space of its Perimeter, which may be one more of ours
    in range; left free, it takes this one."""
    if state.joining_commander() < 0:
        return -1
    for space in free_enemy_perimeter(state):
        if space >= 0:
            return space
    return -1


def free_enemy_perimeter(state: GameState) -> list[int]:
    """The spaces of the opponent's Stronghold Perimeter that neither our allies nor its own hold,
    in the order its joining Commander tries them (G4); a negative one is off our board."""
    occ = state.occupant
    free: list[int] = []
    for space in state.t.board.enemy_perimeter:
        if space >= 0 and occ[space] is not None:
            continue
        for e in state.opp_allies:
            if e.space == space:
                break
        else:
            free.append(space)
    return free


def landing_matters(k: Known, state: GameState, landing: int) -> bool:
    """Whether the space the Commander would take next, were `landing` ours, is one from which more
    of our deck's cards reach the Stronghold than from `landing`."""
    nxt = -1
    for space in free_enemy_perimeter(state):
        if space >= 0 and space != landing:
            nxt = space
            break
    if nxt < 0:
        return False  # the Commander could not join at all (G4)
    here = there = 0
    for r in k.reaches:
        here += r[landing]
        there += r[nxt]
    return there > here


def block_commander(k: Known, state: GameState) -> None:
    """`block_commander`: against a defending opponent whose Commander has not joined (G4), when at
    most `block_commander` spaces of its Stronghold Perimeter are free and all on our board, walk
    allies in Attack Stance onto each (M4), the cheapest walk first, each ally one from which it
    still reaches the Stronghold (K4), when the AP pays for every walk: with no free space left the
    Commander cannot join the Last Guard."""
    board = state.t.board
    occ = state.occupant
    free = free_enemy_perimeter(state)
    if not free or len(free) > k.settings.block_commander or min(free) < 0:
        return  # (a negative one: a free space none of ours can step onto)
    free_after = free_mask(occ)  # the free spaces as the planned walks leave them
    budget = state.ap
    plan: list[tuple[Ally, list[int]]] = []
    reaches = k.reaches
    for space in free:
        best: Ally | None = None
        best_path: list[int] = []
        for a in state.allies:
            if a.defending or a.space < 0 or not reaches[a.top][space] or a.space in board.enemy_perimeter:
                continue  # (on one of those spaces already, it blocks)
            taken = False
            for b, _ in plan:
                if b is a:
                    taken = True
                    break
            if taken:
                continue
            path = walk_path(k, board, a, (space,), 1 << space, free_after, budget)
            if path and (best is None or len(path) < len(best_path)):
                best, best_path = a, path
        if best is None:
            return  # not every space can be taken: no walk
        free_after = (free_after | 1 << best.space) & ~(1 << space)
        budget -= len(best_path)
        plan.append((best, best_path))
    for a, path in plan:
        for d in path:
            if state.occupant[d] is not None or state.ap < 1:
                return
            state.move(a, d)


def advance(k: Known, state: GameState) -> None:
    """With AP to spare, put allies that did not attack into range for next turn."""
    while move_into_range(k, state, False):
        pass
    if k.settings.swap_into_range:
        while swap_into_range(k, state, False):
            pass


def swap_into_range(k: Known, state: GameState, now: bool) -> bool:
    """`swap_into_range`: Swap (M5, 2 AP) two adjacent allies in Attack Stance when that puts more
    of the two on spaces from which they reach the Stronghold (K4); `now`: counting only allies
    that can attack this turn. Return True if two swapped."""
    if state.ap < 2:
        return False
    reaches = k.reaches
    turn = state.turn
    out = 0  # the spaces of the allies that count and stand out of range: a swap that helps moves one
    for a in state.allies:
        if a.in_play and not a.defending and a.space >= 0 and not reaches[a.top][a.space] \
                and (not now or a.entered != turn or a.released):
            out |= 1 << a.space
    if not out:
        return False
    board = state.t.board
    occ = state.occupant
    next_to = k.next_to
    for a in state.allies:
        if not a.in_play or a.defending or a.space < 0:
            continue
        if not (out >> a.space & 1 or next_to[a.space] & out):
            continue  # (neither it nor a neighbour is one of them: no swap of it helps)
        ra = reaches[a.top]
        for d in board.neighbours[a.space]:
            b = occ[d]
            if b is None or b.defending or type(b) is not Ally:  # (an Enemy: the joined Commander, G4)
                continue
            rb = reaches[b.top]
            before = after = 0
            if now:
                if a.entered != turn or a.released:
                    before += ra[a.space]
                    after += ra[d]
                if b.entered != turn or b.released:
                    before += rb[d]
                    after += rb[a.space]
            else:
                before = ra[a.space] + rb[d]
                after = ra[d] + rb[a.space]
            if after <= before:
                continue
            state.swap(a, b)
            return True
    return False
