"""The default policy's odds: how likely an attack is to beat the Last Guard.

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
    k.guards_of = ot
    k.guards_defend = state.opp_defends


def best_attack(k: Known, state: GameState, a: Ally) -> tuple[float, bool, int]:
    """Return (hit chance, magic, self-boosts) of ally `a`'s best attack on the Stronghold (K2, K4).

    The kind with the better chance against the Last Guard's distribution; each self-boost
    only if it raises that chance, and only as many as the ally can pay for.
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
            if better <= hit:
                break
            hit, boosts = better, n + 1
        if hit > best:
            best, best_magic, best_boosts = hit, magic, boosts
    return best, best_magic, best_boosts
