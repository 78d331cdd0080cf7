"""Familiar abilities (A4, Quick Start II §9) on hand-worked positions.

The die is the game's dice stream (G7): `Dice` makes the next rolls whatever a test says, and
rolls on from the game's seeds after them.
"""

from __future__ import annotations

import random

import pytest

from sengoku.engine import EngineError, IllegalAction, compile_deck
from sengoku.engine.actions import Action, Kind
from sengoku.engine.ally import Enemy
from sengoku.engine.chance import Chance
from sengoku.engine.combat import ATTACKER_HIGHER, GUARD_HIGHER
from sengoku.engine.policies import GreedyPolicy, Policy
from sengoku.engine.state import BETWEEN

from .conftest import BASIC, BASIC_DECK, fam, make_db, position, space

MP, HP, TROOP, EVO = {"op": "mp"}, {"op": "hp"}, {"op": "troop"}, {"op": "evolution"}
BOW = {"op": "weapon", "weapon": "bow"}
FIRE, BURN, CURE = {"op": "damage", "amount": 1}, {"op": "ailment", "ailment": "burn"}, {"op": "cure"}


def row(category: str, die: int, *effects: dict) -> dict:
    return {"name": category, "category": category, "die": die, "text": "-", "effect": list(effects)}


def with_rows(card: dict, cost: int, *rows: dict) -> dict:
    return {**card, "abilities": list(rows), "ability_cost": cost}


FAMILIARS = [
    # The guide's example, one row per roll: MP on 1, MP and Troop on 3, Evolution on 4; Fire 1
    # on 2, Fire 1 and Burn on 3 (Quick Start II §9).
    with_rows(fam("E1", "Stone", 1, 2, 1, egg=True), 1,
              row("support", 1, MP), row("support", 3, MP, TROOP), row("evolution", 4, EVO)),
    with_rows(fam("F2", "Bee", 2, 4, 1, evolves_from="Stone", atk=3), 2,
              row("support", 1, HP), row("support", 2, BOW), row("support", 3, HP, TROOP),
              row("combat", 2, FIRE), row("combat", 3, FIRE, BURN), row("evolution", 5, EVO)),
    with_rows(fam("F3", "Hornet", 3, 7, 2, evolves_from="Bee", atk=7), 3, row("support", 4, CURE)),
    fam("K1", "Kodama", 1, 3, 1),  # no ability at all
]


@pytest.fixture(scope="module")
def ult(board):
    deck = {**BASIC_DECK, "familiars": {f["id"]: 1 for f in FAMILIARS}}
    return compile_deck(make_db(BASIC + FAMILIARS), deck, "ultimate", board=board)


class Dice(Chance):
    """A game's chance whose next die rolls are these, then the dice stream's own."""

    def __init__(self, *rolls: int) -> None:
        super().__init__(random.Random(0))
        self.new_game()
        self.planted = list(rolls)

    def die(self, code: int = 0, turn: int = 0) -> int:
        if self.planted:
            return self.planted.pop(0)
        return super().die(code, turn)


class Picks(Policy):
    """Record the rows offered; pick the one with `die` (or the first)."""

    def __init__(self, die: int | None = None) -> None:
        self.die = die
        self.offered: list[list[tuple[int, int]]] = []

    def familiar_row(self, state, ally, rows):
        self.offered.append([(r[0], r[1]) for r in rows])
        dice = [r[1] for r in rows]
        return dice.index(self.die) if self.die in dice else 0


def ids(t, cards):
    return [t.card_id[c] for c in cards]


def holding(ult, familiars, *, holder="S2", ap=10, defending=True, at=(1, 2), rolls=(), **kw):
    """Soma (Level 2 unless `holder` says) on space `at`, holding `familiars` (bottom first)."""
    s = position(ult, ap=ap, turn=2, **kw)
    s.fam_hand = []
    s.summoning = [f for f in ult.familiar_indices if ult.card_id[f] not in familiars]
    a = s.command_zone
    s.command_zone = None
    a.space = space(s, *at)
    s.occupant[a.space] = a
    a.top = ult.index_of(holder)
    a.entered = 0
    a.familiars = [ult.index_of(f) for f in familiars]
    a.defending = s.defended = defending
    s.chance = Dice(*rolls)
    return s, s.allies.index(a), a


# ---- Contracted: an activated ability of the holder in Defense Stance -------------------------------

def test_a4_contracted_needs_the_holder_in_defense_stance(ult):
    s, i, a = holding(ult, ["E1"], defending=False)
    assert "Defense Stance" in s.can_use_familiar_ability(i)
    assert Action(Kind.USE_FAMILIAR_ABILITY, (i,)) not in s.legal_actions()
    with pytest.raises(IllegalAction, match="Defense Stance"):
        s.use_familiar_ability(i)
    a.defending = s.defended = True
    assert s.can_use_familiar_ability(i) is None
    assert Action(Kind.USE_FAMILIAR_ABILITY, (i,)) in s.legal_actions()


def test_a4_refusals(ult, basic):
    s, i, a = holding(ult, ["E1"], ap=0)
    assert "costs 1 AP, 0 AP available" in s.can_use_familiar_ability(i)
    s, i, a = holding(ult, ["K1"])
    assert "no Support or Evolution ability" in s.can_use_familiar_ability(i)
    s, i, a = holding(ult, [])
    assert "holds no familiar" in s.can_use_familiar_ability(i)
    s, i, a = holding(ult, ["E1"], phase=BETWEEN)
    assert "Main Phase" in s.can_use_familiar_ability(i)
    assert "Ultimate Mode" in position(basic).can_use_familiar_ability(0)


def test_a4_pay_the_cost_roll_and_pick_among_the_rows_the_roll_reaches(ult):
    # Roll 3: the Egg's Support rows on 1 and 3 are reached, its Evolution on 4 is not.
    s, i, a = holding(ult, ["E1"], ap=5, rolls=(3,))
    s.chooser = pick = Picks(die=1)
    assert s.use_familiar_ability(i) == 3
    assert s.ap == 4  # the Ability Cost, 1 AP
    assert pick.offered == [[(0, 1), (0, 3)]]  # (category support, die)
    # Roll 4: Evolution is reached too; a Contracted familiar never sees Combat rows.
    s, i, a = holding(ult, ["E1", "F2"], holder="S3", rolls=(6,))
    s.chooser = pick = Picks()
    s.use_familiar_ability(i)
    assert pick.offered == [[(0, 1), (0, 2), (0, 3), (2, 5)]]


def test_a4_a_roll_below_every_row_pays_and_does_nothing(ult):
    # Hornet's only row is Cure on 4. On a 3 the cost is paid and nothing happens.
    s, i, a = holding(ult, ["F3"], holder="S3", rolls=(3,))
    s.chooser = pick = Picks()
    skipped = s.skipped
    assert s.use_familiar_ability(i) == 3
    assert pick.offered == [] and s.ap == 7 and s.skipped == skipped
    # On a 4 the row is reached, and skipped: nothing to cure in a goldfish game (C5).
    s, i, a = holding(ult, ["F3"], holder="S3", rolls=(4,))
    s.use_familiar_ability(i)
    assert s.skipped == skipped + 1 and s.ap == 7


def test_a4_die_rows_must_be_reached(ult):
    # Bee's Evolution row needs a 5: on a 4 it is not offered, and the default chooser takes the
    # row that changes the most (HP and Troop on 3: the holder is hurt, the Stronghold holds a card).
    s, i, a = holding(ult, ["E1", "F2"], holder="S3", rolls=(4,), stronghold=("B1",))
    s.use_familiar_ability(i)
    assert ids(ult, a.familiars) == ["E1", "F2"]  # no Evolution
    assert ids(ult, s.hand) == ["B1"] and s.stronghold == []  # Troop took the one card


# ---- the effects ---------------------------------------------------------------------------------

def test_a4_hp_goes_to_the_target_that_needs_it_capped_at_max_hp(ult):
    s, i, a = holding(ult, ["E1", "F2"], holder="S3", rolls=(1, 1))
    s._set_hp(a, 7)  # Soma Level 3 at its max HP 7
    for n in s.nameless:  # the two Nameless, diagonally around the holder: at their max HP too
        s._set_hp(n, ult.cost[n.top])
    b = s.occupant[space(s, 1, 1)] = type(a)(ult.index_of("O2"), 1, space(s, 1, 1), 0)  # Oichi next to it
    s.allies.append(b)
    s.by_name[ult.name_id[b.top]] = b
    s.hp_total += 1
    s.use_familiar_ability(i)  # HP on 1
    assert a.hp == 7 and b.hp == 2  # the holder is full: the ally next to it gets the HP
    s.turn += 1
    s.use_familiar_ability(i)
    assert b.hp == 3
    s.turn += 1
    s.chance = Dice(1)
    s.use_familiar_ability(i)
    assert b.hp == 4 and s.hp_total == 7 + 4 + 2 + 3  # Oichi Level 2: max HP 4 (the Nameless: 2 and 3)
    s.turn += 1
    s.chance = Dice(1)
    s.use_familiar_ability(i)
    assert (a.hp, b.hp) == (7, 4)  # everyone full: HP changes nothing


def test_a4_mp_puts_a_same_name_card_from_the_standby_zone_under_the_target(ult):
    s, i, a = holding(ult, ["E1"], rolls=(1,), standby=("O1", "S1", "S3", "B2"))
    a.sources = [ult.index_of("S1")]
    s.use_familiar_ability(i)  # MP on 1
    assert ids(ult, a.sources) == ["S3", "S1"]  # the highest-level Soma, at the bottom (M6)
    assert ids(ult, s.standby) == ["O1", "S1", "B2"]


def test_a4_troop_keeps_one_of_the_top_x_the_rest_go_to_the_bottom_drawn_last(ult):
    # Bee is Level 2: Troop looks at 2 cards. With 2 in the Stronghold it sees both, keeps Soma
    # Level 3 (it can Grow onto the holder, Soma Level 2) and puts Benkei on the bottom.
    s, i, a = holding(ult, ["E1", "F2"], holder="S2", rolls=(3,), stronghold=("B1", "S3"),
                      standby=("O1", "O2"))
    s.chooser = Picks(die=3)
    s.use_familiar_ability(i)
    assert ids(ult, s.hand) == ["S3"] and s.stronghold == [] and ids(ult, s.sh_bottom) == ["B1"]
    s._draw(2)  # the bottom card comes before the Standby Zone is shuffled into the Stronghold (T3)
    assert ids(ult, s.hand)[:2] == ["S3", "B1"] and len(s.hand) == 3
    assert s.standby == [] and len(s.stronghold) == 1 and s.sh_bottom == []


def test_a4_troop_past_the_random_part_looks_at_the_bottom_and_puts_the_rest_under_it(ult):
    s, i, a = holding(ult, ["E1", "F2"], holder="S2", rolls=(3,), stronghold=("B2",))
    s.sh_bottom = [ult.index_of("O1"), ult.index_of("O2")]
    s.chooser = Picks(die=3)
    s.use_familiar_ability(i)
    # Seen: Benkei Level 2 (the random part), then Oichi Level 1 (the bottom's first). Oichi can
    # Focus onto the Nameless Miko (a female bow), Benkei cannot stack: Oichi is kept, though
    # lower; Benkei goes under Oichi Level 2.
    assert ids(ult, s.hand) == ["O1"]
    assert ids(ult, s.sh_bottom) == ["O2", "B2"] and s.stronghold == []


def test_a4_weapon_fetch_takes_a_card_of_that_weapon_from_the_standby_zone(ult):
    s, i, a = holding(ult, ["E1", "F2"], holder="S3", rolls=(2,), standby=("B1", "O1", "O3", "S4"))
    s.chooser = Picks(die=2)
    s.use_familiar_ability(i)  # bow: the Oichis; both could go onto the Nameless Miko: the higher
    assert ids(ult, s.hand) == ["O3"] and ids(ult, s.standby) == ["B1", "O1", "S4"]


def test_a4_evolution_takes_the_evolved_form_from_the_summoning_zone(ult):
    s, i, a = holding(ult, ["E1"], rolls=(4,))
    s.chooser = Picks(die=4)
    s.use_familiar_ability(i)
    assert ids(ult, a.familiars) == ["E1", "F2"] and "F2" not in ids(ult, s.summoning)
    # U4 still holds: Soma Level 1 cannot hold Bee (Level 2), so the Egg does not evolve.
    s, i, a = holding(ult, ["E1"], holder="S1", rolls=(4,))
    s.chooser = Picks(die=4)
    s.use_familiar_ability(i)
    assert ids(ult, a.familiars) == ["E1"] and "F2" in ids(ult, s.summoning)


# ---- once per turn, also across Evolution and Release -------------------------------------------------

def test_a4_once_per_turn_and_not_again_after_evolving(ult):
    s, i, a = holding(ult, ["E1"], rolls=(4, 1))
    s.chooser = Picks(die=4)
    s.use_familiar_ability(i)  # evolves into Bee
    assert ids(ult, a.familiars) == ["E1", "F2"]
    assert "once per turn" in s.can_use_familiar_ability(i)  # Bee is the same familiar, evolved
    s.turn += 1
    assert s.can_use_familiar_ability(i) is None
    s.use_familiar_ability(i)
    with pytest.raises(IllegalAction, match="once per turn"):
        s.use_familiar_ability(i)
    # Evolving from the hand (U4) after a use does not give a second one either.
    s.turn += 1
    s.chance = Dice(1)
    s.use_familiar_ability(i)
    s.fam_hand = [s.summoning.pop(ids(ult, s.summoning).index("F3"))]
    a.top = ult.index_of("S3")
    s.evolve(0, i)
    assert "once per turn" in s.can_use_familiar_ability(i)


# ---- Released: triggered when it deals combat damage ----------------------------------------------

def released(ult, rolls, *, ap=10, guard=None):
    s, i, a = holding(ult, ["E1", "F2"], holder="S3", ap=ap, at=(1, 1), defending=False)
    a.familiars = []
    b = s._release_stack([ult.index_of("E1"), ult.index_of("F2")], space(s, 1, 2))
    b.entered = 0
    for n in s.nameless:  # on (0, 1) and (0, 3), diagonal to Bee: full, so no row targets them
        s._set_hp(n, ult.cost[n.top])
    s.chance = Dice(*rolls)
    s.opp_stronghold = [] if guard is None else [ult.index_of(guard)]
    return s, s.allies.index(b), b


def test_a4_released_triggers_on_combat_damage_with_every_category(ult):
    s, j, b = released(ult, (3,))
    s.chooser = pick = Picks(die=3)
    assert s.can_use_familiar_ability(j).startswith("a Released familiar's ability triggers")
    skipped = s.skipped
    assert s.attack(j) == ATTACKER_HIGHER  # Bee ATK 3 against no Last Guard: the Stronghold takes 1
    assert pick.offered == [[(0, 1), (0, 2), (1, 2), (0, 3), (1, 3)]]  # Support and Combat
    assert s.ap == 8  # Bee's Ability Cost 2
    # Picks(die=3) took the first row on 3: HP and Troop. The HP goes to the ally next to Bee
    # (its old holder, Soma at 1 HP); Troop brings one card to hand.
    holder = s.occupant[space(s, 1, 1)]
    assert holder.hp == 2 and len(s.hand) == 1 and s.skipped == skipped
    s, j, b = released(ult, (3,))

    class CombatRow(Policy):
        def familiar_row(self, state, ally, rows):
            return max(k for k, r in enumerate(rows) if r[0] == 1)  # Fire 1 and Burn

    s.chooser = CombatRow()
    skipped = s.skipped
    s.attack(j)
    assert s.skipped == skipped + 2  # Fire 1 and Burn: no enemy in Defense Stance (C5)


def test_a4_released_no_trigger_without_combat_damage_or_ap_or_twice(ult):
    s, j, b = released(ult, (6,), guard="S4")  # Last Guard Soma Level 4, ATK 9 > Bee's 3
    s.chooser = pick = Picks()
    assert s.attack(j) == GUARD_HIGHER
    assert pick.offered == [] and s.ap == 10
    s, j, b = released(ult, (6,), ap=1)
    s.chooser = pick = Picks()
    s.attack(j)
    assert pick.offered == [] and s.ap == 1  # the Ability Cost (2) cannot be paid
    # Used while Contracted, then Released: the same familiar does not trigger that turn.
    s, i, a = holding(ult, ["E1", "F2"], holder="S3", at=(1, 1), rolls=(1,))
    s.use_familiar_ability(i)
    a.familiars, a.defending = [], False
    b = s._release_stack([ult.index_of("E1"), ult.index_of("F2")], space(s, 1, 2))
    b.entered = 0
    s.opp_stronghold = []
    s.chooser = pick = Picks()
    ap = s.ap
    s.attack(s.allies.index(b))
    assert pick.offered == [] and s.ap == ap


def test_a4_released_evolution_gains_hp(ult):
    s, j, b = released(ult, (6,))
    s.chooser = Picks(die=5)
    hp = b.hp
    s.attack(j)
    assert ult.card_id[b.top] == "F3" and b.hp == hp + 2  # + Hornet's charge value (Quick Start II §7)


# ---- the policy's pick ----------------------------------------------------------------------------------

def test_a4_the_default_policy_picks_the_row_that_changes_the_most(ult):
    # Roll 6 with Bee: HP (holder full), bow (none in the Standby Zone), HP and Troop (a card to
    # look at), Evolution (Hornet in the Summoning Zone, Soma Level 3): Evolution counts most.
    s, i, a = holding(ult, ["E1", "F2"], holder="S3", rolls=(6,), stronghold=("B1",))
    a.hp = 7
    s.chooser = Policy()
    s.use_familiar_ability(i)
    assert ids(ult, a.familiars) == ["E1", "F2", "F3"] and s.stronghold != []
    # Without Hornet to evolve into, Troop is worth the most.
    s, i, a = holding(ult, ["E1", "F2"], holder="S3", rolls=(6,), stronghold=("B1",))
    s.summoning.remove(ult.index_of("F3"))
    s.chooser = Policy()
    s.use_familiar_ability(i)
    assert ids(ult, s.hand) == ["B1"] and ids(ult, a.familiars) == ["E1", "F2"]


def test_a4_a_policy_picking_no_row_is_an_engine_error(ult):
    class Bad(Policy):
        def familiar_row(self, state, ally, rows):
            return len(rows)

    s, i, a = holding(ult, ["E1"], rolls=(6,))
    s.chooser = Bad()
    with pytest.raises(EngineError, match="picked familiar ability row"):
        s.use_familiar_ability(i)


def test_a4_a2_the_policy_may_decline_the_released_trigger(ult):
    class Declines(Picks):
        def use_familiar_trigger(self, state, ally, cost):
            self.asked = (ally, cost)
            return False

    s, j, b = released(ult, (6,))
    s.chooser = pick = Declines()
    assert s.attack(j) == ATTACKER_HIGHER
    assert pick.asked == (b, 2) and pick.offered == [] and s.ap == 10


def test_a4_an_enemy_next_to_the_familiar_is_no_target(ult):
    # G4: the opponent's characters occupy spaces of the board but are not allies: MP never puts
    # a card under one (the card would leave our zones), HP never heals one.
    s, i, a = holding(ult, ["E1", "F2"], holder="S3", rolls=(3,), standby=("S1",))
    s._set_hp(a, 7)
    enemy = Enemy(ult.index_of("S2"), 1, space(s, 1, 1), 0)
    s.occupant[space(s, 1, 1)] = enemy
    s.use_familiar_ability(i)  # HP and Troop on 3 (the default pick): the holder is full
    assert enemy.hp == 1 and enemy.sources == [] and a.hp == 7
    s, i, a = holding(ult, ["E1"], holder="O2", rolls=(1,), standby=("S1",))
    s.occupant[space(s, 1, 1)] = enemy
    s.use_familiar_ability(i)  # MP on 1: only Soma cards in the Standby Zone, and Soma is an enemy
    assert enemy.sources == [] and a.sources == [] and ids(ult, s.standby) == ["S1"]


def test_a4_greedy_activates_a_contracted_familiar_when_a_row_would_change_something(ult):
    # Soma L3 in Defense Stance holds Stone and Bee; a roll of 6 reaches Bee's Evolution row, and
    # Hornet waits in the Summoning Zone (U4: not above the holder's Level 3): Bee evolves.
    s, i, a = holding(ult, ["E1", "F2"], holder="S3", ap=5, rolls=(6,))
    GreedyPolicy()._use_abilities(s)
    assert ids(ult, a.familiars) == ["E1", "F2", "F3"] and s.ap == 3  # Bee's Ability Cost, 2 AP
    # Hornet's only row (Cure) has nothing to act on in a goldfish game (C5): no AP spent on it.
    s, i, a = holding(ult, ["E1", "F3"], holder="S3", ap=5, rolls=(6,))
    GreedyPolicy()._use_abilities(s)
    assert ids(ult, a.familiars) == ["E1", "F3"] and s.ap == 5 and s.fam_used[a.familiars[0]] != s.turn


def full(s, a):
    """Soma Level 3 `a` and the two Nameless (on (0, 1) and (0, 3), diagonal to (1, 2)) at their max HP."""
    for b in [a, *s.nameless]:
        s._set_hp(b, s.t.cost[b.top])


def test_a4_surroundings_are_the_eight_spaces_around_diagonals_included(ult):
    # Quick Start Guide I, Q&A: "this character's surroundings" are the spaces one space away in
    # all eight directions, diagonals included; guide II §9 takes the target of HP, MP, Cure and
    # Blessing from the Contract Holder or one ally in the familiar's surroundings (SPEC A4).
    # Soma Level 3 (full) holds Stone and Bee on space (1, 2); Oichi stands diagonally at (2, 3).
    s, i, a = holding(ult, ["E1", "F2"], holder="S3", rolls=(1,))
    full(s, a)
    b = s.occupant[space(s, 2, 3)] = type(a)(ult.index_of("O2"), 1, space(s, 2, 3), 0)
    s.allies.append(b)
    s.by_name[ult.name_id[b.top]] = b
    s.hp_total += 1
    assert space(s, 2, 3) not in s.t.board.neighbours[a.space]  # not an orthogonal step away
    assert sorted(s.t.board.coords[d] for d in s.t.board.surroundings[a.space]) == [
        (0, 1), (0, 3), (1, 1), (1, 3), (2, 1), (2, 2), (2, 3)]  # (0, 2) is the Stronghold
    s.use_familiar_ability(i)  # HP on 1
    assert (a.hp, b.hp) == (7, 2)  # the diagonal ally gets the HP
    # Two steps away is not the surroundings: (2, 4) gets nothing.
    s, i, a = holding(ult, ["E1", "F2"], holder="S3", rolls=(1,))
    full(s, a)
    far = s.occupant[space(s, 2, 4)] = type(a)(ult.index_of("O2"), 1, space(s, 2, 4), 0)
    s.allies.append(far)
    s.use_familiar_ability(i)
    assert (a.hp, far.hp) == (7, 1)
    # MP reaches a diagonal ally too: the Oichi at (0, 1) takes the Standby Zone's Oichi card.
    s, i, a = holding(ult, ["E1"], holder="S2", rolls=(1,), standby=("O3",))
    c = s.occupant[space(s, 0, 1)] = type(a)(ult.index_of("O2"), 1, space(s, 0, 1), 0)
    s.allies.append(c)
    s.by_name[ult.name_id[c.top]] = c
    s.use_familiar_ability(i)  # MP on 1: no Soma card in the Standby Zone, an Oichi one
    assert ids(ult, c.sources) == ["O3"] and s.standby == []
