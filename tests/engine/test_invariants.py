"""Invariants over thousands of games (both modes, every policy), determinism, the idle baseline.

Every state must keep: no card lost or duplicated across zones, AP never negative, 1 <= HP <= max
HP, no two named allies in play with the same name (M1 Decision), the board's occupancy matching
the allies, and the hand limits (T2a, U1) once each Charge Phase ends.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

import sengoku
from sengoku.engine import MEASURES, GameRunner, GameState, choose_commander, compile_deck, make_policy, play_game
from sengoku.engine.actions import Action as A
from sengoku.engine.actions import Kind as K
from sengoku.engine.board import COMMAND_ZONE
from sengoku.engine.chance import unordered_cards
from sengoku.engine.policies import RandomPolicy
from sengoku.engine.state import AP_CHARGE, STATE_FIELDS
from sengoku.engine.tables import NAMELESS

from .conftest import bundled_sections


@pytest.fixture(scope="module")
def db():
    return sengoku.load_card_db()


@pytest.fixture(scope="module")
def standard(db):
    sections, mode = bundled_sections(db, "default.toml")
    assert mode == "standard"
    return compile_deck(db, sections, mode)


@pytest.fixture(scope="module")
def ultimate(db):
    sections, mode = bundled_sections(db, "ultimate.toml")
    assert mode == "ultimate"
    return compile_deck(db, sections, mode)


def all_cards(t) -> Counter:
    return Counter(list(t.deck_indices) + list(t.nameless_indices) + list(t.familiar_indices))


def zones(s: GameState) -> Counter:
    cards = s.hand + s.stronghold + s.sh_bottom + s.standby + s.banish + s.fam_hand + s.summoning
    for a in s.allies:
        cards += [a.top, *a.sources, *a.familiars]
    return Counter(cards)


def check(s: GameState, expected: Counter) -> None:
    t = s.t
    assert zones(s) == expected, "a card was lost or duplicated"
    assert s.ap >= 0
    names = Counter()  # names on the Battlefield (M1: the Command Zone may share one)
    on_field = 0
    for a in s.allies:
        assert 1 <= a.hp <= t.cost[a.top], (a, t.cost[a.top])
        if t.kind[a.top] == NAMELESS:
            assert a in s.nameless
        elif a.space == COMMAND_ZONE:
            assert s.by_name[t.name_id[a.top]] is not a
        else:
            names[t.name_id[a.top]] += 1
            assert s.by_name[t.name_id[a.top]] is a
        if a.space == COMMAND_ZONE:
            assert s.command_zone is a and not a.released
        else:
            assert s.occupant[a.space] is a
            on_field += 1
        if a.familiars:
            assert not a.released and t.level[a.familiars[-1]] <= t.level[a.top]  # U3/U4
    assert all(v == 1 for v in names.values()), "two allies share a name on the Battlefield (M1)"
    assert sum(b is not None for b in s.by_name) == len(names)
    assert len(s.nameless) == sum(t.kind[a.top] == NAMELESS for a in s.allies)
    # G4: the opponent's cards are all somewhere, once; its Stronghold HP is never negative; its
    # allies stand where they stood (only a defending Commander joins its Perimeter).
    ot = s.opp_t
    assert s.opp_sh_hp >= 0
    if s.opp_stronghold is not None:
        # (the compiled engine orders the opponent's Stronghold a part at a time: the rest not yet)
        rest = [] if s.opp_unordered is None else unordered_cards(s.opp_unordered)
        opp = Counter(s.opp_stronghold + rest + s.opp_hand + s.opp_standby + [e.top for e in s.opp_allies])
        assert opp == Counter(list(ot.deck_indices) + list(ot.nameless_indices)), "an opponent's card was lost"
    for e in s.opp_allies:
        if e.space >= 0:
            assert s.occupant[e.space] is e
        on_field += e.space >= 0
    assert s.won_turn is None or s.opp_sh_hp == 0  # K5: a win needs the Stronghold at 0 first
    # Incrementally kept totals match the board (measures read them).
    assert s.hp_total == sum(a.hp for a in s.allies)
    assert s.top_level == max((t.level[a.top] for a in s.allies), default=0)
    assert sum(o is not None for o in s.occupant) == on_field
    assert s.command_zone is None or s.command_zone in s.allies
    cz = s.command_zone  # the name the Command Zone's ally bears, kept for name_in_play (M1)
    assert s.cz_name == (-1 if cz is None or t.kind[cz.top] == NAMELESS else t.name_id[cz.top])
    for c in s.hand:  # the policies' one-look question agrees with the two it answers
        found = s.stack_target_or_name(c)
        assert found is s.stack_target(c) or found is s.name_in_play(c), (c, found)
    assert s.defended or not any(a.defending for a in s.allies)  # T1 relies on the flag


class CheckingRandom(RandomPolicy):
    """The random policy, checking every invariant after each action it takes."""

    def __init__(self, expected: Counter):
        self.expected = expected
        self.actions: Counter = Counter()

    def _run(self, state, end):
        while True:
            action = state.policy_rng.choice(state.legal_actions())
            if action.kind == end:
                return
            state.apply(action)
            self.actions[action.kind.method] += 1
            check(state, self.expected)


def drive(t, policy, seed, turns, going_first, expected, hits=False, defends=False):
    """Play like `play_game`, checking the invariants and the AP bookkeeping at every phase.

    `hits`: the Stronghold takes 1 damage before each turn, as if an opponent attacked, so
    familiars reach the hand (U2) and Evolution and Release get played.
    """
    s = GameState(t, random.Random(seed), going_first, opponent_defends=defends)
    check(s, expected)
    for _ in range(turns):
        if hits and s.sh_hp > 0:
            s.stronghold_damaged(1)
            check(s, expected)
        before = s.ap
        s.begin_turn()
        policy.charge_phase(s)
        s.end_charge_phase()
        assert len(s.hand) <= 5 and len(s.fam_hand) <= 3  # T2a, U1 (the draw only fills up to 5)
        policy.main_phase(s)
        m = dict(zip(MEASURES, s.end_turn()))
        check(s, expected)
        assert m["ap_end"] == before + AP_CHARGE + m["ap_charge_cards"] + m["ap_growth_focus"] \
            + s.m_ability_ap - m["ap_spent"]
        assert m["allies"] == len(s.allies) and m["stronghold"] == len(s.stronghold) + len(s.sh_bottom)
    return s


@pytest.mark.parametrize("deck", ["standard", "ultimate"])
def test_random_policy_keeps_every_invariant(deck, request):
    """800 random games per mode: the first 200 checked after every action, all at every phase."""
    t = request.getfixturevalue(deck)
    expected = all_cards(t)
    policy = CheckingRandom(expected)
    plain = make_policy("random")
    hits = deck == "ultimate"
    for seed in range(800):
        # G4: every fourth game against a defending opponent (its Commander joins its Perimeter).
        drive(t, policy if seed < 200 else plain, seed, 8, seed % 2 == 0, expected, hits=hits,
              defends=seed % 4 == 1)
    # The random games exercise every action of the mode.
    wanted = {"charge_card", "hp_charge", "deploy", "stack", "move", "swap", "attack", "use_ability",
              "use_hand_ability"}
    if deck == "ultimate":
        wanted |= {"familiar_hp_charge", "contract", "evolve", "release", "use_familiar_ability"}
    assert wanted <= set(policy.actions), wanted - set(policy.actions)


@pytest.mark.parametrize("name", ["greedy", "develop", "charge", "idle"])
@pytest.mark.parametrize("deck", ["standard", "ultimate"])
def test_policies_keep_every_invariant(deck, name, request):
    t = request.getfixturevalue(deck)
    expected = all_cards(t)
    policy = make_policy(name)
    for seed in range(300):
        drive(t, policy, seed, 10, seed % 2 == 0, expected, hits=seed % 3 == 0)


@pytest.mark.parametrize("going_first, start", [(True, 0), (False, 5)])
def test_idle_ap_is_exactly_start_plus_10_per_turn(standard, going_first, start):
    for seed in range(50):
        g = play_game(standard, "idle", random.Random(seed), turns=8, going_first=going_first)
        ap_main = [m[0] for m in g.turns]
        ap_end = [m[MEASURES.index("ap_end")] for m in g.turns]
        assert ap_main == ap_end == [start + 10 * k for k in range(1, 9)]
        assert g.first_level3 is None and g.first_level4 is None


@pytest.mark.parametrize("name", ["greedy", "develop", "charge", "random", "idle"])
def test_same_seed_same_game(standard, ultimate, name):
    for t in (standard, ultimate):
        a = play_game(t, name, random.Random(1234), turns=8)
        b = play_game(t, name, random.Random(1234), turns=8)
        assert a == b
    games = {tuple(play_game(standard, name, random.Random(s), turns=8).opening_hand) for s in range(20)}
    assert len(games) > 15  # different seeds, different games


class _PhasesOnly:
    """A policy as a plain object: only charge_phase(state) and main_phase(state), no bind."""

    def __init__(self, name):
        self.inner = make_policy(name)

    def charge_phase(self, state):
        self.inner.charge_phase(state)

    def main_phase(self, state):
        self.inner.main_phase(state)


@pytest.mark.parametrize("name", ["greedy", "develop", "charge"])
def test_phases_bound_once_per_game_play_as_the_plain_methods(standard, ultimate, name):
    # play_game binds a policy's phases once per game (Policy.bind); the plain methods bind
    # afresh every phase. Same seed, same game: the binding keeps no memory of its own.
    for t in (standard, ultimate):
        for seed in range(25):
            for first in (True, False):
                a = play_game(t, name, random.Random(seed), turns=8, going_first=first)
                b = play_game(t, _PhasesOnly(name), random.Random(seed), turns=8, going_first=first)
                assert a == b


@pytest.mark.parametrize("name", ["greedy", "develop", "charge", "random", "idle"])
def test_a_runner_plays_the_games_play_game_plays(standard, ultimate, name):
    # GameRunner keeps one state and one binding for all its games, setting up anew (S1-S7) each
    # time: reseeded as play_game's generator is, it must play the very same games.
    for t in (standard, ultimate):
        for first in (True, False):
            rng = random.Random()
            runner = GameRunner(t, name, rng, turns=8, going_first=first)
            for seed in range(15 if name == "random" else 60):
                rng.seed(seed)
                assert runner.play() == play_game(t, name, random.Random(seed), turns=8, going_first=first)


def test_setup_leaves_nothing_of_the_last_game(standard, ultimate):
    # After a game, setup() with the generator in the same state as for a new GameState gives a
    # state equal to it in every field (zones, allies, board, AP, measures), the lists kept in place.
    for t in (standard, ultimate):
        rng = random.Random(3)
        state = GameState(t, rng)
        lists = [state.hand, state.fam_hand, state.allies, state.nameless, state.occupant, state.by_name]
        charge_phase, main_phase = make_policy("random").bind(state)
        for _ in range(6):
            state.begin_turn()
            charge_phase()
            state.end_charge_phase()
            main_phase()
            state.end_turn()
        assert state.turn == 6 and len(state.allies) > 3
        rng.seed(11)
        state.setup()
        fresh = GameState(t, random.Random(11))
        for slot in STATE_FIELDS:
            if slot not in ("chance", "chooser"):  # what the caller hands in
                assert getattr(state, slot) == getattr(fresh, slot), slot
        assert all(a is b for a, b in zip(lists, [state.hand, state.fam_hand, state.allies, state.nameless,
                                                   state.occupant, state.by_name]))


def test_a_runner_refuses_bad_turns_and_commanders(standard):
    with pytest.raises(sengoku.engine.EngineError, match="turns"):
        GameRunner(standard, "greedy", random.Random(1), turns=-1)
    with pytest.raises(sengoku.engine.EngineError, match="Level 1 Main card"):
        GameRunner(standard, "greedy", random.Random(1), commander=len(standard.card_id) + 5)


def test_record_shape_and_opening_hand(standard):
    cmd = choose_commander(standard)
    g = play_game(standard, make_policy("greedy"), random.Random(7), turns=5, going_first=False, commander=cmd, play_on=True)
    assert g.commander == cmd and len(g.opening_hand) == 5 and len(g.turns) == 5
    stopped = play_game(standard, make_policy("greedy"), random.Random(7), turns=5, going_first=False, commander=cmd)
    assert stopped.won_turn is not None and len(stopped.turns) == stopped.won_turn  # G5: stop at the win
    assert all(len(m) == len(MEASURES) for m in g.turns)
    assert g.first_level3 is None or g.first_level4 is None or g.first_level3 <= g.first_level4


def test_greedy_develops_faster_than_idle(standard):
    def mean_allies(name):
        rng = random.Random(5)
        return sum(play_game(standard, name, rng, turns=4).turns[-1][6] for _ in range(200)) / 200

    # (greedy stops at its kill turn, about turn 3, with about 5 allies to idle's 3: its defeated
    # attackers leave play, and the sooner it wins the fewer it has deployed by then)
    assert mean_allies("greedy") >= mean_allies("idle") + 1.5


def test_s6_opening_hand_matches_the_hypergeometric_distribution(standard):
    """The lazy shuffle deals 5 of the 51 Stronghold cards uniformly: count cards that can
    Grow or Focus onto the Commander (Soma: 2 + 3 + 3 + 2 of them left) against math.comb."""
    from math import comb

    cmd = choose_commander(standard)
    mask = standard.grow_or_focus_mask(cmd)
    deck = standard.stronghold_after(cmd)
    good = sum(mask[c] for c in deck)
    assert (len(deck), good) == (51, 10)
    n = 20000
    counts = Counter()
    rng = random.Random(99)
    for _ in range(n):
        hand = GameState(standard, rng, True, cmd).opening_hand
        counts[sum(mask[c] for c in hand)] += 1
    for k in range(6):
        exact = comb(good, k) * comb(len(deck) - good, 5 - k) / comb(len(deck), 5)
        se = (exact * (1 - exact) / n) ** 0.5
        assert abs(counts[k] / n - exact) <= 4 * se + 1e-12, (k, counts[k] / n, exact)


def brute_force_main_actions(s: GameState) -> set:
    """Every Main Phase action over every argument the can_* checks accept (no narrowing)."""
    t = s.t
    n, spaces = len(s.allies), range(t.board.n_spaces)
    out = {A(K.END_TURN)}
    for p in range(len(s.hand)):
        out |= {A(K.DEPLOY, (p, d)) for d in (COMMAND_ZONE, *spaces) if s.can_deploy(p, d) is None}
        out |= {A(K.STACK, (p, i)) for i in range(n) if s.can_stack(p, i) is None}
        out |= {A(K.USE_HAND_ABILITY, (p, k)) for k in range(3) if s.can_use_hand_ability(p, k) is None}
    for i in range(n):
        out |= {A(K.MOVE, (i, d)) for d in spaces if s.can_move(i, d) is None}
        out |= {A(K.SWAP, (i, j)) for j in range(i + 1, n) if s.can_swap(i, j) is None}
        out |= {A(K.ATTACK, (i, m, b)) for m in (False, True) for b in range(3) if s.can_attack(i, m, b) is None}
        out |= {A(K.USE_ABILITY, (i, k)) for k in range(3) if s.can_use_ability(i, k) is None}
        for f in range(len(s.fam_hand)):
            out |= {A(a, (f, i)) for a, ok in ((K.CONTRACT, s.can_contract), (K.EVOLVE, s.can_evolve))
                    if ok(f, i) is None}
        out |= {A(K.RELEASE, (i, d, mh)) for d in spaces for mh in (False, True) if s.can_release(i, d, mh) is None}
        if s.can_use_familiar_ability(i) is None:
            out.add(A(K.USE_FAMILIAR_ABILITY, (i,)))
    return out


class ComparingRandom(RandomPolicy):
    """The random policy, checking that legal_actions() is exactly the brute-force set."""

    compared = 0
    familiar = 0  # positions where a familiar ability was legal

    def _run(self, state, end):
        while True:
            actions = state.legal_actions()
            if state.phase == 2:
                assert set(actions) == brute_force_main_actions(state)
                assert len(set(actions)) == len(actions)
                ComparingRandom.compared += 1
                ComparingRandom.familiar += any(a.kind == K.USE_FAMILIAR_ABILITY for a in actions)
            action = state.policy_rng.choice(actions)
            if action.kind == end:
                return
            state.apply(action)


@pytest.mark.parametrize("deck", ["standard", "ultimate"])
def test_legal_actions_are_exactly_what_the_rule_checks_allow(deck, request):
    t = request.getfixturevalue(deck)
    expected = all_cards(t)
    ComparingRandom.familiar = 0
    for seed in range(40):
        drive(t, ComparingRandom(), seed, 6, seed % 2 == 0, expected, hits=deck == "ultimate", defends=seed % 3 == 0)
    assert ComparingRandom.compared > 1000
    assert (ComparingRandom.familiar > 0) == (deck == "ultimate")  # A4 is compared too


def test_the_reported_engine_build_is_the_one_imported():
    # `sengoku --version` tells from the files whether the engine is compiled (hatch_build.py);
    # Python imports an extension module before a .py file of the same name.
    import sengoku.engine.game
    import sengoku.engine.policies.greedy.policy
    import sengoku.engine.state
    from sengoku.build import engine_build, engine_compiled

    compiled = [not m.__file__.endswith(".py")
                for m in (sengoku.engine.state, sengoku.engine.policies.greedy.policy, sengoku.engine.game)]
    assert compiled == [engine_compiled()] * 3
    assert engine_build() == ("compiled with mypyc" if compiled[0] else "pure Python")


def test_every_engine_module_with_code_is_compiled():
    # hatch_build.py names the modules mypyc compiles; a new module of the engine left off that
    # list would run interpreted inside the compiled engine (the same games, at a fraction of the
    # speed). Only the package __init__s, the errors and the fitted rules' weights stay Python.
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    tree = ast.parse((root / "hatch_build.py").read_text())
    listed = next(ast.literal_eval(node.value) for node in tree.body if isinstance(node, ast.Assign)
                  and any(isinstance(t, ast.Name) and t.id == "ENGINE_MODULES" for t in node.targets))
    engine = root / "src" / "sengoku" / "engine"
    modules = {p.relative_to(engine).with_suffix("").as_posix() for p in engine.rglob("*.py")}
    stays_python = {m for m in modules if m.endswith("__init__") or m == "errors" or m.endswith("_weights")}
    assert modules - stays_python == set(listed)
