"""Familiar abilities (A4, Quick Start II §9): pay the Ability Cost, roll the die, apply one row.

A Contracted familiar's ability is activated (`use_familiar_ability`) while its Contract Holder
is in Defense Stance, and reaches its Support and Evolution rows; a Released familiar's ability
triggers when it deals combat damage (`Attack.attack` calls `_familiar_combat_damage`) and
reaches its Support, Combat and Evolution rows. The die comes from the game's dice stream
(`Chance.die`, G7); among the rows whose die number the roll reaches, the chooser (the policy: `Chooser.familiar_row`) picks one, and
it decides whether to use a Released familiar's trigger (`Chooser.use_familiar_trigger`, A2). The engine runs
HP, MP, Troop, a weapon fetch, Evolution (and the character effects draw, gain AP, heal); the
rest (Cure, Full Cure, Blessing, every Combat effect) have nothing to act on in a goldfish game
and are counted in `skipped` (C5).

Decisions taken here (cite them as "engine decision"):
- Once per turn per familiar (A4): the mark belongs to the familiar stack, kept under the card at
  its bottom (an Egg, or the first form contracted), which Evolution and Release never move: a
  familiar that used its ability and then evolves or is Released does not use it again that turn.
- HP and MP of one row go to one target (Quick Start II §9): the Contract Holder or an ally in
  the familiar's surroundings, the eight spaces around its space (its holder's, while Contracted),
  diagonals included (Quick Start I, Q&A), where the most of them do something; the holder first
  among equals. MP puts the highest-level card of the target's name
  from the Standby Zone under it (a Nameless or a Released familiar has no such card).
- Troop: the top X cards are the last X of the shuffled Stronghold (see `Zones._draw`); past
  them, the cards already on its bottom. The engine keeps one card (see `_best_card`) and puts
  the rest, in a random order (from the shuffle stream), under the cards already there
  (`sh_bottom`): draws reach them only once the rest of the Stronghold is drawn.
- A weapon fetch and Troop keep the card that can Grow or Focus now, else the highest level.
- Evolution takes the evolved form from the Summoning Zone (the highest level if several); a
  Contracted familiar still obeys U4 (not above its holder's level).
"""

from __future__ import annotations

from typing import Any

from sengoku.engine.ally import Ally
from sengoku.engine.board import COMMAND_ZONE
from sengoku.engine.constants import MAIN_PHASE
from sengoku.engine.errors import EngineError, IllegalAction
from sengoku.engine.tables import (
    FX_DRAW,
    FX_EVOLUTION,
    FX_HP,
    FX_MP,
    FX_TROOP,
    FX_WEAPON,
    NAMELESS,
    FamiliarRow,
)
from sengoku.engine.ultimate import Ultimate

# What `familiar_row_gain` counts each effect for when it would change something.
_GAIN = {FX_EVOLUTION: 4, FX_TROOP: 3, FX_WEAPON: 2, FX_DRAW: 2, FX_MP: 1, FX_HP: 1}


class FamiliarAbilities(Ultimate):
    """A4: `can_use_familiar_ability` / `use_familiar_ability`, and the Released familiar's trigger."""

    __slots__ = ()

    def can_use_familiar_ability(self, i: Any) -> str | None:
        """Say why ally `i`'s Contracted familiar cannot use its ability now, or None (A4)."""
        if not self.t.ultimate:
            return "familiar abilities exist only in Ultimate Mode (A4)"
        if self.phase != MAIN_PHASE:
            return "a Contracted familiar's ability is activated in the Main Phase (A4)"
        a = self._ally(i)
        if a is None:
            return f"no ally {i!r} in play"
        if a.released:
            return "a Released familiar's ability triggers when it deals combat damage (A4)"
        if not a.familiars:
            return "the ally holds no familiar (A4)"
        if not a.defending:
            return "a Contracted familiar's ability needs its Contract Holder in Defense Stance (A4)"
        t = self.t
        f = a.familiars[-1]
        if not t.contracted_rows[f]:
            return f"{t.name[f]!r} has no Support or Evolution ability (A4)"
        if self.fam_used[a.familiars[0]] == self.turn:
            return "a familiar uses its ability once per turn, evolved or not (A4)"
        cost = t.ability_cost[f]
        if self.ap < cost:
            return f"the ability costs {cost} AP, {self.ap} AP available (A4)"
        return None

    def use_familiar_ability(self, i: Any) -> int:
        """Use ally `i`'s Contracted familiar's ability (A4); return the die roll."""
        why = self.can_use_familiar_ability(i)
        if why is not None:
            raise IllegalAction(why)
        a = self._ally(i)
        assert a is not None
        return self._familiar_ability(a, self.t.contracted_rows[a.familiars[-1]])

    def _familiar_combat_damage(self, a: Ally) -> None:
        """A Released familiar dealt combat damage: its ability triggers (A4), used if it can pay."""
        t = self.t
        rows = t.released_rows[a.top]
        if not rows or self.fam_used[a.sources[0] if a.sources else a.top] == self.turn:
            return
        cost = t.ability_cost[a.top]
        if self.ap >= cost and self.chooser.use_familiar_trigger(self, a, cost):  # A2: optional
            self._familiar_ability(a, rows)

    def _familiar_ability(self, a: Ally, rows: tuple[FamiliarRow, ...]) -> int:
        """Pay the Ability Cost, roll, apply the row the chooser picks among those reached; return the roll."""
        t = self.t
        if a.released:
            f, bottom = a.top, a.sources[0] if a.sources else a.top
        else:
            f, bottom = a.familiars[-1], a.familiars[0]
        self.fam_used[bottom] = self.turn
        self._spend(t.ability_cost[f])
        roll = self.chance.die(t.copy_codes[bottom][0], self.turn)  # keyed by familiar and turn (G7)
        reached = [r for r in rows if r[1] <= roll]  # rows are sorted by die
        k = -1
        if reached:
            k = self.chooser.familiar_row(self, a, reached)
            if type(k) is not int or not 0 <= k < len(reached):
                raise EngineError(f"the policy picked familiar ability row {k!r} of {len(reached)}")
        if self.record is not None:
            self.record.append({
                "event": "familiar_ability", "card": f, "holder": -1 if a.released else a.top, "space": a.space,
                "cost": t.ability_cost[f], "ap": self.ap, "roll": roll,
                "row": None if k < 0 else [reached[k][0], reached[k][1], [list(e) for e in reached[k][2]], reached[k][3]],
                "reached": len(reached)})
        if k >= 0:
            self._apply_row(a, f, reached[k])
        return roll

    # ---- the effects ----------------------------------------------------------------------

    def _apply_row(self, a: Ally, f: int, row: FamiliarRow) -> None:
        """Apply one row's effects for familiar card `f` (A4); count the ones not simulated (C5)."""
        effects = row[2]
        self.skipped += row[3]
        target: Ally | None = None
        if any(op == FX_HP or op == FX_MP for op, _, _ in effects):
            target = self._row_target(a, effects)
        t = self.t
        for op, amount, arg in effects:
            if op == FX_HP:
                if target is not None:
                    self._set_hp(target, min(target.hp + amount, t.cost[target.top]))
                    if self.record is not None:
                        self.record.append({"event": "heal", "card": target.top, "space": target.space,
                                            "hp": target.hp})
            elif op == FX_MP:
                p = -1 if target is None else self._mp_card(target)
                if target is not None and p >= 0:
                    target.sources.insert(0, self.standby.pop(p))  # under the stack (M6)
                    if self.record is not None:
                        self.record.append({"event": "mp", "card": target.sources[0], "onto": target.top,
                                            "space": target.space})
            elif op == FX_TROOP:
                self._troop(t.level[f])
            elif op == FX_WEAPON:
                p = self._weapon_card(arg)
                if p >= 0:
                    self.hand.append(self.standby.pop(p))
                    if self.record is not None:
                        self.record.append({"event": "fetch", "card": self.hand[-1]})
            elif op == FX_EVOLUTION:
                p = self._evolution_card(a)
                if p >= 0:
                    self._put_evolution(a, self.summoning.pop(p))
                    if self.record is not None:
                        self._note_evolution("summoning", a)
            elif op == FX_DRAW:
                held, stronghold = len(self.hand), self.sh_top
                self._draw(amount)
                if self.record is not None:
                    self._note_draw("familiar", held, stronghold)
            else:  # FX_GAIN_AP
                self.ap += amount
                self.m_ability_ap += amount
                if self.record is not None:
                    self.record.append({"event": "gain_ap", "gain": amount, "ap": self.ap})

    def _row_candidates(self, a: Ally) -> list[Ally]:
        """The allies a row's HP and MP may target: the holder (if Contracted) and the allies in the
        familiar's surroundings, the eight spaces around it (A4; Quick Start I, Q&A)."""
        out = [] if a.released else [a]
        if a.space != COMMAND_ZONE:
            occ = self.occupant
            for d in self.t.board.surroundings[a.space]:
                b = occ[d]
                if b is not None and type(b) is Ally:  # an opponent's Enemy is no ally (G4)
                    out.append(b)
        return out

    def _row_target(self, a: Ally, effects: tuple[tuple[int, int, int], ...]) -> Ally | None:
        """The one target of a row's HP and MP: where the most of them do something (first of equals)."""
        best, most = None, -1
        cost = self.t.cost
        for b in self._row_candidates(a):
            n = 0
            for op, _, _ in effects:
                if op == FX_HP and b.hp < cost[b.top] or op == FX_MP and self._mp_card(b) >= 0:
                    n += 1
            if n > most:
                best, most = b, n
        return best

    def _mp_card(self, b: Ally) -> int:
        """The Standby Zone position of the highest-level card of ally `b`'s name, or -1 (MP)."""
        t = self.t
        if b.released or t.kind[b.top] == NAMELESS:
            return -1
        nid = t.name_id[b.top]
        best = -1
        for p, c in enumerate(self.standby):
            if t.name_id[c] == nid and t.kind[c] != NAMELESS and (
                    best < 0 or t.level[c] > t.level[self.standby[best]]):
                best = p
        return best

    def _weapon_card(self, weapon: int) -> int:
        """The Standby Zone position of the card of `weapon` to fetch, or -1."""
        t = self.t
        return self._best_card([c for c in self.standby if t.weapon[c] == weapon], self.standby)

    def _best_card(self, cards: list[int], zone: list[int] | None = None) -> int:
        """The card to keep among `cards`: one that can Grow or Focus now, else the highest level.

        Return its position in `zone` (default: in `cards`), or -1 when there is none.
        """
        if not cards:
            return -1
        t = self.t
        best = max(cards, key=lambda c: (self.stack_target(c) is not None, t.level[c], -c))
        return (cards if zone is None else zone).index(best)

    def _troop(self, x: int) -> None:
        """Troop: look at the top `x` cards of the Stronghold, keep one, the rest to the bottom."""
        sh = self._stronghold_top(x)
        bottom = self.sh_bottom
        seen: list[int] = []
        while len(seen) < x and sh:
            seen.append(sh.pop())
        while len(seen) < x and bottom:
            seen.append(bottom.pop(0))
        if not seen:
            return
        looked = len(seen)
        self.hand.append(seen.pop(self._best_card(seen)))
        # "in any order": a random one (engine decision), from the shuffle stream (G7)
        bottom += self.chance.reshuffle(seen, self.t.copy_codes)
        if self.record is not None:
            self.record.append({"event": "troop", "looked": looked, "card": self.hand[-1],
                                "bottom": bottom[len(bottom) - len(seen):]})

    def _evolution_card(self, a: Ally) -> int:
        """The Summoning Zone position of the evolved form of `a`'s familiar, or -1 (Evolution)."""
        t = self.t
        if a.released:
            current, cap = a.top, 99
        else:
            current, cap = a.familiars[-1], t.level[a.top]  # U4
        nid = t.name_id[current]
        best = -1
        for p, f in enumerate(self.summoning):
            if t.evolves_from[f] == nid and t.level[f] <= cap and (
                    best < 0 or t.level[f] > t.level[self.summoning[best]]):
                best = p
        return best

    # ---- for policies ----------------------------------------------------------------------

    def familiar_row_gain(self, a: Ally, row: FamiliarRow) -> int:
        """Weigh what `row` would change now for ally `a`'s familiar (0: nothing the engine runs).

        Evolution 4, Troop 3, a weapon fetch 2, each card drawn 2, MP 1, HP 1, each AP 1, each
        counted only when it would do something.
        """
        effects = row[2]
        target: Ally | None = None
        if any(op == FX_HP or op == FX_MP for op, _, _ in effects):
            target = self._row_target(a, effects)
        gain = 0
        for op, amount, arg in effects:
            if op == FX_HP:
                works = target is not None and target.hp < self.t.cost[target.top]
            elif op == FX_MP:
                works = target is not None and self._mp_card(target) >= 0
            elif op == FX_TROOP:
                works = self.stronghold_count() > 0 or bool(self.sh_bottom)
            elif op == FX_WEAPON:
                works = self._weapon_card(arg) >= 0
            elif op == FX_EVOLUTION:
                works = self._evolution_card(a) >= 0
            elif op == FX_DRAW:
                gain += amount * _GAIN[FX_DRAW]
                continue
            else:  # FX_GAIN_AP
                gain += amount
                continue
            if works:
                gain += _GAIN[op]
        return gain
