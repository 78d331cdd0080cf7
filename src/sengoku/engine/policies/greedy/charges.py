"""The default policy's charges and abilities: the extra cards sent for AP Charge on the first turns
(T2a; a fixed rule, and one fitted to the search's rollouts, `charge_weights`), and the abilities
it uses (C5, A4).
"""

from __future__ import annotations

from typing import Final

from sengoku.engine.ally import Ally
from sengoku.engine.policies.greedy import charge_weights
from sengoku.engine.policies.greedy.known import Known
from sengoku.engine.state import GameState
from sengoku.engine.tables import NAMELESS, OP_DRAW, OP_HEAL, SUPPORT, DeckTables


def add_extra_charges(k: Known, state: GameState, send: list[int], ap: int) -> None:
    """In the first `extra_charge_turns` turns, add to the plan `send` (hand positions, with `ap`
    the AP it counts on) the extra cards to send: the fitted rule's choice (`fitted_charges`), or
    `extra_charge` of the kept cards, lowest level first."""
    s = k.settings
    if s.extra_charge > 0 and state.turn <= s.extra_charge_turns and len(send) < len(state.hand):
        # (the AP the plan counts on already holds every card's charge value)
        if s.fitted_charges:
            charge_fitted(k, state, send, ap)
        else:
            charge_extra(k, state, send)


# The features that depend on the card alone come first (`charge_weights.CARD_FEATURES`): their
# terms of a card's value are summed once per deck and setting (`card_terms`).
OWN_FEATURES: Final = 9


def positions(chosen: list[int]) -> int:
    """The hand positions `chosen` as a set (bit p: position p), asked per position without a search of the list."""
    out = 0
    for p in chosen:
        out |= 1 << p
    return out


def own_features(t: DeckTables, c: int) -> list[float]:
    """The first OWN_FEATURES features of card `c` (`charge_weights.CARD_FEATURES`): its own."""
    lv = t.level[c]
    return [1.0, float(lv == 1), float(lv == 2), float(lv == 3), float(lv == 4), float(t.charge[c]),
            t.cost[c] / 5.0, float(t.kind[c] == SUPPORT), float(t.kind[c] == NAMELESS)]


def hand_features(state: GameState, p: int, ap: int) -> tuple[bool, int, bool, bool, bool]:
    """What the rest of the features of hand position `p` read: whether the card can Grow or Focus
    now, its name's other copies in hand, whether it bears the Commander's name, whether it is the
    lowest level of its name in hand, and whether the AP the plan counts on (`ap`) pays for it."""
    t = state.t
    hand = state.hand
    nid, level = t.name_id, t.level
    c = hand[p]
    lv = level[c]
    same = 0
    lowest = True
    for q in range(len(hand)):
        d = hand[q]
        if q != p and nid[d] == nid[c]:
            same += 1
            if level[d] < lv:
                lowest = False
    cz = state.command_zone
    stacks = isinstance(state.stack_target_or_name(c), Ally)
    return stacks, same, cz is not None and nid[c] == nid[cz.top], lowest, t.cost[c] <= ap


def charge_features(state: GameState, send: list[int], ap: int) -> list[tuple[int, list[float]]]:
    """Each hand position the plan `send` keeps, with its features for the fitted rule
    (`charge_weights.CARD_FEATURES`, in that order); `ap` is the AP the plan counts on.

    The one definition of the features (with `own_features` and `hand_features`): the default
    policy and the script that fits the weights (benchmarks/fit_charges.py) both read them here."""
    t = state.t
    hand = state.hand
    kept = len(hand) - len(send)
    out: list[tuple[int, list[float]]] = []
    for p in range(len(hand)):
        if p in send:
            continue
        stacks, same, commander, lowest, affordable = hand_features(state, p, ap)
        out.append((p, own_features(t, hand[p]) + [
            float(stacks), float(min(same, 2)), float(commander), float(lowest), float(affordable),
            float(lowest and affordable and not stacks), ap / 10.0, kept / 5.0]))
    return out


def card_terms(k: Known, t: DeckTables, second: float, ultimate: float) -> tuple[list[float], list[float]]:
    """The charge rule's weights for this setting, each `w0 + second * w1 + ultimate * w2` as
    `fitted_value` weighs a feature, and per card of deck `t` the sum of its own features' terms in
    `fitted_value`'s order: worked out once per deck and setting (`Known.charge_terms`), the same
    floating-point sums as `fitted_value` over `charge_features`."""
    key = (2 if second else 0) + (1 if ultimate else 0)
    found = k.charge_terms.get(key)
    if found is not None:
        return found
    w0, w1, w2 = charge_weights.CARD
    weights = [w0[i] + second * w1[i] + ultimate * w2[i] for i in range(len(w0))]
    own: list[float] = []
    for c in range(t.n):
        x = own_features(t, c)
        v = 0.0
        for i in range(OWN_FEATURES):
            v += x[i] * weights[i]
        own.append(v)
    k.charge_terms[key] = (weights, own)
    return weights, own


def charge_values(k: Known, state: GameState, send: list[int], ap: int, second: float,
                  ultimate: float) -> list[tuple[float, int]]:
    """(value, hand position) of each card the plan `send` keeps: `fitted_value` of its
    `charge_features`, without making them (the same sums, term by term)."""
    hand = state.hand
    weights, own = card_terms(k, state.t, second, ultimate)
    kept = len(hand) - len(send)
    ap10 = ap / 10.0
    kept5 = kept / 5.0
    values: list[tuple[float, int]] = []
    sent = positions(send)
    w9, w10, w11, w12, w13, w14, w15, w16 = weights[9:17]  # (the hand's terms, read once)
    for p in range(len(hand)):
        if sent >> p & 1:
            continue
        stacks, same, commander, lowest, affordable = hand_features(state, p, ap)
        v = own[hand[p]]
        v += float(stacks) * w9
        v += float(min(same, 2)) * w10
        v += float(commander) * w11
        v += float(lowest) * w12
        v += float(affordable) * w13
        v += float(lowest and affordable and not stacks) * w14
        v += ap10 * w15
        v += kept5 * w16
        values.append((v, p))
    return values


def size_terms(k: Known, second: float, ultimate: float, defends: float) -> tuple[list[float], list[float]]:
    """The size term of sending n cards, per n, as charge_fitted sums it: the part of this setting
    (`SIZE[0] + second * SIZE[1] + ultimate * SIZE[2] + defends * SIZE[3]`, summed once per setting,
    `Known.size_terms`), and the weights of AP/10 (`SIZE[4]`), added last."""
    key = (4 if second else 0) + (2 if ultimate else 0) + (1 if defends else 0)
    found = k.size_terms.get(key)
    if found is None:
        s0, s1, s2, s3, s4 = charge_weights.SIZE
        found = ([s0[i] + second * s1[i] + ultimate * s2[i] + defends * s3[i] for i in range(len(s0))], list(s4))
        k.size_terms[key] = found
    return found


def charge_fitted(k: Known, state: GameState, send: list[int], ap: int) -> bool:
    """`fitted_charges`: add to `send` the extra cards the fitted rule chooses, when it expects them
    to win at least `fitted_margin` turns sooner than `charge_extra`'s, else `charge_extra`'s;
    return whether the fitted rule's were added."""
    second = 0.0 if state.going_first else 1.0
    ultimate = 1.0 if state.t.ultimate else 0.0
    defends = 1.0 if state.opp_defends else 0.0
    values = charge_values(k, state, send, ap, second, ultimate)
    values.sort()
    # The size term of sending n cards (n of 7 or more: the last), per n.
    setting, per_ap = size_terms(k, second, ultimate, defends)
    ap10 = ap / 10.0
    size = [setting[i] + ap10 * per_ap[i] for i in range(len(setting))]
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
        chosen = positions(extra)
        for v, p in values:
            if chosen >> p & 1:
                fixed += v
        fixed += size[min(len(extra), len(size)) - 1]
    if best > fixed - k.settings.fitted_margin:
        send.extend(extra)  # the fixed rule's cards, as `charge_extra` adds them
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
    sent = positions(send)
    for p, c in enumerate(hand):
        if not sent >> p & 1:
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
    acting = False  # an ally with an ability or a Contracted familiar (else no copy of the allies is made)
    for a in state.allies:
        if t.act[a.top] or a.familiars:
            acting = True
            break
    if acting:
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
