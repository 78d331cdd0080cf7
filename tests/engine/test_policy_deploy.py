"""Where the default policy deploys (`step_ahead_for_room`): a hand-made position."""

from __future__ import annotations

import random
from pathlib import Path

import sengoku
from sengoku.engine import GameState, compile_deck
from sengoku.engine.constants import MAIN_PHASE
from sengoku.engine.policies import GreedyPolicy
from sengoku.validate.api import validate_file

from .conftest import space

SUITE = Path(__file__).resolve().parents[2] / "decklists" / "suite"


class NoStep(GreedyPolicy):
    step_ahead_for_room = False


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
