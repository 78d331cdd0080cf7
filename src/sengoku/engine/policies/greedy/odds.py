"""The default policy's odds and risk: how likely an attack is to beat the Last Guard, and to lose the attacker.

What it knows of the Last Guard (K4) is what a player knows: the opponent's deck list (by default
a mirror of ours). Per deck it works out, for every attack power, the chance that a random card of
the opponent's Stronghold has no higher ATK (or MAT): the chance an attack of that kind hits.
Against a defending opponent (G4) those chances also count the self-boosts its hand can pay and,
until it has joined a combat, its Commander.
"""

from __future__ import annotations

from math import comb

from sengoku.engine.ally import Ally
from sengoku.engine.constants import HAND_LIMIT
from sengoku.engine.policies.greedy.known import Known
from sengoku.engine.state import GameState
from sengoku.engine.tables import NAMELESS, DeckTables


def hit_chances(powers: list[int]) -> tuple[float, ...]:
    """Return, for each attack power p from 0 up, the chance that a Last Guard drawn at random from
    cards of these `powers` is not higher than p (K4: higher or equal takes 1 Stronghold HP)."""
    n = len(powers)
    top = max(powers, default=0)
    if n == 0:
        return (1.0,)
    out = []
    for p in range(top + 1):
        out.append(sum(1 for g in powers if g <= p) / n)
    return tuple(out)


def defended_hit_chances(ot: DeckTables, cards: list[int], magic: bool) -> tuple[float, ...]:
    """`hit_chances` against a defending opponent (G4) whose hand pays its Last Guard's self-boosts.

    The guard is a random card of `cards` (its Stronghold); its hand holds HAND_LIMIT of the others
    (S6), so the count of the guard's namesakes there is hypergeometric. It boosts (K2, one namesake
    each, Nameless excepted) while the attack would still win; the attack hits when its power is at
    least the guard's power after every boost the hand can pay.
    """
    n = len(cards)
    if n == 0:
        return (1.0,)
    others = n - 1
    drawn = min(HAND_LIMIT, others)
    ways = comb(others, drawn)
    by_name: dict[int, int] = {}
    for c in cards:
        if ot.kind[c] != NAMELESS:
            by_name[ot.name_id[c]] = by_name.get(ot.name_id[c], 0) + 1
    needs: list[tuple[float, int]] = []  # (chance, power the attack needs), over guard and hand
    for c in cards:
        base = ot.mat[c] if magic else ot.atk[c]
        values = ot.boost_mat[c] if magic else ot.boost_atk[c]
        namesakes = by_name.get(ot.name_id[c], 1) - 1 if ot.kind[c] != NAMELESS else 0
        power = base
        for k in range(min(len(values), drawn) + 1):
            if k:
                power += values[k - 1]
            if k < len(values) and k < drawn:  # exactly k namesakes in hand
                p = comb(namesakes, k) * comb(others - namesakes, drawn - k) / ways
            else:  # k or more: every boost paid
                p = 1.0 - sum(comb(namesakes, j) * comb(others - namesakes, drawn - j) for j in range(k)) / ways
            if p > 0:
                needs.append((p / n, power))
    top = max(power for _, power in needs)
    out = []
    for q in range(top + 1):
        total = 0.0
        for p, power in needs:
            if power <= q:
                total += p
        out.append(min(total, 1.0))
    return tuple(out)


def chance(table: tuple[float, ...], power: int) -> float:
    """Return the hit chance of `power` from a `hit_chances` table (1 beyond its end)."""
    if power >= len(table):
        return 1.0
    return table[power] if power >= 0 else 0.0


def prepare_guards(k: Known, state: GameState) -> None:
    """The Last Guard's odds: the opponent's Stronghold is its deck minus its Commander (S1, S3, G4)."""
    t = state.t
    ot = state.opp_t
    cards = ot.stronghold_after(state.opp_allies[0].top)
    if state.opp_defends:
        k.hit_atk = defended_hit_chances(ot, cards, False)
        k.hit_mat = defended_hit_chances(ot, cards, True)
    else:
        k.hit_atk = hit_chances([ot.atk[c] for c in cards])
        k.hit_mat = hit_chances([ot.mat[c] for c in cards])
    # Per top card, the best attack with 0, 1, 2... payable self-boosts (as far as they differ).
    plans = []
    for c in range(t.n):
        most = max(len(t.boost_atk[c]), len(t.boost_mat[c]))
        plans.append(tuple(plan(k, t, c, -1, False, n) for n in range(most + 1)))
    k.plans = tuple(plans)
    k.guard_atk = [ot.atk[c] for c in cards]
    k.guard_mat = [ot.mat[c] for c in cards]
    k.guards_of = ot
    k.guards_defend = state.opp_defends


def best_attack(k: Known, state: GameState, a: Ally) -> tuple[float, bool, int]:
    """Return (hit chance, magic, self-boosts) of ally `a`'s best attack on the Stronghold (K2, K4).

    The kind with the better chance against the Last Guard's distribution; each self-boost
    only if it raises that chance by more than `boost_gain`, and only as many as the ally
    can pay for.
    """
    joining = state.joining_commander() if state.opp_defends else -1
    if a.familiars or a.released or joining >= 0:
        t = state.t
        fam = a.familiars[-1] if a.familiars else -1
        return plan(k, t, a.top, fam, a.released, state.boost_cards(a), commander_power(state, joining))
    plans = k.plans[a.top]
    most = len(plans) - 1  # the self-boosts that can change the plan
    if most == 0:
        return plans[0]
    cards = state.boost_cards(a)
    return plans[cards if cards < most else most]


def commander_power(state: GameState, joining: int) -> tuple[int, int]:
    """The (ATK, MAT) a defending opponent's Commander adds to the next Last Guard (G4), or (0, 0)."""
    if joining < 0:
        return 0, 0
    return state.opp_t.atk[joining], state.opp_t.mat[joining]


def plan(k: Known, t: DeckTables, top: int, fam: int, released: bool, cards: int,
         against: tuple[int, int] = (0, 0)) -> tuple[float, bool, int]:
    """`best_attack` for an ally topped by `top` holding familiar `fam` (-1: none), `cards` boosts
    payable, against a Last Guard that `against` (ATK, MAT) more defends."""
    boost_gain = k.settings.boost_gain
    best, best_magic, best_boosts = -1.0, False, 0
    for magic in (False, True):
        if magic:
            power, values, table = t.mat[top] - against[1], t.boost_mat[top], k.hit_mat
            if fam >= 0:
                power += t.mat[fam]
        else:
            power, values, table = t.atk[top] - against[0], t.boost_atk[top], k.hit_atk
            if fam >= 0:
                power += t.atk[fam]
        allowed = min(1, len(values)) if released else len(values)
        if allowed > cards:
            allowed = cards
        hit = chance(table, power)
        boosts = 0
        for n in range(allowed):
            power += values[n]
            better = chance(table, power)
            if better - hit <= boost_gain:
                break
            hit, boosts = better, n + 1
        if hit > best:
            best, best_magic, best_boosts = hit, magic, boosts
    return best, best_magic, best_boosts


def likely_lost(k: Known, state: GameState, a: Ally, magic: bool, boosts: int) -> bool:
    """Whether ally `a` attacking so (K2, K4) is more likely than not to be defeated by the Last Guard.

    The guard is a random card of the opponent's Stronghold; a higher guard deals its power
    divided by the attack's (K1), and the ally is lost when that reaches its HP.
    """
    t = state.t
    top = a.top
    power = t.mat[top] if magic else t.atk[top]
    if a.familiars:
        power += t.mat[a.familiars[-1]] if magic else t.atk[a.familiars[-1]]
    values = t.boost_mat[top] if magic else t.boost_atk[top]
    for n in range(min(boosts, len(values))):
        power += values[n]
    joining = state.joining_commander() if state.opp_defends else -1
    extra = commander_power(state, joining)[1 if magic else 0]
    guards = k.guard_mat if magic else k.guard_atk
    if not guards:
        return False
    lost = 0
    for g in guards:
        g += extra
        if g > power and (power <= 0 or g // power >= a.hp):
            lost += 1
    return 2 * lost > len(guards)


def risky_defended(k: Known, state: GameState) -> bool:
    """Whether `risky_hit` holds back walks against this defending opponent (G4): Standard mode only."""
    return k.settings.risky_defended and not state.t.ultimate


def risky_turns(k: Known, state: GameState) -> int:
    """The first turns in which `risky_hit_now` holds: `risky_turns`; in Standard mode against a
    defending opponent `risky_turns_defended`, and going first at least `risky_turns_first`."""
    s = k.settings
    if state.t.ultimate:
        return s.risky_turns
    n = s.risky_turns_defended if state.opp_defends and s.risky_defended else s.risky_turns
    if state.going_first and n < s.risky_turns_first:
        return s.risky_turns_first
    return n


def risky_hit_now(k: Known, state: GameState) -> float:
    """The hit chance below which no likely-lost ally walks into an attack: `risky_hit`, or in
    Ultimate mode `risky_hit_ultimate`."""
    return k.settings.risky_hit_ultimate if state.t.ultimate else k.settings.risky_hit


def walk_worth_it(k: Known, state: GameState, a: Ally, now: bool) -> float:
    """The hit chance of ally `a`'s best attack when AP is worth spending to walk it into range (K4),
    else -1: at least `min_hit`, and when it would attack this turn (`now`) in the first turns,
    at least `risky_hit_now` or not likely lost."""
    hit, magic, boosts = best_attack(k, state, a)
    if hit >= k.settings.min_hit and (hit >= risky_hit_now(k, state) or not now or state.turn > risky_turns(k, state)
                                      or (state.opp_defends and not risky_defended(k, state))
                                      or not likely_lost(k, state, a, magic, boosts)):
        return hit
    return -1.0
