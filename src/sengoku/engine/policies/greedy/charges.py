"""The default policy's charges and abilities: the extra cards sent for AP Charge on the first turns
(T2a; a fixed rule, and one fitted to the search's rollouts, `charge_weights`), and the abilities
it uses (C5, A4).
"""

from __future__ import annotations

from sengoku.engine.ally import Ally
from sengoku.engine.policies.greedy import charge_weights
from sengoku.engine.policies.greedy.fitted import fitted_value
from sengoku.engine.policies.greedy.known import Known
from sengoku.engine.state import GameState
from sengoku.engine.tables import NAMELESS, OP_DRAW, OP_HEAL, SUPPORT


def add_extra_charges(k: Known, state: GameState, send: list[int], ap: int) -> None:
    """In the first `extra_charge_turns` turns, add to the plan `send` (hand positions, with `ap`
    the AP it counts on) the extra cards to send: the fitted rule's choice (`fitted_charges`), or
    `extra_charge` of the kept cards, lowest level first."""
    s = k.settings
    if s.extra_charge > 0 and state.turn <= s.extra_charge_turns and len(send) < len(state.hand):
        # (the AP the plan counts on already holds every card's charge value)
        if not (s.fitted_charges and charge_fitted(k, state, send, ap)):
            charge_extra(k, state, send)


def charge_features(state: GameState, send: list[int], ap: int) -> list[tuple[int, list[float]]]:
    """Each hand position the plan `send` keeps, with its features for the fitted rule
    (`charge_weights.CARD_FEATURES`, in that order); `ap` is the AP the plan counts on.

    The one definition of the features: the default policy and the script that fits the
    weights (benchmarks/fit_charges.py) both read them here."""
    t = state.t
    hand = state.hand
    nid, level = t.name_id, t.level
    cz = state.command_zone
    cz_name = -1 if cz is None else nid[cz.top]
    kept = len(hand) - len(send)
    out: list[tuple[int, list[float]]] = []
    for p, c in enumerate(hand):
        if p in send:
            continue
        lv = level[c]
        same = 0
        lowest = True
        for q, d in enumerate(hand):
            if q != p and nid[d] == nid[c]:
                same += 1
                if level[d] < lv:
                    lowest = False
        stacks = isinstance(state.stack_target_or_name(c), Ally)
        affordable = t.cost[c] <= ap
        out.append((p, [1.0, float(lv == 1), float(lv == 2), float(lv == 3), float(lv == 4),
                        float(t.charge[c]), t.cost[c] / 5.0, float(t.kind[c] == SUPPORT),
                        float(t.kind[c] == NAMELESS), float(stacks), float(min(same, 2)),
                        float(nid[c] == cz_name), float(lowest), float(affordable),
                        float(lowest and affordable and not stacks), ap / 10.0, kept / 5.0]))
    return out


def charge_fitted(k: Known, state: GameState, send: list[int], ap: int) -> bool:
    """`fitted_charges`: add to `send` the extra cards the fitted rule chooses, when it expects them
    to win at least `fitted_margin` turns sooner than `charge_extra`'s; return whether it did."""
    second = 0.0 if state.going_first else 1.0
    ultimate = 1.0 if state.t.ultimate else 0.0
    defends = 1.0 if state.opp_defends else 0.0
    values: list[tuple[float, int]] = []
    for p, x in charge_features(state, send, ap):
        values.append((fitted_value(x, charge_weights.CARD, second, ultimate), p))
    values.sort()
    # The size term of sending n cards (n of 7 or more: the last), per n.
    s0, s1, s2, s3, s4 = charge_weights.SIZE
    ap10 = ap / 10.0
    size = [s0[i] + second * s1[i] + ultimate * s2[i] + defends * s3[i] + ap10 * s4[i] for i in range(len(s0))]
    best, count, total = 0.0, 0, 0.0  # sending none: 0 by definition
    for n in range(1, len(values) + 1):
        total += values[n - 1][0]
        v = total + size[min(n, len(size)) - 1]
        if v < best:
            best, count = v, n
    # The fixed rule's choice, valued the same way.
    usual = list(send)
    charge_extra(k, state, usual)
    extra = usual[len(send):]
    fixed = 0.0
    if extra:
        for v, p in values:
            if p in extra:
                fixed += v
        fixed += size[min(len(extra), len(size)) - 1]
    if best > fixed - k.settings.fitted_margin:
        return False
    for _, p in values[:count]:
        send.append(p)
    return True


def charge_extra(k: Known, state: GameState, send: list[int]) -> None:
    """Add to `send` up to `extra_charge` of the hand positions it does not hold: lowest level
    first, then the highest charge value, then hand order."""
    t = state.t
    level, charge = t.level, t.charge
    hand = state.hand
    keys = []  # level, then charge value (high first), then position, packed in one int
    for p, c in enumerate(hand):
        if p not in send:
            keys.append(level[c] << 24 | (255 - charge[c]) << 16 | p)
    keys.sort()
    for key in keys[: k.settings.extra_charge]:
        send.append(key & 0xFFFF)


# ---- abilities ---------------------------------------------------------------------------------

def use_abilities(k: Known, state: GameState) -> bool:
    """Use the allies', their Contracted familiars' and the hand's runnable abilities that help
    (draw, gain AP, heal the hurt; a familiar row that changes something), last in the turn (a
    Stance change then costs nothing: T1 resets it); return True if cards were drawn."""
    t = state.t
    drawn = False
    hand = state.hand
    for a in list(state.allies):
        for n, act in enumerate(t.act[a.top]):
            if state.can_use_ability(a, n) is None and helps(state, a, act[2]):
                before = len(hand)
                state.use_ability(a, n)
                drawn = drawn or len(hand) > before
    for a in list(state.allies):  # A4: a holder in Defense Stance (it attacked) activates its familiar
        if k.settings.familiar_abilities and a.familiars and state.can_use_familiar_ability(a) is None \
                and familiar_helps(state, a):
            before = len(hand)
            state.use_familiar_ability(a)
            drawn = drawn or len(hand) > before
    p = 0
    while p < len(hand):
        used = False
        for n, act in enumerate(t.hand_act[hand[p]]):
            if state.stack_target(hand[p]) is None and state.can_use_hand_ability(p, n) is None \
                    and helps(state, None, act[2]):
                state.use_hand_ability(p, n)
                drawn = used = True
                break
        if not used:
            p += 1
    return drawn


def draw_first(state: GameState) -> None:
    """`draw_first_turns`: use the hand's abilities that draw cards (C5), first card first, while the
    AP pays for them (each use is checked; a copy's ability once, A1)."""
    t = state.t
    hand = state.hand
    p = 0
    while p < len(hand):
        used = False
        for n, act in enumerate(t.hand_act[hand[p]]):
            if draws(act[2]) and state.can_use_hand_ability(p, n) is None:
                state.use_hand_ability(p, n)
                used = True
                break
        p = 0 if used else p + 1


def draws(effects: tuple[tuple[int, int, int], ...]) -> bool:
    """Whether an ability's effects (C5) draw cards."""
    for op, _, _ in effects:
        if op == OP_DRAW:
            return True
    return False


def familiar_helps(state: GameState, a: Ally) -> bool:
    """Whether some row of ally `a`'s Contracted familiar's ability would change something now (A4)."""
    for row in state.t.contracted_rows[a.familiars[-1]]:
        if state.familiar_row_gain(a, row) > 0:
            return True
    return False


def helps(state: GameState, a: Ally | None, effects: tuple[tuple[int, int, int], ...]) -> bool:
    """Whether an ability's effects do something now: a draw or AP always, a heal on a hurt ally."""
    for op, _, _ in effects:
        if op != OP_HEAL:  # a draw or AP
            return True
    if a is not None:
        return a.hp < state.t.cost[a.top]
    return state.neediest_ally() is not None
