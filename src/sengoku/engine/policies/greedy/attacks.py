"""The default policy's attacks on the opponent's Stronghold (K2, K4).

Every ally in range attacks, at any hit chance (a Last Guard that wins leaves the Stronghold for
the opponent's hand), with the kind (ATK or MAT) and the self-boosts `odds.best_attack` chose;
ready allies walk into range (`moves`) and attack in turn.
"""

from __future__ import annotations

from sengoku.engine.policies.greedy.known import Known
from sengoku.engine.policies.greedy.moves import (block_commander, make_ways, move_into_range, step_ahead,
                                                  swap_into_range)
from sengoku.engine.policies.greedy.odds import best_attack
from sengoku.engine.state import GameState


def attack_all(k: Known, state: GameState) -> None:
    """Attack with every ally in range; move ready allies into free spaces in range; repeat."""
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
        if state.opp_defends and state.joining_commander() >= 0:
            # G4: the first to attack meets the opponent's Commander too: the likeliest to win it first
            order.sort(key=lambda a: -best_attack(k, state, a)[0])
        for a in order:
            # (what can_attack asks of the ally: in Attack Stance, on a space in range, not new;
            # `attack` checks it all again, and the boosts best_attack chose are ones it can pay)
            if a.in_play and not a.defending and (a.entered != turn or a.released) \
                    and a.space >= 0 and reaches[a.top][a.space]:
                # at any hit chance (even a likely loss: a guard that wins leaves the Stronghold)
                _, magic, boosts = best_attack(k, state, a)
                if s.step_ahead and state.opp_defends and state.t.board.is_perimeter[a.space]:
                    step_ahead(k, state, a)
                state.attack(a, magic, boosts)
                if state.won_turn is not None:
                    return  # K5
        if not move_into_range(k, state, True):
            return

