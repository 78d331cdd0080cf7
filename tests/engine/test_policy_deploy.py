"""Where the default policy deploys (`step_ahead_for_room`): a hand-made position."""

from __future__ import annotations

import random
from pathlib import Path

import sengoku
from sengoku.engine import GameState, compile_deck
from sengoku.engine.constants import MAIN_PHASE
from sengoku.engine.policies import GreedyPolicy
from sengoku.validate.api import validate_file

from .conftest import greedy_with, space

SUITE = Path(__file__).resolve().parents[2] / "decklists" / "suite"


NoStep = greedy_with(step_ahead_for_room=False)


def _position() -> GameState:
    # Going first, turn 1, Main Phase, the low-curve suite deck, no Nameless on the board:
    # Kagetora L1 stands on (1, 2), the one Perimeter space from which Ginchiyo L1 reaches the
    # opponent's Stronghold (its other one, (2, 2), is in the Invasion Zone); Ginchiyo L1 is the
    # hand; 5 AP. (Turn 1 going first: no attack, S8.)
    result = validate_file(SUITE / "low-curve.toml")
    assert result.valid
    t = compile_deck(sengoku.load_card_db(), result.sections, result.mode)
    s = GameState(t, random.Random(0), True)
    for a in list(s.nameless):
        s.allies.remove(a)
        s.occupant[a.space] = None
    s.nameless.clear()
    s.stronghold += s.hand
    s.hand = []
    for cid in ("SY1-005", "SY1-021"):  # Kagetora L1, Ginchiyo L1
        c = t.index_of(cid)
        s.stronghold.remove(c)
        s.hand.append(c)
    s.turn, s.phase, s.ap = 1, MAIN_PHASE, 2
    s.deploy(0, space(s, 1, 2))  # Kagetora L1 (its deployment ability gains AP: set below)
    s.ap = 5
    return s


def test_an_ally_steps_ahead_so_that_a_card_deploys_in_range():
    s = _position()
    t = s.t
    front, ahead = space(s, 1, 2), space(s, 2, 2)
    p = GreedyPolicy()
    p._prepare_for(s)
    gin = t.index_of("SY1-021")
    reach = [sp for sp in range(t.board.n_spaces) if t.board.reaches_enemy_stronghold(sp, t.corners[gin])]
    assert reach == [front, ahead]  # (the guide's range arrows, as the engine reads them)
    s.record = []
    p.main_phase(s)
    where = {t.card_id[a.top]: a.space for a in s.allies if a.space >= 0}
    # M4 (1 AP) then M1 (2 AP): Kagetora L1 steps to (2, 2), from where it still reaches, and
    # Ginchiyo L1 takes (1, 2): both can attack next turn without another step.
    moves = [(e["event"], t.card_id[e["card"]], e.get("from"), e.get("to", e.get("space")))
             for e in s.record if e["event"] in ("move", "deploy")]
    assert moves[:2] == [("move", "SY1-005", front, ahead), ("deploy", "SY1-021", None, front)]
    assert where["SY1-005"] == ahead and where["SY1-021"] == front

    s = _position()
    NoStep().main_phase(s)
    where = {t.card_id[a.top]: a.space for a in s.allies if a.space >= 0}
    assert where["SY1-005"] == front  # without the step, Kagetora stays ...
    assert where["SY1-021"] not in (front, ahead)  # ... and Ginchiyo deploys out of range


GrowsAnyNameless = greedy_with(keep_commander_name=False)


def test_no_nameless_takes_the_commanders_name_while_the_commander_waits():
    # Ultimate Beasts suite deck, going first, turn 2, Main Phase, 1 AP. The Commander, Hanzo L3
    # (L1 and L2 beneath it), waits in the Command Zone; the Nameless Shinobi stands on (0, 1)
    # with Onmyoji (Defense Stance) on (1, 1) beside it. The hand is Hanzo L2, which may Grow onto
    # Shinobi (M2: same gender and weapon). The opponent's Stronghold is at 0 HP with no Last
    # Guard: the next hit wins (K5). The Commander steps from the Command Zone to (1, 2) (M4, 1 AP),
    # from where it reaches, and wins. Had Hanzo L2 grown onto Shinobi, an ally named Hanzo would
    # stand on the Battlefield and the Commander could not leave the Command Zone (M1, M4); the
    # grown Shinobi is 4 steps from its nearest space in range, more than the 3 AP it would have.
    result = validate_file(SUITE / "ultimate-beasts.toml")
    assert result.valid
    t = compile_deck(sengoku.load_card_db(), result.sections, result.mode)

    def position() -> GameState:
        s = GameState(t, random.Random(0), True)
        cz = s.command_zone
        assert cz is not None and t.card_id[cz.top] == "SY1-017"
        shinobi = next(a for a in s.nameless if t.name[a.top] == "Shinobi")
        onmyoji = next(a for a in s.nameless if t.name[a.top] == "Onmyoji")
        assert shinobi.space == space(s, 0, 1)
        s.occupant[onmyoji.space] = None
        onmyoji.space = space(s, 1, 1)
        s.occupant[onmyoji.space] = onmyoji
        onmyoji.defending = True
        s.stronghold += s.hand
        s.hand = []
        for cid in ("SY1-018", "SY1-018", "SY1-019"):  # Hanzo L2 for the hand; L2 and L3 for the Commander
            c = t.index_of(cid)
            s.stronghold.remove(c)
            s.hand.append(c)
        s.turn, s.phase = 2, MAIN_PHASE
        s.stack(1, cz)  # Growth: Hanzo L2 onto the Commander
        s.stack(1, cz)  # Growth: Hanzo L3 onto it
        s.ap = 1
        s.opp_stronghold, s.opp_sh_hp = [], 0
        return s

    s = position()
    assert t.card_id[s.hand[0]] == "SY1-018" and s.stack_target_or_name(s.hand[0]) is s.allies[1]
    GreedyPolicy().main_phase(s)
    assert s.won_turn == 2
    assert s.command_zone is None  # the Commander left it
    assert [t.name[a.top] for a in s.allies if a.space == space(s, 0, 1)] == ["Shinobi"]  # Shinobi as it was

    s = position()
    GrowsAnyNameless().main_phase(s)
    assert s.won_turn is None
    assert s.command_zone is not None and s.can_move(s.command_zone, space(s, 1, 2)) is not None
