"""Attack Declaration on the opponent's Stronghold (K1-K5, S8): self-boosts, the Last Guard, the win."""

from __future__ import annotations

from typing import Any

from sengoku.engine.ally import Ally
from sengoku.engine.chance import keyed_part
from sengoku.engine.board import COMMAND_ZONE, OFF_OUR_BOARD
from sengoku.engine.combat import GUARD_HIGHER, last_guard_combat
from sengoku.engine.constants import HAND_LIMIT, MAIN_PHASE
from sengoku.engine.errors import IllegalAction
from sengoku.engine.familiar_abilities import FamiliarAbilities
from sengoku.engine.tables import NAMELESS
from sengoku.engine.zones import Checked


class Attack(FamiliarAbilities):
    """K1-K5: `can_attack` and `attack`, with the self-boosts they pay for (K2)."""

    __slots__ = ()

    def boost_cards(self, i: Any) -> int:
        """Return how many self-boost costs ally `i` could pay (K2, Quick Start II §8)."""
        t = self.t
        a = self._ally(i)
        assert a is not None
        if a.released:
            return len(self.fam_hand) + len(a.sources) + len(self.hand) // 2
        name_id, kind = t.name_id, t.kind
        nid = name_id[a.top]
        cards = len(a.sources)
        for c in self.hand:  # (a plain loop: no generator made for every ask, pure or compiled)
            if name_id[c] == nid and kind[c] != NAMELESS:
                cards += 1
        return cards

    def can_attack(self, i: Any, magic: Checked = False, boosts: Checked = 0) -> str | None:
        """Say why ally `i` cannot attack the opponent's Stronghold now, or None (K2, K4, S8)."""
        found = self._check_attack(i, magic, boosts)
        return found if isinstance(found, str) else None

    def _check_attack(self, i: Any, magic: Checked, boosts: Checked) -> Ally | str:
        """Return ally `i` if it may attack the opponent's Stronghold now, else the reason it may not (K2, K4, S8)."""
        if self.phase != MAIN_PHASE:
            return "attacks are declared in the Main Phase (T4)"
        if self.going_first and self.turn == 1:
            return "the first player cannot attack on their first turn (S8)"
        if self.won_turn is not None:
            return "the game is won (K5)"
        a = self._ally(i)
        if a is None:
            return f"no ally {i!r} in play"
        t = self.t
        if a.defending:
            return "only an ally in Attack Stance may attack (guide I §12)"
        if a.space == COMMAND_ZONE:
            return "an ally in the Command Zone has no space to attack from (engine decision)"
        if a.entered == self.turn and not a.released:
            # K4: a deployed ally waits a turn; a familiar Released this turn was not deployed.
            return "an ally that entered play this turn may not target the Stronghold (K4; a Released familiar may)"
        if not t.board.reaches_enemy_stronghold(a.space, t.corners[a.top]):
            return "the opponent's Stronghold is out of this ally's attack range (K4, B1)"
        top = a.top
        values = t.boost_mat[top] if magic else t.boost_atk[top]
        allowed = min(1, len(values)) if a.released else len(values)  # Quick Start II §8: once
        if type(boosts) is not int:
            return f"this ally may self-boost 0 to {allowed} times (K2)"
        n: int = boosts  # (checked: compiled, the comparisons below are on machine ints)
        if not 0 <= n <= allowed:
            return f"this ally may self-boost 0 to {allowed} times (K2)"
        if n and n > self.boost_cards(a):  # (no self-boost: nothing to pay)
            return "not enough same-name cards to pay for the self-boosts (K2)"
        return a

    def _pay_boost(self, a: Ally) -> None:
        t = self.t
        if a.released:  # Quick Start II §8: a familiar, or two Character cards
            if self.fam_hand:
                self.summoning.append(self.fam_hand.pop())
            elif a.sources:
                self.summoning.append(a.sources.pop(0))
            else:
                for _ in range(2):
                    c = self.hand.pop()
                    self.standby.append(c)
                    if self.hand_used:
                        self._hand_left(c)
            return
        nid = t.name_id[a.top]
        best = -1
        for p, c in enumerate(self.hand):
            if t.name_id[c] == nid and t.kind[c] != NAMELESS and (best < 0 or t.level[c] < t.level[self.hand[best]]):
                best = p
        if best >= 0:
            c = self.hand.pop(best)
            self.standby.append(c)
            if self.hand_used:
                self._hand_left(c)
        else:
            self.standby.append(a.sources.pop(0))

    def _reveal_last_guard(self) -> int | None:
        """Reveal the opponent's Last Guard: the top card of its Stronghold (K4, G4), or None if empty.

        The first reveal of a game shuffles its Stronghold (its deck less its Commander), from the
        opponent's own stream (G7), and deals its 5-card hand (S3, S6): done here, not at setup, so
        a game that never attacks plays as if there were no opponent.
        """
        if self.opp_stronghold is None:
            ot = self.opp_t
            top = self.opp_allies[0].top
            opp, self.opp_unordered = self.chance.opponent_stronghold(ot.commander_stronghold[top],
                                                                      ot.stronghold_lanes[top], HAND_LIMIT + 1)
            hand = self.opp_hand
            for _ in range(min(HAND_LIMIT, len(opp))):  # their opening hand (S6): the top five, top first
                hand.append(opp.pop())
            self.opp_stronghold = opp
        opp = self.opp_stronghold
        if not opp:
            u = self.opp_unordered
            if u is not None and u.left:  # the next part of its order (see Chance.opponent_stronghold)
                opp += keyed_part(u, 1)
        return opp.pop() if opp else None

    def _defense(self, guard: int | None, magic: bool, power: int) -> int:
        """Return the defending power against an attack of `power` (K4, G4).

        The Last Guard's ATK (or MAT); a defending opponent also brings its Commander from its
        Command Zone onto a free space of its Stronghold Perimeter and adds its ATK (or MAT), and
        self-boosts the Last Guard (K2, K3: one same-name card from its hand per boost) while the
        attack is still the stronger and it can pay (engine decision: no card spent in vain).
        """
        ot = self.opp_t
        defense = 0 if guard is None else (ot.mat[guard] if magic else ot.atk[guard])
        if not self.opp_defends:
            return defense
        cmd = self.opp_commander
        if cmd is not None:
            space = self._free_enemy_space()
            if space is not None:
                self.opp_commander = None
                cmd.space = space
                if space != OFF_OUR_BOARD:
                    self.occupant[space] = cmd
                defense += ot.mat[cmd.top] if magic else ot.atk[cmd.top]
        if guard is not None and defense <= power:
            values = ot.boost_mat[guard] if magic else ot.boost_atk[guard]
            hand = self.opp_hand
            nid = ot.name_id[guard]
            for value in values:
                if defense > power:
                    break
                for p in range(len(hand)):
                    if ot.name_id[hand[p]] == nid and ot.kind[hand[p]] != NAMELESS:
                        self.opp_standby.append(hand.pop(p))
                        defense += value
                        break
                else:
                    break  # no card left to pay with
        return defense

    def joining_commander(self) -> int:
        """Return the card of the opponent's Commander if it would join the next Last Guard combat, else -1.

        Only a defending opponent (G4) brings it, from its Command Zone, onto a free space of its
        Stronghold Perimeter (see `_defense`); a player sees both, so a policy may ask.
        """
        cmd = self.opp_commander
        if not self.opp_defends or cmd is None or self._free_enemy_space() is None:
            return -1
        return cmd.top

    def _free_enemy_space(self) -> int | None:
        """Return the first space of the opponent's Stronghold Perimeter no ally stands on, or None."""
        occ = self.occupant
        for space in self.t.board.enemy_perimeter:
            if space != OFF_OUR_BOARD and occ[space] is not None:
                continue
            for e in self.opp_allies:  # (a few allies: a loop, not a set built at every ask)
                if e.space == space:
                    break
            else:
                return space
        return None

    def _note_attack(self, a: Ally, magic: bool, power: int, before: tuple[int, int, int], joining: Ally | None,
                     guard: int | None, defense: int, outcome: int, to_attacker: int, to_stronghold: int) -> None:
        """Record an attack on the Stronghold (K4, G8): both sides' numbers and what follows from them.

        `before` holds the sizes of our Standby and Summoning Zones and the opponent's Standby Zone
        before the self-boosts were paid; `joining` the opponent's Commander if it could join.
        """
        assert self.record is not None
        ot = self.opp_t
        joined = joining is not None and self.opp_commander is None
        hp = self.opp_sh_hp
        won = to_stronghold > 0 and hp == 0  # K5
        self.record.append({
            "event": "attack", "card": a.top, "space": a.space, "magic": magic, "power": power,
            "familiar": a.familiars[-1] if a.familiars else -1,
            "boosts": self.standby[before[0]:] + self.summoning[before[1]:],
            "guard": -1 if guard is None else guard,
            "guard_power": 0 if guard is None else (ot.mat[guard] if magic else ot.atk[guard]),
            "commander": joining.top if joined and joining is not None else -1,
            "commander_space": joining.space if joined and joining is not None else 0,
            "guard_boosts": self.opp_standby[before[2]:], "defense": defense, "outcome": outcome,
            "to_attacker": to_attacker, "attacker_hp": a.hp, "to_stronghold": to_stronghold,
            "opponent_hp": hp - 1 if to_stronghold and hp > 0 else hp, "won": won,
            "turn": self.turn})

    def attack(self, i: Any, magic: Checked = False, boosts: Checked = 0) -> int:
        """Attack the opponent's Stronghold with ally `i` (K4); return the K4 outcome code."""
        a = self._check_attack(i, magic, boosts)
        if isinstance(a, str):
            raise IllegalAction(a)
        t = self.t
        top = a.top
        record = self.record
        mag = bool(magic)
        n: int = boosts  # (an int: checked above)
        standby = summoning = opp_standby = 0
        joining: Ally | None = None
        if record is not None:  # (the cards the self-boosts send: what the zones gain, G8)
            standby, summoning, opp_standby = len(self.standby), len(self.summoning), len(self.opp_standby)
            joining = self.opp_commander if self.opp_defends else None
        power = t.mat[top] if mag else t.atk[top]
        if a.familiars:  # U3: the contracted familiar's attack power adds in Attack Stance
            power += t.mat[a.familiars[-1]] if mag else t.atk[a.familiars[-1]]
        values = t.boost_mat[top] if mag else t.boost_atk[top]
        for k in range(n):
            self._pay_boost(a)
            power += values[k]
        self.m_attacks += 1
        guard = self._reveal_last_guard()
        defense = self._defense(guard, mag, power)
        outcome, to_attacker, to_stronghold = last_guard_combat(power, defense)
        if record is not None:
            self._note_attack(a, mag, power, (standby, summoning, opp_standby), joining, guard, defense,
                              outcome, to_attacker, to_stronghold)
        if guard is not None:  # K4: a Last Guard that won goes to its owner's hand
            (self.opp_hand if outcome == GUARD_HIGHER else self.opp_standby).append(guard)
        if to_stronghold:
            self.m_hits += 1
            if self.opp_sh_hp == 0:
                if self.won_turn is None:
                    self.won_turn = self.turn  # K5
            else:
                self.opp_sh_hp -= 1
            if t.on_combat_damage[top] or t.skip_combat_damage[top]:
                self._trigger(t.on_combat_damage[top], a)
                self.skipped += t.skip_combat_damage[top]
            if a.released:  # A4: a Released familiar's ability triggers on dealing combat damage
                self._familiar_combat_damage(a)
        a.defending = self.defended = True  # end of combat: the attacker turns to Defense Stance
        if to_attacker:
            if a.hp <= to_attacker:
                self.leave_play(a)
            else:
                self._set_hp(a, a.hp - to_attacker)
        return outcome
