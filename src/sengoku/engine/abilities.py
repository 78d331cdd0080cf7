"""Abilities (C5, guide I §14): structured effects, triggered abilities, activated abilities.

Only abilities whose effect the card database gives in structured form run (draw, gain AP,
heal); the others are counted in `skipped` (C5).
"""

from __future__ import annotations

from typing import Any

from sengoku.engine.ally import Ally
from sengoku.engine.board import COMMAND_ZONE
from sengoku.engine.constants import MAIN_PHASE
from sengoku.engine.errors import IllegalAction
from sengoku.engine.tables import OP_DRAW, OP_GAIN_AP, TARGET_COMMANDER, TARGET_SELF, Trigger
from sengoku.engine.turn import Turn
from sengoku.engine.zones import Checked


class Abilities(Turn):
    """C5: resolving effects, triggers, and the activated abilities of allies and hand cards."""

    __slots__ = ()

    def _heal_target(self, target: int, source: Ally | None) -> Ally | None:
        if target == TARGET_SELF:
            return source
        if target == TARGET_COMMANDER:
            return self.command_zone
        return self.neediest_ally()  # engine decision: a heal on "an ally" goes where it helps most

    def _resolve(self, effects: tuple[tuple[int, int, int], ...], source: Ally | None) -> None:
        """Run structured effects (C5): draw, gain AP, heal (never above max HP)."""
        for op, amount, target in effects:
            if op == OP_DRAW:
                held, stronghold = len(self.hand), self.sh_top
                self._draw(amount)
                if self.record is not None:
                    self._note_draw("ability", held, stronghold)
            elif op == OP_GAIN_AP:
                self.ap += amount
                self.m_ability_ap += amount
                if self.record is not None:
                    self.record.append({"event": "gain_ap", "gain": amount, "ap": self.ap})
            else:
                a = self._heal_target(target, source)
                if a is not None and a.in_play:
                    self._set_hp(a, min(a.hp + amount, self.t.cost[a.top]))
                    if self.record is not None:
                        self.record.append({"event": "heal", "card": a.top, "space": a.space, "hp": a.hp})

    def _trigger(self, triggers: tuple[Trigger, ...], ally: Ally) -> None:
        """Offer `ally`'s runnable triggered abilities of one timing to the player (A2: optional,
        at most one of them); one it uses is paid, resolved and used for the turn (A1)."""
        turn = self.turn
        for trigger in triggers:
            ap_cost, to_def, effects, bit = trigger
            if ally.used_turn == turn and ally.used & bit:
                continue  # A1: used this turn (by this ally, whatever card is on top now)
            if self.ap >= ap_cost and self.chooser.use_trigger(self, ally, trigger):
                self._spend(ap_cost)
                self._mark_used(ally, bit)
                if self.record is not None:
                    self._note_ability("trigger", ally.top, ally.space, ap_cost, to_def, effects)
                self._resolve(effects, ally)
                if to_def:
                    ally.defending = self.defended = True
                return  # A2: one triggered ability per ally per trigger timing

    def _note_ability(self, how: str, card: int, space: int, cost: int, then: bool,
                      effects: tuple[tuple[int, int, int], ...]) -> None:
        """Record an ability used (G8): `how` "trigger", "activated" or "hand"; `then` the ally turns to
        Defense Stance (a hand card: goes to the Standby Zone) once it resolves."""
        assert self.record is not None
        self.record.append({"event": "ability", "how": how, "card": card, "space": space, "cost": cost,
                            "then": then, "effects": [list(e) for e in effects], "ap": self.ap})

    def _mark_used(self, a: Ally, bit: int) -> None:
        """A1: the ability `bit` of ally `a` is used this turn."""
        if a.used_turn != self.turn:
            a.used_turn, a.used = self.turn, 0
        a.used |= bit

    # ---- activated abilities of allies on the field ----------------------------------------

    def can_use_ability(self, i: Any, k: Checked) -> str | None:
        """Say why ally `i` cannot use its k-th runnable ACT ability now, or None (C5, guide I §14)."""
        if self.phase != MAIN_PHASE:
            return "abilities are activated in the Main Phase"
        a = self._ally(i)
        if a is None:
            return f"no ally {i!r} in play"
        if a.released:
            return "a Released familiar has no activated ability: its familiar ability triggers (A4)"
        acts = self.t.act[a.top]
        if type(k) is not int or not 0 <= k < len(acts):
            return f"the ally has no runnable ability number {k!r}"
        if a.space == COMMAND_ZONE:
            return "Battlefield abilities are not used from the Command Zone (engine decision)"
        ap_cost, to_def, _, bit = acts[k]
        if a.used_turn == self.turn and a.used & bit:
            return "an ability of a card is used at most once per turn (A1)"
        if to_def and a.defending:
            return "this ability is used from Attack Stance (BF_Stance:Atk→Def)"
        if self.ap < ap_cost:
            return f"the ability costs {ap_cost} AP, {self.ap} AP available"
        return None

    def use_ability(self, i: Any, k: Checked = 0) -> None:
        """Pay the cost of ally `i`'s k-th runnable ACT ability and resolve it."""
        why = self.can_use_ability(i, k)
        if why is not None:
            raise IllegalAction(why)
        a = self._ally(i)
        assert a is not None
        ap_cost, to_def, effects, bit = self.t.act[a.top][k]
        self._mark_used(a, bit)
        self._spend(ap_cost)
        if self.record is not None:
            self._note_ability("activated", a.top, a.space, ap_cost, to_def, effects)
        self._resolve(effects, a)
        if to_def:
            a.defending = self.defended = True

    # ---- abilities used from the hand --------------------------------------------------------

    def can_use_hand_ability(self, pos: Checked, k: Checked) -> str | None:
        """Say why hand card `pos` cannot use its k-th runnable hand ability now, or None."""
        if self.phase != MAIN_PHASE:
            return "abilities are activated in the Main Phase"
        if type(pos) is not int or not 0 <= pos < len(self.hand):
            return f"no hand card number {pos!r}"
        c = self.hand[pos]
        acts = self.t.hand_act[c]
        if type(k) is not int or not 0 <= k < len(acts):
            return "the card has no runnable hand ability with that number"
        if self.hand_used.get((c, acts[k][3]), 0) >= self.hand.count(c):
            return "each copy of this card in hand has used this ability this turn (A1)"
        if self.ap < acts[k][0]:
            return f"the ability costs {acts[k][0]} AP, {self.ap} AP available"
        return None

    def use_hand_ability(self, pos: Checked, k: Checked = 0) -> None:
        """Use hand card `pos`'s k-th runnable hand ability; the card then goes where it says."""
        why = self.can_use_hand_ability(pos, k)
        if why is not None:
            raise IllegalAction(why)
        c = self.hand[pos]
        ap_cost, to_standby, effects, bit = self.t.hand_act[c][k]
        self._spend(ap_cost)
        if self.record is not None:
            self._note_ability("hand", c, COMMAND_ZONE, ap_cost, to_standby, effects)
        if to_standby:
            self.hand.pop(pos)  # this copy leaves the hand: the used one (A1)
        else:
            self.hand_used[(c, bit)] = self.hand_used.get((c, bit), 0) + 1  # A1: per copy in hand
        self._resolve(effects, None)
        if to_standby:
            self.standby.append(c)  # after resolution (guide I §14 ③)
