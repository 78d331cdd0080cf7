"""The default policy's look-ahead (`greedy.lookahead`): exact copies of a copy, the two-stage choice,
the Charge Phase plans it tries, the turns and seats it plays, and the script that fits its values."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from sengoku.engine.chance import Unordered
from sengoku.engine.clone import clone_state, copy_state
from sengoku.engine.errors import EngineError
from sengoku.engine.policies.greedy import GreedyPolicy, GreedySettings, turn_weights
from sengoku.engine.policies.greedy.known import Known
from sengoku.engine.policies.greedy.lookahead import LookAhead, steps, turn_end_features, turn_value
from sengoku.engine.policies.search import SearchPolicy

from .conftest import SCRIPT, fit_script, load_module, play_out, suite_hand, suite_state


def _main_phase(deck: str, seed: int, going_first: bool = False, defends: bool = False):
    """Turn 1's Main Phase of a suite deck, after greedy's own Charge Phase."""
    s = suite_state(deck, seed, going_first, defends)
    GreedyPolicy(SCRIPT).charge_phase(s)
    s.end_charge_phase()
    return s


def _seen(s) -> tuple:
    """What a position shows: hand, AP, allies and their spaces, both Strongholds' orders, the chance's counts."""
    c = s.chance
    return (list(s.hand), s.ap, [(a.top, a.space, a.hp) for a in s.allies], list(s.stronghold),
            None if s.opp_stronghold is None else list(s.opp_stronghold), s.opp_sh_hp,
            (c.shuffle, c.opponent, c.dice, c.policy, c.rounds, c.rolls))


def test_an_exact_copy_of_a_copy_plays_on_as_the_copy_would():
    for seed in range(8):
        s = suite_state("mat-heavy", seed, False, seed % 2 == 1)  # turn 1's Charge Phase
        c = clone_state(s, random.Random(100 + seed))
        before = _seen(c)
        d1, d2 = copy_state(c), copy_state(c)
        assert _seen(d1) == before and d1.stronghold is not c.stronghold and d1.allies[0] is not c.allies[0]
        a, b = play_out(d1, GreedyPolicy(SCRIPT)), play_out(d2, GreedyPolicy(SCRIPT))
        assert (a.won_turn, list(a.standby), a.m_hits, a.m_lost) == (b.won_turn, list(b.standby), b.m_hits, b.m_lost)
        assert a.won_turn is not None
        assert _seen(c) == before  # the copies played on; the copy they were made from is as it was


def test_a_state_whose_stronghold_is_not_wholly_ordered_is_not_copied_exactly():
    s = _main_phase("mat-heavy", 0)
    s.opp_unordered = Unordered((1, 2, 3))  # (a game's own state, as the compiled engine sets it up)
    with pytest.raises(EngineError, match="copy made by clone_state"):
        copy_state(s)


class Scripted(LookAhead):
    """A look-ahead whose values are given: per option index, one value on the first stage's copy and
    one on the second stage's copies."""

    def __init__(self, settings: GreedySettings, first: list[float], second: list[float]) -> None:
        super().__init__(GreedyPolicy(SCRIPT), Known(settings))
        self.first, self.second = first, second
        self.options: list[object] = []
        self.stage_one = None
        self.asked: list[tuple[int, int]] = []

    def _value(self, base, option, deep=False) -> float:
        if self.stage_one is None:
            self.stage_one = base
        stage = 1 if base is self.stage_one else 2
        k = self.options.index(option)
        self.asked.append((stage, k))
        return (self.first if stage == 1 else self.second)[k]


def _choose(settings: GreedySettings, first: list[float], second: list[float]) -> tuple[int, Scripted]:
    s = _main_phase("mat-heavy", 3)
    look = Scripted(settings, first, second)
    look.options = [None] + [f"option {k}" for k in range(1, len(first))]
    return look._choose(s, look.options, s.chance.policy, 1), look


def test_the_second_stage_plays_the_first_stages_best_and_greedys_turn_again_and_takes_the_best_below_greedys():
    settings = GreedySettings(lookahead_finalists=3, lookahead_copies=4)
    #         greedy  A    B    C    D
    first = [3.0, 2.0, 2.5, 2.8, 1.0]
    second = [3.0, 2.9, 2.2, 1.0, 3.5]  # C would be best, but it is not among the first stage's three best
    best, look = _choose(settings, first, second)
    assert best == 2  # B: 2.2 on the fresh copies, below greedy's 3.0
    assert sorted(k for stage, k in look.asked if stage == 1) == [0, 1, 2, 3, 4]
    assert sorted(k for stage, k in look.asked if stage == 2) == [0] * 4 + [1] * 4 + [2] * 4 + [4] * 4
    # a margin: a step is taken only when it is that much sooner than greedy's turn on the fresh copies
    assert _choose(dataclasses.replace(settings, lookahead_margin=1.0), first, second)[0] == 0
    assert _choose(dataclasses.replace(settings, lookahead_margin=0.7), first, second)[0] == 2
    # greedy's own turn is played again even when the first stage ranks it last; no option beats it: none taken
    assert _choose(settings, [9.0, 1.0, 1.0, 1.0], [2.0, 2.0, 2.5, 3.0])[0] == 0


def test_the_tries_leave_the_game_as_it_was():
    s = _main_phase("low-curve", 5, defends=True)
    before = _seen(s)
    policy = GreedyPolicy()
    policy._prepare_for(s)
    look = policy.look
    assert look is not None
    options: list[object] = [None]
    options.extend(steps(s))
    assert len(options) > 3
    look._choose(s, options, s.chance.policy, 1)
    assert _seen(s) == before


class Capture(LookAhead):
    """A look-ahead that notes the Charge Phase plans it is asked to choose among, and keeps greedy's."""

    def __init__(self) -> None:
        super().__init__(GreedyPolicy(SCRIPT), Known(GreedySettings()))
        self.plans: list[object] = []

    def _choose(self, state, options, policy_seed, step) -> int:
        self.plans = list(options)
        assert step == 0
        return 0


def test_the_charge_phase_plans_are_greedys_and_its_neighbours_by_one_card_and_an_hp_charge():
    # Going second, turn 1, mat-heavy: greedy's fitted rule sends Sorin L2 alone (test_policy_charge.py)
    s = suite_hand("mat-heavy", ("SY2-012", "SY2-004", "SY2-019", "SY1-012", "SY1-029"), False)
    t = s.t
    greedy = GreedyPolicy(SCRIPT)
    greedy._prepare_for(s)
    send, _ = greedy._plan_charges(s)
    assert [f"{t.name[s.hand[p]]} L{t.level[s.hand[p]]}" for p in send] == ["Sorin L2"]
    look = Capture()
    assert look.charge_plan(s, send) is None
    plans = look.plans
    assert plans[0] is None  # greedy's own
    by_cards = sorted(tuple(sorted(t.name[s.hand[p]] for p in sent)) for sent, target in plans[1:] if target == -1)
    others = ["Ayame", "Chiyome", "Oichi", "Tomoe"]
    assert by_cards == sorted([()] + [tuple(sorted(["Sorin", o])) for o in others])  # one fewer, one more
    hp = [target for sent, target in plans[1:] if target >= 0]
    assert hp == [i for i, a in enumerate(s.allies) if a.hp < t.cost[a.top]]
    assert all(list(sent) == send for sent, target in plans[1:] if target >= 0)


def test_the_value_of_a_won_position_is_its_turn_and_the_features_read_the_position():
    s = _main_phase("mat-heavy", 2)
    policy = GreedyPolicy()
    policy._prepare_for(s)
    x = turn_end_features(policy.known, s)
    assert len(x) == len(turn_weights.FEATURES)
    assert x[0] == 1.0 and x[1] == 6.0 and x[2] == pytest.approx(3.6)  # Standard: 6 Stronghold HP (K5)
    assert x[8] == sum(1 for a in s.allies if a.in_play) and x[10] == len(s.hand) and x[11] == s.ap / 5
    assert x[12] == 0.0 and x[13] == 0.0  # not Ultimate
    assert x[16] <= x[8] and 0.0 <= x[4] <= x[16]  # allies in range, and their hit chances (each at most 1)
    c = clone_state(s, random.Random(1))
    c.won_turn = 1
    assert turn_value(policy.known, c) == 1.0


def test_the_look_ahead_plays_the_turns_and_seats_it_is_set_for():
    assert GreedyPolicy(SCRIPT).look is None and GreedyPolicy().look is not None
    search = SearchPolicy()
    assert search.settings.lookahead_turns == 0 and search.look is None  # its rollouts and turns: greedy's script
    assert turn_weights.TURNS >= GreedySettings().lookahead_turns
    kills = {}
    for first, defends in ((True, False), (False, False), (True, True)):
        for name, settings in (("look", GreedySettings()), ("script", SCRIPT)):
            kills[(first, defends, name)] = [
                play_out(suite_state("low-curve", seed, first, defends), GreedyPolicy(settings)).won_turn
                for seed in range(15)]
    # going first against a passive opponent (lookahead_first=False): the script's very games
    assert kills[(True, False, "look")] == kills[(True, False, "script")]
    # going second, and going first against a defender: other games on some deals
    assert kills[(False, False, "look")] != kills[(False, False, "script")]
    assert kills[(True, True, "look")] != kills[(True, True, "script")]
    on = GreedySettings(lookahead_first=True)
    assert [play_out(suite_state("low-curve", seed, True), GreedyPolicy(on)).won_turn for seed in range(15)] \
        != kills[(True, False, "script")]
    # in Ultimate mode it looks ahead going first against a passive opponent too (lookahead_first_ultimate)
    ultimate = {name: [play_out(suite_state("ultimate-beasts", seed, True), GreedyPolicy(settings)).won_turn
                       for seed in range(15)]
                for name, settings in (("look", GreedySettings()), ("script", SCRIPT),
                                       ("off", GreedySettings(lookahead_first_ultimate=False)))}
    assert ultimate["look"] != ultimate["script"] and ultimate["off"] == ultimate["script"]


@pytest.fixture(scope="module")
def tool():
    with fit_script("fit_turn_weights") as script:
        yield script


def test_the_fit_writes_the_same_weights_for_the_same_arguments_in_the_policys_format(tool, tmp_path: Path, capsys):
    args = ["--deals", "6", "--seed", "4", "--setting", "second-defends"]
    assert tool.main(args + ["--out", str(tmp_path / "a.py")]) == 0
    assert tool.main(args + ["--out", str(tmp_path / "b.py"), "--jobs", "2"]) == 0
    a = (tmp_path / "a.py").read_text(encoding="utf-8")
    assert a == (tmp_path / "b.py").read_text(encoding="utf-8")
    fitted = load_module(tmp_path / "a.py")
    assert fitted.FEATURES == turn_weights.FEATURES and fitted.TURNS == 2
    filled = [g for g, w in enumerate(fitted.WEIGHTS) if w]
    assert filled == [1, 5]  # turns 1 and 2, going second against a defender: (turn - 1) * 4 + 1
    assert all(len(fitted.WEIGHTS[g]) == len(turn_weights.FEATURES) for g in filled)
    assert "python benchmarks/fit_turn_weights.py --deals 6 --seed 4 --setting second-defends" in a
    out = capsys.readouterr().out
    assert "held-out R^2" in out


def test_the_fit_refuses_the_test_set(tool, tmp_path: Path, capsys):
    test_set = Path(__file__).resolve().parents[2] / "benchmarks" / "decksets" / "test.toml"
    with pytest.raises(SystemExit) as stop:
        tool.main(["--deals", "2", "--set", str(test_set), "--out", str(tmp_path / "a.py")])
    assert stop.value.code == 2
    assert "fit set only" in capsys.readouterr().err
    assert not (tmp_path / "a.py").exists()


def test_the_next_turns_value_is_greedys_next_turn_played_on_the_copy_and_only_where_a_rule_is_fitted():
    from sengoku.engine.policies.greedy.lookahead import group, next_group
    s = _main_phase("low-curve", 3)  # going second, turn 1's Main Phase
    assert group(s) == 0 and next_group(s) == 4  # turn 2, going second, passive opponent
    policy = GreedyPolicy(GreedySettings())
    policy._prepare_for(s)
    look = policy.look
    assert look is not None
    base = clone_state(s, random.Random(7))
    # by hand: greedy's script ends turn 1, plays turn 2 on an exact copy, and turn 2's rule values it
    c = copy_state(base)
    script = GreedyPolicy(SCRIPT)
    script.main_phase(c)
    assert c.won_turn is None and c.turn == 1
    c.end_turn()
    c.begin_turn()
    script.charge_phase(c)
    c.end_charge_phase()
    script.main_phase(c)
    expected = c.won_turn if c.won_turn is not None else sum(
        w * x for w, x in zip(turn_weights.WEIGHTS[4], turn_end_features(policy.known, c)))
    assert look._value(base, None, True) == pytest.approx(expected)
    assert look._value(base, None, False) != pytest.approx(expected)  # this turn's end is valued otherwise
    # on the last turn a rule is fitted for there is no next turn's rule: the turn's own end is valued
    c.turn = turn_weights.TURNS
    assert group(c) >= 0 and next_group(c) == -1


class Depths(LookAhead):
    """A look-ahead that notes whether each value it is asked for plays the next turn too."""

    def __init__(self, settings: GreedySettings) -> None:
        super().__init__(GreedyPolicy(SCRIPT), Known(settings))
        self.deep: set[bool] = set()

    def _value(self, base, option, deep=False) -> float:
        self.deep.add(deep)
        return 0.0


@pytest.mark.parametrize("going_first", [True, False])
def test_only_going_first_is_turn_1_valued_at_turn_2s_end(going_first: bool):
    # going first turn 1 has no attack (S8), so its end says little of the kill turn: its options are valued
    # at the end of turn 2 (`lookahead_next_turn_first`); going second the turn's own end values them
    s = _main_phase("low-curve", 3, going_first=going_first, defends=True)
    options: list[object] = [None]
    options.extend(steps(s))
    for settings, expected in ((GreedySettings(), {False, going_first}),
                               (GreedySettings(lookahead_next_turn_first=False), {False})):
        look = Depths(settings)
        look._choose(s, options, s.chance.policy, 1)
        assert look.deep == expected  # the first stage's single copy is never played on
