"""Setup (S1-S7): the Commander, the Nameless, the Stronghold, the opening hand and starting AP."""

from __future__ import annotations

import random
from typing import Any

from sengoku.engine.ally import Ally, Enemy
from sengoku.engine.board import COMMAND_ZONE, OFF_OUR_BOARD
from sengoku.engine.chance import OWN_PART, Chance
from sengoku.engine.chooser import Chooser
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

    def __init__(self, tables: DeckTables, chance: Chance | random.Random, going_first: bool = True,
                 commander: int | None = None, opponent: DeckTables | None = None,
                 opponent_defends: bool = False, record: list[dict[str, Any]] | None = None,
                 copy: bool = False):
        """Set the game up (S1-S7), against `opponent`'s deck (None: a mirror of this one, G4).

        `chance` is the game's `Chance` (seeded by its owner before each setup), or a
        `random.Random` from which each setup draws the game's seeds. `record` (G8): a list that
        receives the game's events as they happen (see `sengoku.trace`), or None to record nothing.
        `copy`: no setup at all, for `sengoku.engine.clone`, which then sets every other field (and
        `opponent` must then be given).
        """
        self.record = record
        t = self.t = tables
        self.chance = chance if isinstance(chance, Chance) else Chance(chance)
        self.going_first = going_first
        if copy and opponent is not None:
            self.commander = commander if commander is not None else -1
            self.chooser = Chooser()
            self.opp_t = opponent
            self.opp_defends = opponent_defends
            return
        self.commander = checked_commander(t, commander)
        self.chooser = Chooser()
        self._set_opponent(opponent if opponent is not None else t, opponent_defends)
        # The zone lists are made once: `setup` empties them in place, so a policy bound to this
        # state (`Policy.bind`) stays bound to every game played on it.
        self.hand = []
        self.fam_hand = []
        self.allies = []
        self.nameless = []
        self.occupant = [None] * t.board.n_spaces
        self.by_name = [None] * t.n_names
        self.sh_top, self.sh_unordered = [], None  # (no last game: `setup` orders the whole Stronghold)
        self.setup()

    def setup(self) -> None:
        """Start a new game on this state (S1-S7): same deck, seat, Commander and `Chance`.

        Every zone list keeps its identity (emptied in place); nothing of the last game remains.
        The chance starts anew (`Chance.new_game`): seed it for each game before calling this.
        """
        t = self.t
        commander = self.commander
        chance = self.chance
        chance.new_game()
        self.turn = 0
        self.phase = BETWEEN
        self.standby = []
        self.sh_bottom = []
        self.fam_used = [0] * t.n if t.ultimate else []  # turn 0 is before the first turn
        self.banish = []
        occupant, by_name = self.occupant, self.by_name
        # (element by element: a compiled slice assignment is a generic call, dearer than the loop)
        board = self.opp_board  # empty but for the enemies within our reach (G4)
        if len(occupant) == len(board) and len(by_name) == t.n_names:
            for i in range(len(board)):
                occupant[i] = board[i]
            for i in range(len(by_name)):
                by_name[i] = None
        else:
            occupant[:] = board
            by_name[:] = t.no_allies_by_name
        self.defended = False
        self.skipped = 0
        self.won_turn = None
        self.hp_charged = self.fam_charged = False
        self.hand_used = {}
        self.m_ap_main = self.m_charge_cards = self.m_growth_focus = self.m_spent = self.m_ability_ap = 0
        self.m_attacks = self.m_hits = self.m_lost = 0
        # S1: the Commander goes to the Command Zone; S3: the rest, shuffled, is the Stronghold
        # (G7: ordered by each card copy's key, so a copy's place does not depend on the other cards).
        # How much of it to order now (the order is the same either way): the part a game draws, but
        # all of it when the last game on this state drew past that part (a developing policy draws
        # about 40 of 50 cards; ordering it in one pass is cheaper than a part and then the rest).
        cards = t.commander_stronghold[commander]
        drew = len(cards) - self.stronghold_count()  # (the first game: as if all were drawn)
        self.sh_top, self.sh_unordered = chance.stronghold(cards, t.stronghold_lanes[commander],
                                                           len(cards) if drew > OWN_PART else HAND_LIMIT)
        cz = Ally(commander, 1, COMMAND_ZONE, 0)  # engine decision: 1 HP, as deployed (M1)
        self._set_command_zone(cz)  # not on the Battlefield: not in by_name (M1)
        allies = self.allies
        allies.clear()
        allies.append(cz)
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
        # S5: Stronghold HP (ours, and the opponent's, G4).
        self.sh_hp = STRONGHOLD_HP[t.ultimate]
        self.opp_sh_hp = STRONGHOLD_HP[self.opp_t.ultimate]
        # G4: the opponent's Commander back in its Command Zone; its Stronghold is shuffled and its
        # hand drawn when its first Last Guard is revealed (Attack._reveal_last_guard): no draw of
        # ours depends on them, so a game that never attacks plays as if it had no opponent.
        cmd = self.opp_allies[0]
        cmd.space = COMMAND_ZONE
        self.opp_commander = cmd
        self.opp_stronghold = None
        self.opp_unordered = None
        self.opp_standby = []
        self.opp_hand = []
        # S6: draw 5, no mulligan.
        self.hand.clear()
        self._draw(HAND_LIMIT)
        self.opening_hand = tuple(self.hand)
        # S7: starting AP.
        self.ap = STARTING_AP[self.going_first]
        if self.record is not None:
            self.record.append({
                "event": "setup", "commander": commander, "nameless": [(a.top, a.space) for a in allies[1:]],
                "hand": list(self.opening_hand), "familiar_hand": list(self.fam_hand), "ap": self.ap,
                "going_first": self.going_first, "stronghold": self.stronghold_count(), "hp": self.sh_hp,
                "opponent_hp": self.opp_sh_hp, "opponent": [(e.top, e.space) for e in self.opp_allies],
                "opponent_defends": self.opp_defends})

    def _set_opponent(self, ot: DeckTables, defends: bool) -> None:
        """Seat the goldfish opponent (G4): its Commander (S1's decision) and its Nameless (S2) on
        its Stronghold Perimeter in the board file's order; they never act, but occupy spaces."""
        self.opp_t = ot
        self.opp_defends = defends
        cmd = Enemy(choose_commander(ot), 1, COMMAND_ZONE, 0)
        self.opp_allies = [cmd]
        board: list[Ally | None] = list(self.t.no_allies_on_board)
        for c, space in zip(ot.nameless_indices, self.t.board.enemy_perimeter):
            enemy = Enemy(c, 1, space, 0)
            self.opp_allies.append(enemy)
            if space != OFF_OUR_BOARD:
                board[space] = enemy
        self.opp_board = board
        self.opp_commander = cmd
