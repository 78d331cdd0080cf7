"""The default policy's deployments (M1): which card first, on which space, and when a card is
deployed rather than stacked (M2, M3); with the two turn-1 rules fitted to the search's rollouts
(`focus_weights`, `deploy_weights`) and the features they weigh.
"""

from __future__ import annotations

from sengoku.engine.ally import Ally
from sengoku.engine.board import COMMAND_ZONE
from sengoku.engine.policies.greedy import deploy_weights, focus_weights
from sengoku.engine.policies.greedy.fitted import fitted_value, setting_value
from sengoku.engine.policies.greedy.known import Known
from sengoku.engine.policies.greedy.moves import commander_landing, landing_to_avoid
from sengoku.engine.state import GameState
from sengoku.engine.tables import NAMELESS


def scarce_first_keys(k: Known, keys: tuple[int, ...]) -> tuple[int, ...]:
    """`scarce_first`: `develop`'s deployment order `keys` with the count of spaces in range in bits
    13-14, above the level (bits 10-12) and below the count of the name's cards in hand (bits
    15-19): 0 for two spaces in range (c2, c3), the fewest."""
    return tuple(key | min(3, max(0, len(k.spots[c]) - 2)) << 13 for c, key in enumerate(keys))


def deploy_space(k: Known, state: GameState, card: int) -> int | None:
    """Where to deploy `card`: on turn 1 the fitted rule's space (`fitted_deploy`), a free Perimeter
    space in its attack range, else one in range freed by an ally stepping ahead
    (`step_ahead_for_room`), else the free Perimeter space fewest Moves from range (`walk_deploy`),
    else the one furthest ahead, else the empty Command Zone (Level 1); None: none of these."""
    s = k.settings
    if s.fitted_deploy and state.turn == 1:
        fitted = fitted_space(k, state, card)
        if fitted is not None:
            return fitted
    own = space_in_range(k, state, card)
    if own >= 0:
        return own
    board = state.t.board
    occ = state.occupant
    free = -1
    if s.step_ahead_for_room:
        dest = step_ahead_for_room(k, state, card)
        if dest >= 0:
            return dest
    if s.walk_deploy:
        free = nearest_to_range(k, state, grown_top(state, card))
        if free >= 0:
            return free
    for p in board.perimeter:
        if occ[p] is None and (free < 0 or board.coords[p][0] > board.coords[free][0]):
            free = p
    if free >= 0:
        return free
    if state.command_zone is None and state.t.level[card] == 1:
        return COMMAND_ZONE
    return None


def space_in_range(k: Known, state: GameState, card: int) -> int:
    """The free Perimeter space greedy deploys `card` on when one is in range: where the card that
    tops it this turn reaches the Stronghold (`deploy_for_top`), else where the card itself does
    (furthest ahead first); else -1."""
    if k.settings.deploy_for_top:
        top = grown_top(state, card)
        if top != card:
            s = free_spot(k, state, top)
            if s >= 0:
                return s
    return free_spot(k, state, card)


def free_spot(k: Known, state: GameState, card: int) -> int:
    """The first free Perimeter space from which `card` reaches the Stronghold (`spots` order), or -1."""
    board = state.t.board
    occ = state.occupant
    for s in k.spots[card]:
        if board.is_perimeter[s] and occ[s] is None:
            return s
    return -1


def step_ahead_for_room(k: Known, state: GameState, card: int) -> int:
    """Free a Perimeter space from which `card` reaches the Stronghold (each is taken): move the ally
    in Attack Stance standing there one step ahead, off the Perimeter, to a free space from which
    it still reaches (M4), if the AP pays for the move and the deployment. Return the freed space,
    or -1."""
    t = state.t
    if state.ap < t.cost[card] + 1:
        return -1
    board = t.board
    occ = state.occupant
    reaches = k.reaches
    for s in k.spots[card]:
        a = occ[s]
        if a is None or not board.is_perimeter[s] or a.defending:
            continue
        for d in board.neighbours[s]:
            if occ[d] is None and not board.is_perimeter[d] and reaches[a.top][d]:
                state.move(a, d)
                return s
    return -1


def nearest_to_range(k: Known, state: GameState, top: int) -> int:
    """The free Perimeter space fewest Moves (M4, through empty spaces) from a free space where
    `top` reaches the Stronghold (ties: the one furthest ahead), or -1 if none leads there."""
    board = state.t.board
    occ = state.occupant
    reaches = k.reaches[top]
    landing = landing_to_avoid(k, state) if state.opp_defends else -1
    best, best_key = -1, 1 << 30
    for p in board.perimeter:
        if occ[p] is not None:
            continue
        seen = [False] * board.n_spaces
        seen[p] = True
        frontier = [p]
        steps = 0
        found = False
        while frontier and not found and steps < 6:
            steps += 1
            nxt = []
            for x in frontier:
                for d in board.neighbours[x]:
                    if not seen[d] and occ[d] is None and d != landing:
                        if reaches[d]:
                            found = True
                        seen[d] = True
                        nxt.append(d)
            frontier = nxt
        if found:
            key = steps << 8 | (3 - board.coords[p][0]) << 4
            if key < best_key:
                best, best_key = p, key
    return best


def grown_top(state: GameState, card: int) -> int:
    """The card an ally deployed as `card` will have on top this turn: the highest-level card of its
    name in hand, which grows onto it once it is deployed (M2, levels may be skipped)."""
    t = state.t
    if t.kind[card] == NAMELESS:
        return card
    nid, level = t.name_id, t.level
    top = card
    for c in state.hand:
        if nid[c] == nid[card] and level[c] > level[top] and t.kind[c] != NAMELESS:
            top = c
    return top


def holds_back(k: Known, state: GameState, card: int, ally: Ally) -> bool:
    """`keep_commander_name`: whether stacking `card` onto `ally` would make a Nameless a namesake
    of the Commander waiting in the Command Zone."""
    if not k.settings.keep_commander_name:
        return False
    cz = state.command_zone
    if cz is None or ally is cz:
        return False
    t = state.t
    return t.kind[ally.top] == NAMELESS and t.name_id[card] == t.name_id[cz.top]


# ---- turn 1: Focus or deployment, fitted (`fitted_focus`) ----------------------------------------

def deploys_instead(k: Known, state: GameState, card: int, ally: Ally) -> bool:
    """`fitted_focus`: on turn 1, deploy `card` rather than Focus it onto `ally` when the fitted
    rule values that above `focus_margin`."""
    s = k.settings
    if not s.fitted_focus or state.turn != 1 or focus_or_deploy(k, state, card, ally) < 0:
        return False
    second = 0.0 if state.going_first else 1.0
    ultimate = 1.0 if state.t.ultimate else 0.0
    return fitted_value(focus_features(k, state, card, ally), focus_weights.FOCUS, second, ultimate) \
        > s.focus_margin


def focus_or_deploy(k: Known, state: GameState, card: int, ally: Ally) -> int:
    """The choice `fitted_focus` weighs: when `card` could Focus onto the Nameless `ally` on the
    Battlefield, from whose space it would not reach the Stronghold, and the AP pays for
    deploying it onto a free Perimeter space from which it reaches, that space (the one
    furthest ahead); else -1."""
    t = state.t
    if t.kind[ally.top] != NAMELESS or ally.space < 0 or k.reaches[card][ally.space] or t.cost[card] > state.ap:
        return -1
    return free_spot(k, state, card)


def focus_features(k: Known, state: GameState, card: int, ally: Ally) -> list[float]:
    """The features of `focus_or_deploy`'s choice for the fitted rule (`focus_weights.FEATURES`, in
    that order): the one definition, read by the policy and by benchmarks/fit_focus.py."""
    t = state.t
    lv = t.level[card]
    nid = t.name_id
    higher = 0
    for d in state.hand:
        if nid[d] == nid[card] and t.level[d] > lv:
            higher += 1
    board = t.board
    occ = state.occupant
    free = 0
    for s in k.spots[card]:
        if board.is_perimeter[s] and occ[s] is None:
            free += 1
    others = 0
    for a in state.nameless:
        if a is not ally and a.space >= 0:
            others += 1
    cz = state.command_zone
    top = grown_top(state, card)
    return [1.0, float(lv == 1), float(lv == 2), float(lv == 3), float(lv == 4), t.cost[card] / 5.0,
            float(t.charge[card]), float(min(higher, 2)), float(others), state.ap / 10.0,
            0.0 if state.going_first else 1.0, 1.0 if t.ultimate else 0.0, 1.0 if state.opp_defends else 0.0,
            float(free), len(state.allies) / 5.0, k.plans[card][0][0], k.plans[top][0][0],
            float(cz is not None and nid[card] == nid[cz.top]), len(k.spots[card]) / 5.0,
            len(k.spots[ally.top]) / 5.0]


# ---- turn 1: the deployment space, fitted (`fitted_deploy`) --------------------------------------

def fitted_space(k: Known, state: GameState, card: int) -> int | None:
    """`fitted_deploy`: on turn 1, the space of `deploy_spaces` the fitted rule values highest when
    it beats greedy's own by more than `deploy_margin`; else None (greedy's choice stands)."""
    spaces = deploy_spaces(k, state, card)
    if len(spaces) < 2:
        return None
    factors = [1.0, 0.0 if state.going_first else 1.0, 1.0 if state.t.ultimate else 0.0,
               1.0 if state.opp_defends else 0.0]
    weights = deploy_weights.DEPLOY
    own = setting_value(deploy_features(k, state, card, spaces[0]), weights, factors)
    best, best_value = None, own + k.settings.deploy_margin
    for s in spaces[1:]:
        v = setting_value(deploy_features(k, state, card, s), weights, factors)
        if v > best_value:
            best, best_value = s, v
    return best


def deploy_spaces(k: Known, state: GameState, card: int) -> list[int]:
    """The choice `fitted_deploy` weighs: greedy's own space for `card` first, when it is a free
    Perimeter space from which the card (or the one that tops it this turn) reaches the
    Stronghold, then every other free Perimeter space (M1); an empty list when greedy's space
    is not such a space. (The empty Command Zone is no candidate: see docs/policies.md.)"""
    own = space_in_range(k, state, card)
    if own < 0:
        return []
    occ = state.occupant
    out = [own]
    for s in state.t.board.perimeter:
        if s != own and occ[s] is None:
            out.append(s)
    return out


def moves_to_range(k: Known, state: GameState, top: int, space: int) -> int:
    """Moves (M4, through empty spaces) from `space` to a space from which `top` reaches the
    Stronghold; at most 4."""
    reaches = k.reaches[top]
    if reaches[space]:
        return 0
    board = state.t.board
    occ = state.occupant
    seen = [False] * board.n_spaces
    seen[space] = True
    frontier = [space]
    steps = 0
    while frontier and steps < 4:
        for s in frontier:
            if reaches[s]:
                return steps
        steps += 1
        nxt = []
        for x in frontier:
            for d in board.neighbours[x]:
                if not seen[d] and occ[d] is None:
                    seen[d] = True
                    nxt.append(d)
        frontier = nxt
    return 4


def deploy_features(k: Known, state: GameState, card: int, space: int) -> list[float]:
    """The features of deploying `card` on the Perimeter space `space` (one of `deploy_spaces`) for
    the fitted rule (`deploy_weights.FEATURES`, in that order): the one definition, read by the
    policy and by benchmarks/fit_deploy.py."""
    t = state.t
    board = t.board
    occ = state.occupant
    top = grown_top(state, card)
    reach_top = k.reaches[top][space]
    moves = moves_to_range(k, state, top, space)
    nid = t.name_id
    wanted = only = 0  # other new names in hand in range from `space` (and with no other free one)
    for d in state.hand:
        if nid[d] == nid[card] or state.stack_target_or_name(d) is not False:
            continue
        if k.reaches[d][space]:
            wanted += 1
            free = 0
            for s in k.spots[d]:
                if board.is_perimeter[s] and occ[s] is None:
                    free += 1
            if free == 1:
                only += 1
    commander = state.command_zone
    landing = commander_landing(state) if state.opp_defends else -1
    room = next_to_landing = 0
    for d in board.neighbours[space]:
        if occ[d] is None:
            room += 1
        if d == landing:
            next_to_landing = 1
    column = board.coords[space][1] - board.board.stronghold[1]
    return [float(reach_top), float(k.reaches[card][space]), moves / 4.0,
            float(board.coords[space][0] == 0), k.demand[space], min(wanted, 3) / 3.0, min(only, 2) / 2.0,
            float(commander is not None and k.reaches[commander.top][space]),
            reach_top * t.level[top] / 4.0, moves * (state.ap - t.cost[card]) / 40.0,
            float(column < 0), float(column > 0), room / 4.0, float(next_to_landing)]
