"""Setup (S1-S7): the Commander, the Nameless, the Stronghold, the opening hand and starting AP."""

from __future__ import annotations

import random

from sengoku.engine.ally import Ally
from sengoku.engine.board import COMMAND_ZONE
from sengoku.engine.constants import BETWEEN, HAND_LIMIT, STARTING_AP, STRONGHOLD_HP
from sengoku.engine.errors import EngineError
from sengoku.engine.tables import MAIN, DeckTables
from sengoku.engine.zones import Zones


def choose_commander(tables: DeckTables, name: str | None = None) -> int:
    """Return the Commander's card index (S1).

    With `name` (a card name, or a card id), that Level 1 Main card; otherwise the Level 1 Main
    card whose name has the most higher-level copies in the deck, ties to the lowest card id.
    """
    t = tables
    candidates = [i for i in range(t.n) if t.section[i] == "main" and t.kind[i] == MAIN and t.level[i] == 1]
    if name is not None:
        pinned = [i for i in candidates if t.name[i] == name or t.card_id[i] == name]
        if not pinned:
            known = ", ".join(sorted({t.name[i] for i in candidates})) or "none"
            raise EngineError(f"no Level 1 Main card named {name!r} in the deck to be the Commander "
                              f"(S1; candidates: {known})")
        return min(pinned, key=lambda i: t.card_id[i])
    if not candidates:
        raise EngineError("the deck has no Level 1 Main card to be the Commander (S1, D4)")

    def score(i: int) -> tuple[int, str]:
        higher = sum(t.count[j] for j in range(t.n)
                     if t.section[j] == "main" and t.name_id[j] == t.name_id[i] and t.level[j] > 1)
        return (-higher, t.card_id[i])

    return min(candidates, key=score)


def checked_commander(tables: DeckTables, commander: int | None) -> int:
    """Return the Commander's card index: S1's decision for None, else `commander` if it may be one."""
    if commander is None:
        return choose_commander(tables)
    if commander not in tables.commander_stronghold:
        raise EngineError(f"card index {commander!r} is not a Level 1 Main card of the deck (S1)")
    return commander


class Setup(Zones):
    """S1-S7: a state is set up on construction, and again by `setup()` for the next game."""

    __slots__ = ()

    def __init__(self, tables: DeckTables, rng: random.Random, going_first: bool = True,
                 commander: int | None = None):
        """Set the game up (S1-S7)."""
        t = self.t = tables
        self.rng = rng
        self.going_first = going_first
        self.commander = checked_commander(t, commander)
        # The zone lists are made once: `setup` empties them in place, so a policy bound to this
        # state (`Policy.bind`) stays bound to every game played on it.
        self.hand = []
        self.fam_hand = []
        self.allies = []
        self.nameless = []
        self.occupant = [None] * t.board.n_spaces
        self.by_name = [None] * t.n_names
        self.chooser = None
        self.setup()

    def setup(self) -> None:
        """Start a new game on this state (S1-S7): same deck, seat, Commander and random generator.

        Every zone list keeps its identity (emptied in place); nothing of the last game remains.
        """
        t = self.t
        commander = self.commander
        self.turn = 0
        self.phase = BETWEEN
        self.standby = []
        self.sh_bottom = []
        self.fam_used = [0] * t.n if t.ultimate else []  # turn 0 is before the first turn
        self.banish = []
        occupant, by_name = self.occupant, self.by_name
        occupant[:] = t.no_allies_on_board
        by_name[:] = t.no_allies_by_name
        self.defended = False
        self.skipped = 0
        self.won_turn = None
        self.hp_charged = self.fam_charged = False
        self.hand_used = set()
        self.m_ap_main = self.m_charge_cards = self.m_growth_focus = self.m_spent = self.m_ability_ap = 0
        # S1: the Commander goes to the Command Zone; S3: the rest is the Stronghold.
        self.stronghold = list(t.commander_stronghold[commander])
        cz = Ally(commander, 1, COMMAND_ZONE, 0)  # engine decision: 1 HP, as deployed (M1)
        self.command_zone = cz
        by_name[t.name_id[commander]] = cz
        allies = self.allies
        allies[:] = (cz,)
        nameless = self.nameless
        nameless.clear()
        # S2: the Nameless go to the Stronghold Perimeter, in the board file's order.
        for c, space in zip(t.nameless_indices, t.board.perimeter):
            a = Ally(c, 1, space, 0)
            allies.append(a)
            nameless.append(a)
            occupant[space] = a
        self.hp_total = len(allies)
        self.top_level = t.setup_level[commander]
        # S4: Ultimate Mode: one Familiar Egg (lowest card id) to hand, the rest to the Summoning Zone.
        if t.ultimate:
            self.fam_hand[:] = (t.first_egg,)
            self.summoning = list(t.familiars_after_egg)
        else:
            self.fam_hand.clear()
            self.summoning = []
        # S5: Stronghold HP (ours, and the mirror opponent's for K4).
        self.sh_hp = self.opp_sh_hp = STRONGHOLD_HP[t.ultimate]
        self.opp_stronghold = None
        self.opp_standby = []
        self.opp_hand = []
        # S6: draw 5, no mulligan.
        self.hand.clear()
        self._draw(HAND_LIMIT)
        self.opening_hand = tuple(self.hand)
        # S7: starting AP.
        self.ap = STARTING_AP[self.going_first]
