"""Ultimate Mode (U2-U5): familiars reaching the hand, Contract, Evolution and Release."""

from __future__ import annotations

from typing import Any

from sengoku.engine.ally import Ally
from sengoku.engine.board import COMMAND_ZONE
from sengoku.engine.constants import MAIN_PHASE, SUMMONING_LIMIT
from sengoku.engine.errors import IllegalAction
from sengoku.engine.main_phase import MainPhase
from sengoku.engine.zones import Checked


class Ultimate(MainPhase):
    """U2-U5: `stronghold_damaged`, and Contract, Evolution and Release with their `can_` twins."""

    __slots__ = ()

    def _familiar_hand_action(self, action: str, rule: str, fpos: Any, i: Any) -> tuple[str | None, Ally | None]:
        """Check what Contract and Evolution share; return (why not, None) or (None, the ally `i`)."""
        if not self.t.ultimate:
            return f"{action} exists only in Ultimate Mode ({rule})", None
        if self.phase != MAIN_PHASE:
            return f"{action} happens in the Main Phase (T4)", None
        if type(fpos) is not int or not 0 <= fpos < len(self.fam_hand):
            return f"no familiar hand card number {fpos!r}", None
        a = self._ally(i)
        if a is None:
            return f"no ally {i!r} in play", None
        return None, a

    def can_contract(self, fpos: Checked, i: Any) -> str | None:
        """Say why familiar hand card `fpos` cannot be contracted to ally `i`, or None (U3)."""
        why, a = self._familiar_hand_action("Contract", "U3", fpos, i)
        if a is None:
            return why
        t = self.t
        f = self.fam_hand[fpos]
        if a.released:
            return "a Released familiar cannot hold a Contract (Quick Start II Q&A)"
        if a.defending:
            return "the Contract Holder must be in Attack Stance (U3)"
        if a.familiars:
            return "one familiar per character (U3)"
        if t.level[f] > t.level[a.top]:
            return f"a Level {t.level[f]} familiar cannot contract with a Level {t.level[a.top]} character (U3)"
        if self.ap < t.cost[f]:
            return f"the Contract costs {t.cost[f]} AP, {self.ap} AP available (U3)"
        return None

    def contract(self, fpos: Checked, i: Any) -> None:
        """Pay the contract cost: familiar hand card `fpos` goes under ally `i` (U3)."""
        why = self.can_contract(fpos, i)
        if why is not None:
            raise IllegalAction(why)
        a = self._ally(i)
        assert a is not None
        f = self.fam_hand.pop(fpos)
        self._spend(self.t.cost[f])
        a.familiars.append(f)
        if self.record is not None:
            self.record.append({"event": "contract", "card": f, "holder": a.top, "space": a.space,
                                "cost": self.t.cost[f], "ap": self.ap})

    def can_evolve(self, fpos: Checked, i: Any) -> str | None:
        """Say why familiar hand card `fpos` cannot evolve ally `i`'s familiar, or None (U4)."""
        why, a = self._familiar_hand_action("Evolution", "U4", fpos, i)
        if a is None:
            return why
        t = self.t
        f = self.fam_hand[fpos]
        if a.released:
            current = a.top
        else:
            if not a.familiars:
                return "the ally holds no familiar (U4)"
            if not a.defending:
                return "the Contract Holder must be in Defense Stance (U4)"
            current = a.familiars[-1]
            if t.level[f] > t.level[a.top]:
                return "a familiar cannot evolve above its Contract Holder's Level (U4)"
        if t.evolves_from[f] != t.name_id[current]:
            return f"{t.name[f]!r} does not evolve from {t.name[current]!r} (U4)"
        return None

    def evolve(self, fpos: Checked, i: Any) -> None:
        """Evolve ally `i`'s familiar (or the Released familiar `i`) with familiar hand card `fpos` (U4)."""
        why = self.can_evolve(fpos, i)
        if why is not None:
            raise IllegalAction(why)
        a = self._ally(i)
        assert a is not None
        self._put_evolution(a, self.fam_hand.pop(fpos))
        if self.record is not None:
            self._note_evolution("hand", a)

    def _put_evolution(self, a: Ally, f: int) -> None:
        """Put familiar card `f` on top of ally `a`'s familiar (or the Released familiar `a`) (U4)."""
        t = self.t
        if a.released:  # Quick Start II §7: +HP equal to the new card's charge value, capped
            old = a.top
            a.sources.append(old)
            a.top = f
            self.by_name[t.name_id[old]] = None
            self.by_name[t.name_id[f]] = a
            self._set_hp(a, min(a.hp + t.charge[f], t.cost[f]))
            if t.level[f] > self.top_level:
                self.top_level = t.level[f]
        else:
            a.familiars.append(f)

    def _note_evolution(self, source: str, a: Ally) -> None:
        """Record an Evolution (G8): `source` "hand" or "summoning" (a familiar ability's row)."""
        assert self.record is not None
        fam = a.sources if a.released else a.familiars
        self.record.append({"event": "evolution", "from": source, "card": a.top if a.released else fam[-1],
                            "onto": fam[-1] if a.released else fam[-2], "holder": -1 if a.released else a.top,
                            "space": a.space, "hp": a.hp})

    def can_release(self, i: Any, dest: Checked, move_holder: Checked = False) -> str | None:
        """Say why ally `i`'s familiar cannot be Released by a step to `dest`, or None (U5)."""
        if not self.t.ultimate:
            return "Release exists only in Ultimate Mode (U5)"
        if self.phase != MAIN_PHASE:
            return "Release happens in the Main Phase (T4)"
        a = self._ally(i)
        if a is None:
            return f"no ally {i!r} in play"
        t = self.t
        if a.released or not a.familiars:
            return "the ally holds no familiar (U5)"
        if t.is_egg[a.familiars[-1]]:
            return "a Familiar Egg cannot be Released (U5)"
        if self.ap < 1:
            return "Release costs 1 AP (U5)"
        board = t.board
        if type(dest) is not int or not 0 <= dest < board.n_spaces or self.occupant[dest] is not None:
            return f"space {dest!r} is not an empty space (U5)"
        pos = a.space
        if move_holder:
            if a.defending:
                return "the Contract Holder moves only from Attack Stance (U5)"
            if pos == COMMAND_ZONE:
                return "a familiar cannot stay in the Command Zone (Quick Start II §7)"
        if pos == COMMAND_ZONE:
            if not board.is_perimeter[dest]:
                return "from the Command Zone the familiar steps onto the Stronghold Perimeter (engine decision)"
        elif dest not in board.neighbours[pos]:
            return f"space {dest} is not one orthogonal step from space {pos} (U5)"
        return None

    def release(self, i: Any, dest: Checked, move_holder: Checked = False) -> Ally:
        """Pay 1 AP: the holder (or its familiar) steps to `dest`; the familiar is Released (U5)."""
        why = self.can_release(i, dest, move_holder)
        if why is not None:
            raise IllegalAction(why)
        a = self._ally(i)
        assert a is not None
        fam = a.familiars
        a.familiars = []
        self._spend(1)
        if move_holder:
            old = a.space
            self.occupant[old] = None
            self.occupant[dest] = a
            a.space = dest
            released = self._release_stack(fam, old)
        else:
            released = self._release_stack(fam, dest)
        if self.record is not None:
            self.record.append({"event": "release", "card": released.top, "holder": a.top,
                                "space": released.space, "holder_space": a.space, "moved_holder": bool(move_holder),
                                "hp": released.hp, "cost": 1, "ap": self.ap})
        return released

    def stronghold_damaged(self, amount: Checked, picks: Checked = None) -> list[int]:
        """Our Stronghold takes `amount` combat damage (U2): take familiars from the Summoning Zone.

        Each taken familiar's contract cost is at most 10 minus the remaining HP. `picks` are
        Summoning Zone positions; None takes the eligible ones in zone order. Return the cards taken.
        A refused call (bad amount or picks) raises IllegalAction before anything changes.
        """
        if type(amount) is not int or amount < 0:
            raise IllegalAction(f"combat damage is a whole number ≥ 0, not {amount!r} (U2)")
        hp = max(0, self.sh_hp - amount)
        if not self.t.ultimate:
            if picks:
                raise IllegalAction("familiars exist only in Ultimate Mode (U2)")
            self.sh_hp = hp
            return []
        limit = SUMMONING_LIMIT - hp
        cost = self.t.cost
        eligible = [p for p, f in enumerate(self.summoning) if cost[f] <= limit]
        if picks is None:
            picks = eligible[:amount]
        elif (not isinstance(picks, (list, tuple)) or len(picks) > amount
              or any(type(p) is not int for p in picks) or len(set(picks)) != len(picks)
              or not set(picks) <= set(eligible)):
            raise IllegalAction(f"take at most {amount} familiars with contract cost ≤ {limit} (U2)")
        self.sh_hp = hp
        taken = [self.summoning[p] for p in picks]
        for p in sorted(picks, reverse=True):
            self.summoning.pop(p)
        self.fam_hand.extend(taken)
        return taken
