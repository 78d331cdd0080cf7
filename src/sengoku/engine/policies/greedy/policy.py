"""The default policy (G6), the turn's script: develops like `develop`, then advances and attacks the
opponent's Stronghold to win.

Each decision lives in a module of its own, a plain function of (what the policy knows, the
state): `odds` (hit chances and risk), `moves` (walks and steps), `deploy` (deployment spaces),
`charges` (charges and abilities), `attacks` (attacks); on the first turns, `lookahead` chooses the
turn's first steps by playing the turn out on copies. This class only says in which order a turn asks
them, and plugs them into `develop`'s hooks.
"""

from __future__ import annotations

import dataclasses

from mypy_extensions import mypyc_attr  # read by mypyc when the engine is compiled

from sengoku.engine.ally import Ally
from sengoku.engine.policies.develop import DevelopPolicy, DevelopSettings
from sengoku.engine.policies.greedy import attacks, charges, deploy, moves
from sengoku.engine.policies.greedy.known import Known
from sengoku.engine.policies.greedy.lookahead import LookAhead, apply_plan
from sengoku.engine.policies.greedy.odds import prepare_guards
from sengoku.engine.policies.greedy.settings import DEFAULT_SETTINGS, GreedySettings
from sengoku.engine.state import GameState
from sengoku.engine.tables import DeckTables


@mypyc_attr(allow_interpreted_subclasses=True)
class GreedyPolicy(DevelopPolicy):
    """Play to win: grow and focus first, move allies (the Commander too) into attack range and attack
    the Stronghold with the kind (ATK or MAT) likelier to beat the Last Guard, self-boosting when that
    raises the odds; then deploy, HP-charge and use abilities as AP allows, and advance new allies."""

    name = "greedy"

    def __init__(self, settings: GreedySettings = DEFAULT_SETTINGS) -> None:
        super().__init__(DevelopSettings(keep_for_next_turn=settings.keep_for_next_turn, contracts=settings.contracts,
                                         hp_charge=settings.hp_charge, move_for_room=settings.move_for_room))
        self.settings = settings
        self.known = Known(settings)
        # The look-ahead's player: greedy with the same settings but no look-ahead (it plays the turn out).
        self.look: LookAhead | None = None
        if settings.lookahead_turns > 0:
            self.look = LookAhead(GreedyPolicy(dataclasses.replace(settings, lookahead_turns=0)), self.known)

    def __repr__(self) -> str:
        """The class and the settings that differ from the defaults: `GreedyPolicy(hp_charge=True)`."""
        changed = [f"{name}={getattr(self.settings, name)!r}" for name in GreedySettings.names()
                   if getattr(self.settings, name) != getattr(DEFAULT_SETTINGS, name)]
        return f"{type(self).__name__}({', '.join(changed)})"

    def _prepare(self, t: DeckTables) -> None:
        super()._prepare(t)
        self.known.prepare_deck(t)

    def _prepare_for(self, state: GameState) -> None:
        """Work out what this game's decks need, once per deck (ours, and the opponent's Last Guards)."""
        if self._tables is not state.t:
            self._prepare(state.t)
        k = self.known
        if k.guards_of is not state.opp_t or k.guards_defend != state.opp_defends:
            prepare_guards(k, state)

    # ---- Charge Phase (`develop`'s, with these hooks) ------------------------------------------

    def charge_phase(self, state: GameState) -> None:
        look = self.look
        if look is not None and self.settings.lookahead_charges and look.applies(state):
            self._prepare_for(state)
            send, _ = self._plan_charges(state)
            plan = look.charge_plan(state, send)  # greedy's plan or a neighbour's, by playing the turn out
            if plan is not None:
                apply_plan(state, plan)
                return
        DevelopPolicy.charge_phase(self, state)

    def _plan_charges(self, state: GameState) -> tuple[list[int], int]:
        send, ap = DevelopPolicy._plan_charges(self, state)
        charges.add_extra_charges(self.known, state, send, ap)
        return send, ap

    def _holds_back(self, state: GameState, card: int, ally: Ally) -> bool:
        return deploy.holds_back(self.known, state, card, ally)

    def _deploys_instead(self, state: GameState, card: int, ally: Ally) -> bool:
        return deploy.deploys_instead(self.known, state, card, ally)

    def _deploy_space(self, state: GameState, card: int) -> int | None:
        dest = deploy.deploy_space(self.known, state, card)
        return dest if dest is not None else DevelopPolicy._deploy_space(self, state, card)

    # ---- Main Phase: the turn's script -----------------------------------------------------------

    def main_phase(self, state: GameState) -> None:
        self._prepare_for(state)
        s = self.settings
        look = self.look
        if look is not None and look.applies(state):
            look.play(state)  # the turn's first steps, chosen by playing the turn out on copies
            if state.won_turn is not None:
                return  # K5
        if state.turn <= s.draw_first_turns and state.won_turn is None:
            self._draw_first(state)
        attacking = not (state.going_first and state.turn == 1) and state.won_turn is None  # S8, K5
        if attacking:
            while self._grow_and_focus(state) is None:  # free, pays AP and raises attack power
                pass
            self._attack_all(state)
            if state.won_turn is not None:
                return  # K5: the game is won; nothing is left to play for this turn
        DevelopPolicy.main_phase(self, state)
        if attacking:
            self._attack_all(state)  # a defeated attacker may have freed a space in range
            if state.won_turn is not None:
                return
        self._advance(state)
        if s.abilities and self._use_abilities(state):
            DevelopPolicy.main_phase(self, state)  # cards drawn: develop with them
            self._advance(state)

    def _draw_first(self, state: GameState) -> None:
        """Use the hand's abilities that draw, before the AP goes to deployments (`draw_first_turns`)."""
        charges.draw_first(state)

    def _attack_all(self, state: GameState) -> None:
        """Attack with every ally in range worth it, walking ready allies into range (`attacks`)."""
        attacks.attack_all(self.known, state)

    def _advance(self, state: GameState) -> None:
        """With AP to spare, put allies that did not attack into range for next turn (`moves`)."""
        moves.advance(self.known, state)

    def _use_abilities(self, state: GameState) -> bool:
        """Use the abilities that help, last in the turn (`charges`); return True if cards were drawn."""
        return charges.use_abilities(self.known, state)
