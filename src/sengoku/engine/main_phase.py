"""Main Phase actions (M1-M5): Deployment, Growth, Focus, Move and Swap."""

from __future__ import annotations

from typing import Any

from sengoku.engine.abilities import Abilities
from sengoku.engine.ally import Ally
from sengoku.engine.board import COMMAND_ZONE
from sengoku.engine.constants import MAIN_PHASE
from sengoku.engine.errors import IllegalAction
from sengoku.engine.tables import FOCUS, GROWTH, NAMELESS, STACK_NAMING, STACK_TRIGGERS
from sengoku.engine.zones import Checked, remove_ally


class MainPhase(Abilities):
    """M1-M5, each a `can_<action>` that gives the reason it is illegal (or None) and the action."""

    __slots__ = ()

    # ---- M1 Deployment -----------------------------------------------------------------------

    def can_deploy(self, pos: Checked, dest: Checked) -> str | None:
        """Say why hand card `pos` cannot be deployed to `dest` (a space or COMMAND_ZONE), or None (M1)."""
        if self.phase != MAIN_PHASE:
            return "Deployment happens in the Main Phase (T4)"
        hand = self.hand
        if type(pos) is not int:
            return f"no hand card number {pos!r}"
        p: int = pos  # (checked: compiled, machine ints from here on)
        if not 0 <= p < len(hand):
            return f"no hand card number {pos!r}"
        t = self.t
        c = hand[p]
        cost = t.cost[c]
        if self.ap < cost:
            return f"deploying costs {cost} AP, {self.ap} AP available (M1)"
        if type(dest) is not int:
            return f"space {dest!r} is not a Stronghold Perimeter space (M1)"
        d: int = dest
        if d == COMMAND_ZONE:
            if t.level[c] != 1:
                return "only Level 1 cards may be deployed to the Command Zone (M1)"
            if self.command_zone is not None:
                return "the Command Zone is taken (M1)"
        elif not 0 <= d < t.board.n_spaces or not t.board.is_perimeter[d]:
            return f"space {dest!r} is not a Stronghold Perimeter space (M1)"
        elif self.occupant[d] is not None:
            return f"space {d} is taken (M1)"
        elif t.kind[c] != NAMELESS and self.by_name[t.name_id[c]] is not None:
            return f"an ally named {t.name[c]!r} is already on the Battlefield (M1)"
        return None

    def deploy(self, pos: Checked, dest: Checked) -> Ally:
        """Pay the deployment cost of hand card `pos` and place it on `dest` with 1 HP (M1); return the ally."""
        why = self.can_deploy(pos, dest)
        if why is not None:
            raise IllegalAction(why)
        p: int = pos  # (checked: compiled, machine ints from here on)
        d: int = dest
        t = self.t
        c = self.hand.pop(p)
        if self.hand_used:
            self._hand_left(c)
        cost = t.cost[c]
        self.ap -= cost
        self.m_spent += cost
        ally = self._enter(c, d)
        if self.record is not None:
            self.record.append({"event": "deploy", "card": c, "space": d, "cost": cost, "ap": self.ap})
        if d != COMMAND_ZONE and t.has_deploy_trigger[c]:  # BF abilities fire on the field only
            self._trigger(t.on_deploy[c], ally)
            self.skipped += t.skip_deploy[c]
        return ally

    # ---- M2 Growth, M3 Focus -----------------------------------------------------------------

    def can_stack(self, pos: Checked, i: Any, kind: Checked = None) -> str | None:
        """Say why hand card `pos` cannot Grow/Focus onto ally `i`, or None (M2, M3).

        `kind` GROWTH or FOCUS asks for that action only; None accepts either.
        """
        found = self._check_stack(pos, i, kind)
        return found if isinstance(found, str) else None

    def _check_stack(self, pos: Checked, i: Any, kind: Checked) -> Ally | str:
        """Return the ally that hand card `pos` may Grow/Focus onto, or the reason it may not (M2, M3)."""
        if self.phase != MAIN_PHASE:
            return "Growth and Focus happen in the Main Phase (T4)"
        hand = self.hand
        if type(pos) is not int:
            return f"no hand card number {pos!r}"
        p: int = pos  # (checked: compiled, a machine int from here on)
        if not 0 <= p < len(hand):
            return f"no hand card number {pos!r}"
        c = hand[p]
        a = self._ally(i)
        if a is None:
            return f"no ally {i!r} in play"
        # The stacking table has no entry under a familiar (a Released one included): one lookup
        # checks the relation (M2, M3) and the kind asked for.
        info = self.t.stack_rows[a.top][c]
        if info is None or (kind is not None and info[0] != kind):
            return self._no_stack(a, c, kind)
        if info[4] & STACK_NAMING and a.space != COMMAND_ZONE and self.by_name[self.t.name_id[c]] is not None:
            # M1: the Nameless would take a name already on the Battlefield.
            return f"an ally named {self.t.name[c]!r} is already on the Battlefield (M1)"
        return a

    def stack(self, pos: Checked, i: Any, kind: Checked = None) -> int:
        """Grow (M2) or Focus (M3) hand card `pos` onto ally `i`; return GROWTH or FOCUS."""
        a = self._check_stack(pos, i, kind)
        if isinstance(a, str):
            raise IllegalAction(a)
        top = a.top
        p: int = pos  # (an int: checked above)
        c = self.hand.pop(p)
        if self.hand_used:
            self._hand_left(c)
        info = self.t.stack_rows[top][c]
        assert info is not None  # (_check_stack found it)
        rel, cap, level, gain, special = info
        a.sources.append(top)  # M6: the old top becomes a growth source
        a.top = c  # A1: the abilities the ally used this turn stay used
        hp = a.hp
        if rel == GROWTH:
            if hp < cap:  # M2: +1 HP, never above the new max
                a.hp = hp + 1
                self.hp_total += 1
            if level > self.top_level:
                self.top_level = level
        elif hp > cap:
            a.hp = cap
            self.hp_total += cap - hp
        self.ap += gain  # M2/M3 Decision: the charge value of the new top card
        self.m_growth_focus += gain
        if self.record is not None:
            self.record.append({"event": "growth" if rel == GROWTH else "focus", "card": c, "onto": top,
                                "space": a.space, "hp": a.hp, "gain": gain, "ap": self.ap})
        if special:
            t = self.t
            if special & STACK_NAMING:  # the Nameless takes the new card's name
                remove_ally(self.nameless, a)
                if a.space != COMMAND_ZONE:
                    self.by_name[t.name_id[c]] = a
                else:
                    self._set_command_zone(a)  # (the name it bears changed)
            if special & STACK_TRIGGERS and a.space != COMMAND_ZONE:
                # "On Growth" and "on Growth in the Frontline" are one trigger timing (A2).
                self.skipped += t.skip_growth[c]
                if t.board.is_frontline[a.space]:
                    self._trigger(t.on_growth[c] + t.on_growth_frontline[c], a)
                    self.skipped += t.skip_growth_frontline[c]
                else:
                    self._trigger(t.on_growth[c], a)
        return rel

    def _no_stack(self, a: Ally, c: int, kind: int | None) -> str:
        """Say why card `c` cannot Grow/Focus onto ally `a` (M2, M3)."""
        if a.released:
            return "a Released familiar cannot Grow or Focus (M2, M3)"
        t = self.t
        top = a.top
        what = {GROWTH: "Grow", FOCUS: "Focus"}.get(kind, "Grow or Focus")  # type: ignore[arg-type]
        return f"{t.name[c]!r} (Level {t.level[c]}) cannot {what} onto {t.name[top]!r} (Level {t.level[top]}) (M2, M3)"

    def can_grow(self, pos: Checked, i: Any) -> str | None:
        """Say why hand card `pos` cannot Grow onto ally `i`, or None (M2)."""
        return self.can_stack(pos, i, GROWTH)

    def grow(self, pos: Checked, i: Any) -> None:
        """Grow: hand card `pos` (same name, higher level) goes on top of ally `i` (M2)."""
        self.stack(pos, i, GROWTH)

    def can_focus(self, pos: Checked, i: Any) -> str | None:
        """Say why hand card `pos` cannot Focus onto ally `i`, or None (M3)."""
        return self.can_stack(pos, i, FOCUS)

    def focus(self, pos: Checked, i: Any) -> None:
        """Focus: hand card `pos` (same name and level) goes on top of ally `i` (M3)."""
        self.stack(pos, i, FOCUS)

    # ---- M4 Move, M5 Swap --------------------------------------------------------------------

    def can_move(self, i: Any, dest: Checked) -> str | None:
        """Say why ally `i` cannot Move to space `dest`, or None (M4)."""
        found = self._check_move(i, dest)
        return found if isinstance(found, str) else None

    def _check_move(self, i: Any, dest: Checked) -> Ally | str:
        """Return ally `i` if it may Move to space `dest`, else the reason it may not (M4)."""
        if self.phase != MAIN_PHASE:
            return "Move happens in the Main Phase (T4)"
        a = self._ally(i)
        if a is None:
            return f"no ally {i!r} in play"
        if a.defending:
            return "only an ally in Attack Stance may Move (M4)"
        if self.ap < 1:
            return "Move costs 1 AP (M4)"
        board = self.t.board
        if type(dest) is not int:
            return f"no space {dest!r} to move to (the Command Zone is never re-entered, M4)"
        d: int = dest  # (checked: compiled, a machine int from here on)
        if not 0 <= d < board.n_spaces:
            return f"no space {dest!r} to move to (the Command Zone is never re-entered, M4)"
        if self.occupant[d] is not None:
            return f"space {dest} is taken (M4)"
        pos = a.space
        if pos == COMMAND_ZONE:
            if not board.is_perimeter[dest]:
                return "from the Command Zone an ally moves onto the Stronghold Perimeter (M4)"
            t = self.t
            if t.kind[a.top] != NAMELESS and self.by_name[t.name_id[a.top]] is not None:
                return f"an ally named {t.name[a.top]!r} is already on the Battlefield (M1)"
        elif d not in board.neighbours[pos]:
            return f"space {dest} is not one orthogonal step from space {pos} (M4)"
        return a

    def move(self, i: Any, dest: Checked) -> None:
        """Pay 1 AP: ally `i` moves one orthogonal step, or from the Command Zone to the Perimeter (M4)."""
        a = self._check_move(i, dest)
        if isinstance(a, str):
            raise IllegalAction(a)
        d: int = dest  # (an int: checked above)
        if a.space == COMMAND_ZONE:
            self._set_command_zone(None)
            t = self.t
            if t.kind[a.top] != NAMELESS:
                self.by_name[t.name_id[a.top]] = a  # onto the Battlefield (M1)
        else:
            self.occupant[a.space] = None
        if self.record is not None:
            self.record.append({"event": "move", "card": a.top, "from": a.space, "to": dest, "cost": 1,
                                "ap": self.ap - 1})
        self.occupant[d] = a
        a.space = d
        self.ap -= 1
        self.m_spent += 1

    def can_swap(self, i: Any, j: Any) -> str | None:
        """Say why allies `i` and `j` cannot Swap, or None (M5)."""
        if self.phase != MAIN_PHASE:
            return "Swap happens in the Main Phase (T4)"
        a, b = self._ally(i), self._ally(j)
        if a is None or b is None or a is b:
            return f"bad allies {i!r}, {j!r}"
        if a.defending or b.defending:
            return "both allies must be in Attack Stance (M5)"
        if a.space == COMMAND_ZONE or b.space == COMMAND_ZONE:
            return "only allies on the field swap (M5)"
        if b.space not in self.t.board.neighbours[a.space]:
            return "the allies are not orthogonally adjacent (M5)"
        if self.ap < 2:
            return "Swap costs 2 AP (M5)"
        return None

    def swap(self, i: Any, j: Any) -> None:
        """Pay 2 AP: two adjacent allies in Attack Stance trade spaces (M5)."""
        why = self.can_swap(i, j)
        if why is not None:
            raise IllegalAction(why)
        a, b = self._ally(i), self._ally(j)
        assert a is not None and b is not None
        a.space, b.space = b.space, a.space
        self.occupant[a.space] = a
        self.occupant[b.space] = b
        self._spend(2)
        if self.record is not None:
            self.record.append({"event": "swap", "card": a.top, "space": a.space, "other": b.top,
                                "other_space": b.space, "cost": 2, "ap": self.ap})
