"""A short game worked by hand, step by step, held as its expected trace (G8).

The bundled default deck (the sample card set), going second, with the chance fixed by hand: the
opening hand is set after setup, the Stronghold holds only Yukimura L2 cards (so every draw is
known), and the opponent's Stronghold is set before each attack to the one card that is revealed
as its Last Guard. Every number below was worked out from the guide's rules (cited) and the cards'
printed values, not read from the engine:

    Kagetora L1  cost 2, charge 2, ATK 7; on deployment: +2 AP (free trigger)
    Kagetora L2  cost 5, charge 3, ATK 9          Oichi L1 charge 3       Nene L2 cost 5, ATK 10
    Oichi L2     ATK 10 (a Last Guard)            Sorin L2 ATK 3 (a Last Guard)

Turn 1 (going second: 5 AP, S7; the second player may attack at once, S8 binds the first only):
AP Charge +10 -> 15 (T2a); Oichi L1 sent, +3 -> 18 (T2a); the hand is 4, one card drawn (T3).
Kagetora L1 deployed on c2: 18 - 2 = 16 (M1); its deployment trigger gives +2 -> 18 (C5).
Kagetora L2 grows onto it: HP 1 + 1 = 2 of max 5, +3 AP (the new top card's charge) -> 21 (M2).
It may not attack the Stronghold: it entered play this turn (K4, guide I §12 ③). Move c2 -> c3:
21 - 1 = 20 (M4). Nene L2 deployed on b2: 20 - 5 = 15 (M1).
Turn 2: +10 -> 25 (T2a); the hand holds 2, three cards drawn (T3). Kagetora L2 attacks: ATK 9
against the Last Guard Oichi L2's ATK 10: the Last Guard is higher, the attacker takes
floor(10 / 9) = 1 damage (K1): HP 2 -> 1, and the Last Guard goes to its owner's hand (K4).
Nene L2 moves b2 -> c2 (25 - 1 = 24, M4), from where the common range (two spaces straight
ahead, B1's board file) reaches the opponent's Stronghold, and attacks: ATK 10 against Sorin L2's
ATK 3: the attacker is higher, the Last Guard is defeated, the Stronghold goes 6 -> 5 (K4, S5).
"""

from __future__ import annotations

import random

import pytest

import sengoku
from sengoku.engine import GameState, IllegalAction, compile_deck
from sengoku.paths import data_dir
from sengoku.trace import render_text, trace_events
from sengoku.validate.api import validate_file

EXPECTED = """
Turn 1
  AP Charge: +10 → 15 AP (T2a).
  Sent to the Standby Zone: Oichi L1 (+3): +3 → 18 AP (T2a).
  Draw Phase: drew Yukimura L2 (T3); Stronghold 9 cards.
  Main Phase (T4):
    Deploy Kagetora L1 on c2: −2 → 16 AP (M1).
    Ability of Kagetora L1 on c2 triggered: +2 AP, free, 16 AP (C5, A1).
      +2 → 18 AP.
    Growth: Kagetora L2 onto Kagetora L1 on c2, HP 2/5: +3 → 21 AP (M2).
    Move Kagetora L2 from c2 to c3: −1 → 20 AP (M4).
    Deploy Nene L2 on b2: −5 → 15 AP (M1).
  End of turn 1:
        a              b              c              d              e
    4 .              *Ashigaru1     [their SH 6]   *Ronin1        .   their Backline
    3 .              .              Kageto2 2/5A   .              .   Invasion Zone
    2 .              Nene2 1/5A     .              .              .   our Frontline
    1 .              Ronin1 1/2A    [SH 6 HP]      Ashiga1 1/3A   .   our Backline
      (name+level HP/max, A Attack / D Defense Stance, + holds a familiar, ~ Released familiar, * the opponent's)
  Command Zone: Soma1 1/3A; theirs: Soma L1
  Hand (2): Sorin L2, Yukimura L2
  Stronghold 9 cards, Standby Zone 1; Stronghold HP: ours 6, theirs 6 (1 card left).
  AP: ours 15, the opponent's 0 (it takes no turn, G4).

Turn 2
  AP Charge: +10 → 25 AP (T2a).
  Draw Phase: drew Yukimura L2, Yukimura L2, Yukimura L2 (T3); Stronghold 6 cards.
  Main Phase (T4):
    Attack: Kagetora L2 on c3, ATK 9 vs Last Guard Oichi L2 ATK 10.
      Last Guard 10 ATK vs 9: attacker takes 1 (K1), Kagetora L2 → 1 HP; the Last Guard goes to their hand (K4).
      Then Defense Stance.
    Move Nene L2 from b2 to c2: −1 → 24 AP (M4).
    Attack: Nene L2 on c2, ATK 10 vs Last Guard Sorin L2 ATK 3.
      10 vs 3: attacker higher; the Last Guard is defeated; Stronghold 6 → 5 HP (K4).
      Then Defense Stance.
  End of turn 2:
        a              b              c              d              e
    4 .              *Ashigaru1     [their SH 5]   *Ronin1        .   their Backline
    3 .              .              Kageto2 1/5D   .              .   Invasion Zone
    2 .              .              Nene2 1/5D     .              .   our Frontline
    1 .              Ronin1 1/2A    [SH 6 HP]      Ashiga1 1/3A   .   our Backline
      (name+level HP/max, A Attack / D Defense Stance, + holds a familiar, ~ Released familiar, * the opponent's)
  Command Zone: Soma1 1/3A; theirs: Soma L1
  Hand (5): Sorin L2, Yukimura L2, Yukimura L2, Yukimura L2, Yukimura L2
  Stronghold 6 cards, Standby Zone 1; Stronghold HP: ours 6, theirs 5 (0 cards left).
  AP: ours 24, the opponent's 0 (it takes no turn, G4).
"""


@pytest.fixture(scope="module")
def tables():
    result = validate_file(data_dir("decklists") / "default.toml")
    return compile_deck(sengoku.load_card_db(), result.sections, result.mode)


def card(t, name: str, level: int) -> int:
    return next(i for i in range(t.n) if t.name[i] == name and t.level[i] == level)


def test_setup_is_recorded_as_s1_to_s7(tables) -> None:
    t = tables
    record: list[dict] = []
    GameState(t, random.Random(1), going_first=False, record=record)
    (setup,) = trace_events(record, t)
    assert setup["commander"]["name"] == "Soma" and setup["commander"]["level"] == 1  # S1 Decision: most higher copies
    # S2: the two Nameless on the Stronghold Perimeter's first two spaces of the board file: b1, d1.
    assert [(x["card"]["name"], x["space"]) for x in setup["nameless"]] == [
        ("Ronin", {"row": 0, "column": 1}), ("Ashigaru", {"row": 0, "column": 3})]
    assert len(setup["hand"]) == 5  # S6
    assert setup["stronghold"] == 52 - 1 - 5  # D1 52 main cards, less the Commander (S1) and the hand (S6)
    assert (setup["hp"], setup["ap"], setup["going"]) == (6, 5, "second")  # S5, S7
    assert setup["opponent"]["ap"] == 0 and setup["opponent"]["hp"] == 6  # the first player's seat (S7), S5


def test_hand_worked_game_is_its_expected_trace(tables) -> None:
    t = tables
    record: list[dict] = []
    s = GameState(t, random.Random(1), going_first=False, record=record)
    K1, K2, O1, O2 = card(t, "Kagetora", 1), card(t, "Kagetora", 2), card(t, "Oichi", 1), card(t, "Oichi", 2)
    NENE, SORIN, Y2 = card(t, "Nene", 2), card(t, "Sorin", 2), card(t, "Yukimura", 2)
    s.hand[:] = [K1, K2, O1, NENE, SORIN]
    s.stronghold = [Y2] * 10
    s.opp_stronghold, s.opp_hand = [O2], []
    del record[:]  # the setup's random opening hand is replaced above; the game starts here
    space = t.board.space

    s.begin_turn()
    s.charge_card(s.hand.index(O1))
    s.end_charge_phase()
    kagetora = s.deploy(s.hand.index(K1), space(1, 2))
    s.grow(s.hand.index(K2), kagetora)
    with pytest.raises(IllegalAction, match="K4"):
        s.attack(kagetora)
    s.move(kagetora, space(2, 2))
    nene = s.deploy(s.hand.index(NENE), space(1, 1))
    s.end_turn()

    s.begin_turn()
    s.end_charge_phase()
    s.attack(kagetora)
    s.move(nene, space(1, 2))
    s.opp_stronghold = [SORIN]
    s.attack(nene)
    s.end_turn()

    events = trace_events(record, t)
    assert render_text(events).strip("\n") == EXPECTED.strip("\n")
    attacks = [e for e in events if e["event"] == "attack"]
    assert [(a["power"], a["defense"], a["outcome"], a["damage_to_attacker"], a["opponent_hp"]) for a in attacks] == [
        (9, 10, "last_guard_higher", 1, 6), (10, 3, "attacker_higher", 0, 5)]
    assert [a["last_guard_to"] for a in attacks] == ["hand", "standby"]
