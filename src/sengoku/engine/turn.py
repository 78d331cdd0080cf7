"""The turn (T1-T5): the Active Phase, the Charge Phase's three charges, the Draw Phase, the end."""

from __future__ import annotations

from typing import Any

from sengoku.engine.ally import Ally
from sengoku.engine.board import COMMAND_ZONE
from sengoku.engine.constants import AP_CHARGE, BETWEEN, CHARGE, FAMILIAR_HAND_LIMIT, HAND_LIMIT, MAIN_PHASE
from sengoku.engine.errors import IllegalAction
from sengoku.engine.setup import Setup
from sengoku.engine.zones import Checked

_INT = {int}


def _distinct_positions(positions: list[Any], n: int) -> bool:
    """Whether `positions` are distinct ints (bool refused) naming cards of a hand of `n`."""
    seen = 0
    for p in positions:
        if type(p) is not int:
            return False
        q: int = p
        if not 0 <= q < n or seen >> q & 1:
            return False
        seen |= 1 << q
    return True


class Turn(Setup):
    """T1-T5. `begin_turn` runs the Active Phase and opens the Charge Phase; `end_charge_phase`
    draws (T3) and opens the Main Phase; `end_turn` closes it and returns the turn's measures."""

    __slots__ = ()

    def begin_turn(self) -> None:
        """Start a turn: Active Phase (T1), then open the Charge Phase with AP Charge's 10 AP (T2a)."""
        if self.phase != BETWEEN:
            raise IllegalAction("a turn is already under way")
        self.turn += 1
        if self.record is not None:
            self.record.append({"event": "turn", "turn": self.turn, "ap": self.ap + AP_CHARGE, "gained": AP_CHARGE,
                                "to_attack_stance": [a.top for a in self.allies if a.defending]})
        if self.defended:  # T1
            for a in self.allies:
                a.defending = False
            self.defended = False
        self.hp_charged = self.fam_charged = False
        if self.hand_used:
            self.hand_used = {}
        self.m_charge_cards = self.m_growth_focus = self.m_spent = self.m_ability_ap = 0
        self.m_attacks = self.m_hits = self.m_lost = 0
        self.phase = CHARGE
        self.ap += AP_CHARGE

    # ---- T2a AP Charge -----------------------------------------------------------------------

    def can_charge_cards(self, positions: Any) -> str | None:
        """Say why these hand cards cannot be sent for AP Charge now (T2a), or None."""
        if self.phase != CHARGE:
            return "cards are sent for AP Charge only in the Charge Phase (T2a)"
        n = len(self.hand)
        if type(positions) is range and positions == range(n):
            return None  # the whole hand (the usual case): a range holds distinct ints
        if type(positions) is list and _distinct_positions(positions, n):
            return None  # (a policy's usual list: checked without a sorted copy or a set)
        try:
            ps = sorted(positions)
        except TypeError:
            ps = None
        # Distinct ints (bool and float refused) naming hand cards: sorted, so the ends bound them.
        if ps is None or ps and (not _INT.issuperset(map(type, ps)) or ps[0] < 0 or ps[-1] >= n
                                 or len(set(ps)) != len(ps)):
            return f"bad hand card numbers {positions!r} ({n} cards in hand)"
        return None

    def charge_cards(self, positions: Any) -> None:
        """Send these hand cards (positions, ints) to the Standby Zone and gain their total charge value (T2a).

        `range(len(hand))` sends the whole hand.
        """
        why = self.can_charge_cards(positions)
        if why is not None:
            raise IllegalAction(why)
        hand = self.hand
        charge = self.t.charge
        gain = 0
        if len(positions) == len(hand):  # the whole hand
            for c in hand:
                gain += charge[c]
            self.standby += hand
            hand.clear()
            if self.hand_used:
                self.hand_used.clear()
        else:
            standby = self.standby
            ps: list[int] = sorted(positions)  # (distinct ints: checked above)
            for j in range(len(ps) - 1, -1, -1):  # the last first, so that each position still holds
                c = hand.pop(ps[j])
                standby.append(c)
                gain += charge[c]
                if self.hand_used:
                    self._hand_left(c)
        self.ap += gain
        self.m_charge_cards += gain
        if self.record is not None:
            sent = len(positions)
            self.record.append({"event": "charge", "cards": self.standby[len(self.standby) - sent:],
                                "gain": gain, "ap": self.ap})

    def can_charge_card(self, pos: Checked) -> str | None:
        """Say why hand card `pos` cannot be sent for AP Charge now (T2a), or None."""
        return self.can_charge_cards((pos,))

    def charge_card(self, pos: Checked) -> None:
        """Send hand card `pos` to the Standby Zone and gain its charge value (T2a)."""
        self.charge_cards((pos,))

    # ---- T2b HP Charge -----------------------------------------------------------------------

    def can_hp_charge(self, i: Any) -> str | None:
        """Say why ally `i` cannot get HP Charge now (T2b), or None."""
        found = self._check_hp_charge(i)
        return found if isinstance(found, str) else None

    def _check_hp_charge(self, i: Any) -> Ally | str:
        """Return ally `i` if it may get HP Charge now, else the reason it may not (T2b)."""
        if self.phase != CHARGE:
            return "HP Charge happens in the Charge Phase (T2b)"
        if self.hp_charged:
            return "HP Charge was already used this turn (T2b Decision: once per turn)"
        a = self._ally(i)
        if a is None:
            return f"no ally {i!r} in play"
        t = self.t
        top = a.top
        if a.hp >= t.cost[top]:
            return "the ally is at its max HP (T2b)"
        price = t.hp_charge_price[top]  # max(HP_CHARGE_MIN, deployment cost)
        if self.ap < price:
            return f"HP Charge costs {price} AP, {self.ap} AP available (T2b)"
        return a

    def hp_charge(self, i: Any) -> None:
        """Pay max(5, deployment cost) AP: ally `i` gets +1 HP (T2b)."""
        a = self._check_hp_charge(i)
        if isinstance(a, str):
            raise IllegalAction(a)
        price = self.t.hp_charge_price[a.top]
        self.ap -= price
        self.m_spent += price
        self.hp_charged = True
        a.hp += 1
        self.hp_total += 1
        if self.record is not None:
            self.record.append({"event": "hp_charge", "card": a.top, "space": a.space, "cost": price,
                                "hp": a.hp, "ap": self.ap})

    # ---- T2c Ultimate HP Charge --------------------------------------------------------------

    def can_familiar_hp_charge(self, positions: Checked, i: Any) -> str | None:
        """Say why these familiars cannot be sent for Ultimate HP Charge onto ally `i` (T2c), or None."""
        if not self.t.ultimate:
            return "Ultimate HP Charge exists only in Ultimate Mode (T2c)"
        if self.phase != CHARGE:
            return "Ultimate HP Charge happens in the Charge Phase (T2c)"
        if self.fam_charged:
            return "Ultimate HP Charge was already used this turn (T2c)"
        if type(positions) is not tuple or not positions or not all(
                type(p) is int and 0 <= p < len(self.fam_hand) for p in positions) \
                or len(set(positions)) != len(positions):
            return f"bad familiar hand cards {positions!r}"
        if i is None:
            if self.allies:
                return "choose the ally that gets the HP (T2c)"
        elif self._ally(i) is None:
            return f"no ally {i!r} in play"
        return None

    def familiar_hp_charge(self, positions: Checked, i: Any) -> None:
        """Send familiar hand cards to the Summoning Zone; ally `i` gets +their total charge value (T2c)."""
        why = self.can_familiar_hp_charge(positions, i)
        if why is not None:
            raise IllegalAction(why)
        total = 0
        for p in sorted(positions, reverse=True):
            f = self.fam_hand.pop(p)
            self.summoning.append(f)
            total += self.t.charge[f]
        self.fam_charged = True
        b: Ally | None = None
        if i is not None:
            b = self._ally(i)
            assert b is not None
            self._set_hp(b, min(b.hp + total, self.t.cost[b.top]))
        if self.record is not None:
            sent = len(positions)
            self.record.append({"event": "familiar_hp_charge", "cards": self.summoning[len(self.summoning) - sent:],
                                "gain": total, "card": -1 if b is None else b.top,
                                "space": 0 if b is None else b.space, "hp": 0 if b is None else b.hp})

    # ---- T3 Draw Phase, into the Main Phase ------------------------------------------------

    def can_end_charge_phase(self) -> str | None:
        """Say why the Charge Phase cannot end yet (hand limits, T2a/U1), or None."""
        if self.phase != CHARGE:
            return "not in the Charge Phase"
        held = len(self.hand)
        if held > HAND_LIMIT:
            return f"{held} Character cards in hand: send cards until {HAND_LIMIT} remain (T2a)"
        if self.fam_hand and len(self.fam_hand) > FAMILIAR_HAND_LIMIT:
            return (f"{len(self.fam_hand)} Familiar cards in hand: send familiars until "
                    f"{FAMILIAR_HAND_LIMIT} remain (U1, T2c)")
        return None

    def end_charge_phase(self) -> None:
        """End the Charge Phase, run the Draw Phase (T3) and open the Main Phase (T4)."""
        why = self.can_end_charge_phase()
        if why is not None:
            raise IllegalAction(why)
        held = len(self.hand)
        stronghold = self.sh_top
        if held < HAND_LIMIT:  # T3: draw up to 5
            self._draw(HAND_LIMIT - held)
        if self.record is not None:
            self._note_draw("draw_phase", held, stronghold)
        self.phase = MAIN_PHASE
        self.m_ap_main = self.ap
        if self.t.any_skip_act:
            skip_act = self.t.skip_act
            for a in self.allies:  # C5: ACT abilities usable this turn that the engine cannot run
                if a.space != COMMAND_ZONE and not a.released:
                    self.skipped += skip_act[a.top]

    def end_turn(self) -> tuple[int, ...]:
        """End the turn (T5) and return its measures (see `MEASURES`)."""
        if self.phase != MAIN_PHASE:
            raise IllegalAction("the turn ends from the Main Phase")
        self.phase = BETWEEN
        if self.record is not None:
            self.record.append(self._snapshot())
        return (self.m_ap_main, AP_CHARGE, self.m_charge_cards, self.m_growth_focus, self.m_spent,
                self.ap, len(self.allies), self.top_level, self.hp_total, len(self.hand),
                self.stronghold_count() + len(self.sh_bottom),
                self.opp_sh_hp, self.m_attacks, self.m_hits, self.m_lost)

    def _snapshot(self) -> dict[str, Any]:
        """The end of a turn as a trace shows it (G8): every ally, the hand, the zones' counts, HP and AP."""
        return {
            "event": "end_turn", "turn": self.turn, "ap": self.ap,
            "allies": [(a.top, a.space, a.hp, a.defending, list(a.familiars), a.released) for a in self.allies],
            "enemies": [(e.top, e.space) for e in self.opp_allies],
            "hand": list(self.hand), "familiar_hand": list(self.fam_hand),
            "stronghold": self.stronghold_count() + len(self.sh_bottom), "standby": len(self.standby),
            "hp": self.sh_hp, "opponent_hp": self.opp_sh_hp,
            "opponent_stronghold": -1 if self.opp_stronghold is None else len(self.opp_stronghold) + (
                0 if self.opp_unordered is None else self.opp_unordered.left),
            "opponent_hand": len(self.opp_hand), "won_turn": self.won_turn,
        }
