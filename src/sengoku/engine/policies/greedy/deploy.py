"""The default policy's deployments (M1): on which space, and when a card is deployed rather than
stacked (M2, M3); with the turn-1 rule fitted to the search's rollouts (`focus_weights`) and the
features it weighs.
"""

from __future__ import annotations

from sengoku.engine.ally import Ally
from sengoku.engine.board import COMMAND_ZONE
from sengoku.engine.policies.greedy import focus_weights
from sengoku.engine.policies.greedy.fitted import combined_weights
from sengoku.engine.policies.greedy.known import Known
from sengoku.engine.policies.greedy.moves import landing_to_avoid
from sengoku.engine.policies.greedy.walks import around, free_mask
from sengoku.engine.state import GameState
from sengoku.engine.tables import NAMELESS


def deploy_space(k: Known, state: GameState, card: int) -> int | None:
    """Where to deploy `card`: a free Perimeter space in its attack range, else one in range freed by an ally stepping ahead
    (`step_ahead_for_room`), else the free Perimeter space fewest Moves from range (`walk_deploy`),
    else the one furthest ahead, else the empty Command Zone (Level 1); None: none of these."""
    s = k.settings
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
    goals = k.spot_mask[top]
    landing = landing_to_avoid(k, state) if state.opp_defends else -1
    free = free_mask(occ)
    if landing >= 0:
        free &= ~(1 << landing)
    next_to = k.next_to_bytes
    best, best_key = -1, 1 << 30
    for p in board.perimeter:
        if occ[p] is not None:
            continue
        layer = seen = 1 << p  # (a layer of spaces a Move, as the walks: `walks.around`)
        steps = 0
        found = False
        while layer and not found and steps < 6:
            steps += 1
            layer = around(next_to, layer) & free & ~seen
            found = (layer & goals) != 0
            seen |= layer
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
    return focus_value(k, state, card, ally) > s.focus_margin


def focus_or_deploy(k: Known, state: GameState, card: int, ally: Ally) -> int:
    """The choice `fitted_focus` weighs: when `card` could Focus onto the Nameless `ally` on the
    Battlefield, from whose space it would not reach the Stronghold, and the AP pays for
    deploying it onto a free Perimeter space from which it reaches, that space (the one
    furthest ahead); else -1."""
    t = state.t
    if t.kind[ally.top] != NAMELESS or ally.space < 0 or k.reaches[card][ally.space] or t.cost[card] > state.ap:
        return -1
    return free_spot(k, state, card)


def focus_counts(k: Known, state: GameState, card: int, ally: Ally) -> tuple[int, int, int]:
    """The counts both `focus_features` and `focus_value` read: cards of `card`'s name and a higher
    level in hand, free perimeter spaces `card` may be deployed on, and the other Nameless on the board."""
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
    return higher, free, others


def focus_features(k: Known, state: GameState, card: int, ally: Ally) -> list[float]:
    """The features of `focus_or_deploy`'s choice for the fitted rule (`focus_weights.FEATURES`, in
    that order): the one definition, read by the policy and by benchmarks/fit_focus.py."""
    t = state.t
    lv = t.level[card]
    nid = t.name_id
    higher, free, others = focus_counts(k, state, card, ally)
    cz = state.command_zone
    top = grown_top(state, card)
    return [1.0, float(lv == 1), float(lv == 2), float(lv == 3), float(lv == 4), t.cost[card] / 5.0,
            float(t.charge[card]), float(min(higher, 2)), float(others), state.ap / 10.0,
            0.0 if state.going_first else 1.0, 1.0 if t.ultimate else 0.0, 1.0 if state.opp_defends else 0.0,
            float(free), len(state.allies) / 5.0, k.plans[card][0][0], k.plans[top][0][0],
            float(cz is not None and nid[card] == nid[cz.top]), len(k.spots[card]) / 5.0,
            len(k.spots[ally.top]) / 5.0]


def focus_value(k: Known, state: GameState, card: int, ally: Ally) -> float:
    """The fitted rule's value of deploying `card` rather than Focusing it onto `ally`: `fitted_value`
    of `focus_features`, without making them (the same floating-point sums, term by term, with the
    weights of the setting combined once, `Known.focus_terms`; the ints made floats before they are
    divided, as dividing by a float does, which the compiled engine then divides natively)."""
    t = state.t
    second = 0.0 if state.going_first else 1.0
    ultimate = 1.0 if t.ultimate else 0.0
    key = (0 if state.going_first else 2) + (1 if t.ultimate else 0)
    w = k.focus_terms.get(key)
    if w is None:
        w = k.focus_terms[key] = combined_weights(focus_weights.FOCUS, second, ultimate)
    lv = t.level[card]
    nid = t.name_id
    higher, free, others = focus_counts(k, state, card, ally)
    cz = state.command_zone
    top = grown_top(state, card)
    v = 0.0
    v += 1.0 * w[0]
    v += float(lv == 1) * w[1]
    v += float(lv == 2) * w[2]
    v += float(lv == 3) * w[3]
    v += float(lv == 4) * w[4]
    v += float(t.cost[card]) / 5.0 * w[5]
    v += float(t.charge[card]) * w[6]
    v += float(min(higher, 2)) * w[7]
    v += float(others) * w[8]
    v += float(state.ap) / 10.0 * w[9]
    v += second * w[10]
    v += ultimate * w[11]
    v += (1.0 if state.opp_defends else 0.0) * w[12]
    v += float(free) * w[13]
    v += float(len(state.allies)) / 5.0 * w[14]
    v += k.plans[card][0][0] * w[15]
    v += k.plans[top][0][0] * w[16]
    v += float(cz is not None and nid[card] == nid[cz.top]) * w[17]
    v += float(len(k.spots[card])) / 5.0 * w[18]
    v += float(len(k.spots[ally.top])) / 5.0 * w[19]
    return v
