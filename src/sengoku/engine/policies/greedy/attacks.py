"""The default policy's attacks on the opponent's Stronghold (K2, K4) and its Releases (U5).

Every ally in range whose attack can hit attacks, with the kind (ATK or MAT) and the self-boosts
`odds.best_attack` chose; ready allies walk into range (`moves`) and attack in turn.
"""

from __future__ import annotations

from sengoku.engine.ally import Ally
from sengoku.engine.board import COMMAND_ZONE
from sengoku.engine.policies.greedy.known import Known
from sengoku.engine.policies.greedy.moves import (block_commander, make_ways, move_into_range, step_ahead,
                                                  swap_into_range)
from sengoku.engine.policies.greedy.odds import best_attack, commander_power, likely_lost, plan
from sengoku.engine.state import GameState


def attack_all(k: Known, state: GameState) -> None:
    """Attack with every ally in range worth it; move ready allies into free spaces in range; repeat."""
    s = k.settings
    if s.block_commander > 0 and state.opp_defends and state.joining_commander() >= 0:
        block_commander(k, state)
    if s.step_ahead_for_walk:
        make_ways(k, state)
    while True:
        if s.swap_into_range:
            while swap_into_range(k, state, True):
                pass
        turn = state.turn
        reaches = k.reaches
        order = list(state.allies)
        soak: Ally | None = None
        if state.opp_defends and state.joining_commander() >= 0:
            # G4: the first to attack meets the opponent's Commander too: the likeliest to win it first
            order.sort(key=lambda a: -best_attack(k, state, a)[0])
            if s.soak_commander and not state.t.ultimate:
                soak = soak_first(k, state, order)
        for a in order:
            # (what can_attack asks of the ally: in Attack Stance, on a space in range, not new;
            # `attack` checks it all again, and the boosts best_attack chose are ones it can pay)
            if a.in_play and not a.defending and (a.entered != turn or a.released) \
                    and a.space >= 0 and reaches[a.top][a.space]:
                hit, magic, boosts = best_attack(k, state, a)
                if hit >= s.min_hit or a is soak:  # (even a likely loss: a guard that wins leaves the Stronghold)
                    if s.step_ahead and state.opp_defends and state.t.board.is_perimeter[a.space]:
                        step_ahead(k, state, a)
                    state.attack(a, magic, boosts)
                    if state.won_turn is not None:
                        return  # K5
        if not move_into_range(k, state, True):
            return


def soak_first(k: Known, state: GameState, order: list[Ally]) -> Ally | None:
    """`soak_commander`: put first in `order` the ally ready to attack whose hit chance the joining
    Commander's power (G4) lowers least: the Commander joins one combat only, so the others
    attack without it (K4)."""
    t = state.t
    turn = state.turn
    reaches = k.reaches
    best, best_loss = -1, 2.0
    ready = 0
    for n in range(len(order)):
        a = order[n]
        if a.in_play and not a.defending and (a.entered != turn or a.released) \
                and a.space >= 0 and reaches[a.top][a.space]:
            ready += 1
            hit = best_attack(k, state, a)[0]
            fam = a.familiars[-1] if a.familiars else -1
            alone = plan(k, t, a.top, fam, a.released, state.boost_cards(a))[0]
            if alone - hit < best_loss - 1e-9:
                best, best_loss = n, alone - hit
    if best < 0:
        return None
    if best > 0:
        order.insert(0, order.pop(best))
    return order[0] if ready > 1 else None


def release_all(k: Known, state: GameState) -> bool:
    """Release and attack while it is worth it (`release_and_attack`); return True if the game is won."""
    while release_and_attack(k, state):
        if state.won_turn is not None:
            return True
    return False


def release_and_attack(k: Known, state: GameState) -> bool:
    """Release a Contracted familiar (U5) onto a free space next to its holder from which it reaches
    the Stronghold, if its attack is worth it, and attack with it at once (K4: a Released familiar
    may). The holder attacks first, with the familiar's power added (U3). Return True if a
    familiar was Released."""
    if state.ap < 1:
        return False
    s = k.settings
    t = state.t
    board = t.board
    occ = state.occupant
    reaches = k.reaches
    turn = state.turn
    for a in state.allies:
        if not a.familiars or a.released or t.is_egg[a.familiars[-1]] or a.space == COMMAND_ZONE:
            continue
        if not a.defending and a.entered != turn and reaches[a.top][a.space]:
            continue  # it can still attack, with its familiar's power added: not yet
        f = a.familiars[-1]
        # U5: as a Released familiar it may self-boost once, paying a familiar or two cards.
        cards = len(state.fam_hand) + len(a.familiars) - 1 + len(state.hand) // 2
        joining = state.joining_commander() if state.opp_defends else -1
        if plan(k, t, f, -1, True, cards, commander_power(state, joining))[0] < max(s.min_hit, s.risky_hit):
            continue
        for d in board.neighbours[a.space]:
            if occ[d] is None and reaches[f][d] and state.can_release(a, d, False) is None:
                fam = state.release(a, d, False)
                hit, magic, boosts = best_attack(k, state, fam)
                if hit >= s.min_hit and (hit >= s.risky_hit or not likely_lost(k, state, fam, magic, boosts)):
                    state.attack(fam, magic, boosts)
                return True
    return False
