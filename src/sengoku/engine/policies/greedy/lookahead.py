"""The default policy's look-ahead on its first turns: each Main Phase step chosen by playing the turn out.

On the first `lookahead_turns` turns (going second, and going first against a defending opponent
with `lookahead_first_defends`, against a passive one with `lookahead_first`, or in Ultimate mode
with `lookahead_first_ultimate`), before
greedy's own script plays the turn, up to `lookahead_steps` steps are chosen so: every distinct legal
step, and "let greedy play the turn" (`FINISH`), is tried on copies of the position
(`sengoku.engine.clone`), greedy's own script plays the rest of the turn on each, and the turn's end
is valued by `turn_value`: the kill turn that the fitted rule (`turn_weights`, fitted on the fit
set by benchmarks/fit_turn_weights.py) expects from such a position, or the turn itself when the copy
won. Two stages, as the search's: every option on one copy, then the best `lookahead_finalists` and
FINISH on `lookahead_copies` fresh copies each; a step is taken only when its mean there is below
FINISH's by more than `lookahead_margin`. Going first (no attack on turn 1, S8, so its end says
little), the second stage plays greedy's next turn too and values that turn's end, where a rule is
fitted for it (`lookahead_next_turn_first`). Every option of a stage meets the same luck: one copy of
the position draws the hidden orders (`clone_state`), and each option plays on an exact copy of it
(`copy_state`). The copies' seeds are keyed by the run's policy seed and the decision's place, never
drawn from a stream, so the look-ahead changes no other draw of the game (G7).

Unlike `search`, nothing is played past the turn's end: a look-ahead of a turn, not of the game,
so that it costs a few hundred turns of greedy a game instead of thousands of games.
"""

from __future__ import annotations

import random

from mypy_extensions import mypyc_attr  # read by mypyc when the engine is compiled

from sengoku.engine.actions import Action, Kind
from sengoku.engine.board import COMMAND_ZONE
from sengoku.engine.chance import text_seed
from sengoku.engine.clone import clone_state, copy_state
from sengoku.engine.constants import CHARGE
from sengoku.engine.policies.base import Policy, forced_charges
from sengoku.engine.policies.greedy import turn_weights
from sengoku.engine.policies.greedy.known import Known
from sengoku.engine.policies.greedy.odds import best_attack
from sengoku.engine.policies.greedy.walks import free_mask, walk_length
from sengoku.engine.state import GameState


def option_key(state: GameState, action: Action) -> tuple[object, ...]:
    """What tells two actions apart as choices: actions that differ only by which copy of a card in
    hand they take are one."""
    if action.kind in (Kind.DEPLOY, Kind.STACK, Kind.USE_HAND_ABILITY):
        return (action.kind, state.hand[action.args[0]]) + tuple(action.args[1:])
    return (action.kind,) + tuple(action.args)


def steps(state: GameState) -> list[Action]:
    """The distinct legal Main Phase steps, but ending the turn (`option_key`)."""
    out: list[Action] = []
    seen: set[tuple[object, ...]] = set()
    for action in state.legal_actions():
        if action.kind == Kind.END_TURN:
            continue
        key = option_key(state, action)
        if key not in seen:
            seen.add(key)
            out.append(action)
    return out


def turn_end_features(k: Known, state: GameState) -> list[float]:
    """The features of a position at the end of a Main Phase, in the order of `turn_weights.FEATURES`.

    The one definition: the policy (`turn_value`) and the script that fits the weights
    (benchmarks/fit_turn_weights.py) both read them here. An ally's hit chance is `odds.best_attack`'s;
    it is "in range" on a space from which its top card reaches the Stronghold, else as many Moves
    from range as `walks.walk_length` finds through free spaces (up to 3).
    """
    reaches = k.reaches
    free = free_mask(state.occupant)
    allies = 0
    hp = 0
    in_range = 0
    hit_in = hit_1 = hit_2 = hit_far = 0.0
    waiting = 0.0  # an ally out of range in the Command Zone (the Commander, or an ally returned there)
    for a in state.allies:
        if not a.in_play:
            continue
        allies += 1
        hp += a.hp
        hit = best_attack(k, state, a)[0]
        if a.space >= 0 and reaches[a.top][a.space]:
            hit_in += hit
            in_range += 1
        else:
            moves = walk_length(k, a, k.spot_mask[a.top], free, 3)
            if moves == 1:
                hit_1 += hit
            elif moves == 2:
                hit_2 += hit
            else:
                hit_far += hit
            if a.space == COMMAND_ZONE:
                waiting = 1.0
    left = float(state.opp_sh_hp)
    rate = hit_in + 0.6 * hit_1 + 0.3 * hit_2
    ultimate = 1.0 if state.t.ultimate else 0.0
    joining = 1.0 if state.opp_defends and state.joining_commander() >= 0 else 0.0
    return [1.0, left, left * left / 10.0, left / (rate + 0.5), hit_in, hit_1, hit_2, hit_far, float(allies),
            hp / 5.0, float(len(state.hand)), state.ap / 5.0, ultimate, ultimate * left, waiting, joining,
            float(in_range)]


def group(state: GameState) -> int:
    """The index in `turn_weights.WEIGHTS` of the rule for this position's turn and setting, or -1 if none
    was fitted: (turn - 1) * 4 + 2 * going first + defending opponent."""
    turn = state.turn
    if turn < 1 or turn > turn_weights.TURNS:
        return -1
    return (turn - 1) * 4 + (2 if state.going_first else 0) + (1 if state.opp_defends else 0)


def next_group(state: GameState) -> int:
    """`group` of the same seat and opponent on the next turn, or -1 if no rule is fitted for it."""
    g = group(state)
    if g < 0 or state.turn >= turn_weights.TURNS or not turn_weights.WEIGHTS[g + 4]:
        return -1
    return g + 4


def turn_value(k: Known, state: GameState) -> float:
    """The kill turn expected from a position at the end of a Main Phase: the turn itself if it is won,
    else the fitted rule's value of its `turn_end_features` (in turns; lower wins sooner)."""
    if state.won_turn is not None:
        return float(state.won_turn)
    weights = turn_weights.WEIGHTS[group(state)]
    x = turn_end_features(k, state)
    v = 0.0
    for i in range(len(x)):
        v += x[i] * weights[i]
    return v


def copy_seed(policy_seed: int, turn: int, step: int, copy: int) -> int:
    """The seed of copy `copy` (0: the first stage's) at Main Phase step `step` of turn `turn`, in the run
    whose policy seed is `policy_seed` (`chance.text_seed`)."""
    return text_seed(f"sengoku-lookahead:{policy_seed}:{turn}:{step}:{copy}")


@mypyc_attr(allow_interpreted_subclasses=True)
class LookAhead:
    """The look-ahead of one greedy policy: `player` is greedy with the same settings but no look-ahead
    (it plays the turns out on the copies). A subclass of `GreedyPolicy` that overrides a decision makes
    that decision in its own game's turns; on the copies, greedy's own script plays it."""

    def __init__(self, player: Policy, known: Known) -> None:
        self.player = player
        self.known = known

    def applies(self, state: GameState) -> bool:
        """Whether this turn's steps are looked ahead (its turn, seat and a fitted rule for them)."""
        s = self.known.settings
        if state.going_first and not (s.lookahead_first_defends if state.opp_defends
                                      else s.lookahead_first or (s.lookahead_first_ultimate and state.t.ultimate)):
            return False
        return (state.turn <= s.lookahead_turns and state.won_turn is None and group(state) >= 0
                and len(turn_weights.WEIGHTS[group(state)]) > 0)

    def charge_plan(self, state: GameState, send: list[int]) -> tuple[list[int], int] | None:
        """The Charge Phase plan to play instead of greedy's, or None for greedy's own (`send`: the hand
        positions greedy's plan sends for AP Charge). The plans tried: greedy's, greedy's with one card
        more or fewer sent, and greedy's with an HP Charge of one ally; each valued by greedy's turn
        played out (`turn_value`). A plan is (hand positions to send, ally to HP-charge or -1)."""
        sent = set(send)
        hand = state.hand
        plans: list[object] = [None]
        seen: set[tuple[tuple[int, ...], int]] = {(tuple(sorted(hand[p] for p in send)), -1)}
        for p in range(len(hand)):
            other = [q for q in send if q != p] if p in sent else sorted(send + [p])
            key = (tuple(sorted(hand[q] for q in other)), -1)
            if key not in seen:
                seen.add(key)
                plans.append((other, -1))
        cost = state.t.cost
        for i in range(len(state.allies)):
            a = state.allies[i]
            if a.in_play and a.hp < cost[a.top]:  # (an HP Charge the AP may pay for: tried on the copies)
                plans.append((list(send), i))
        best = self._choose(state, plans, state.chance.policy, 0)
        if best == 0:
            return None
        plan = plans[best]
        assert isinstance(plan, tuple)
        return plan

    def play(self, state: GameState) -> None:
        """Take the steps the look-ahead chooses, up to `lookahead_steps` of them; greedy's script then
        plays the rest of the turn."""
        s = self.known.settings
        policy_seed = state.chance.policy
        for step in range(1, s.lookahead_steps + 1):
            options: list[object] = [None]
            options.extend(steps(state))
            if len(options) == 1:
                return
            best = self._choose(state, options, policy_seed, step)
            if best == 0:
                return
            chosen = options[best]
            assert isinstance(chosen, Action)
            state.apply(chosen)
            if state.won_turn is not None:
                return

    def _choose(self, state: GameState, options: list[object], policy_seed: int, step: int) -> int:
        """The index of the option to take (0: greedy's own), in two stages (see the module's doc);
        `step` 0 is the Charge Phase, whose options are plans (`charge_plan`), else Main Phase steps."""
        s = self.known.settings
        base = clone_state(state, random.Random(copy_seed(policy_seed, state.turn, step, 0)))
        first = [self._value(base, o) for o in options]
        order = sorted(range(len(options)), key=lambda i: (first[i], i))
        finalists = order[: s.lookahead_finalists]
        if 0 not in finalists:
            finalists.append(0)
        bases = [clone_state(state, random.Random(copy_seed(policy_seed, state.turn, step, j)))
                 for j in range(1, s.lookahead_copies + 1)]
        deep = s.lookahead_next_turn_first and state.going_first and next_group(state) >= 0
        finish = self._mean(bases, None, deep)
        best, best_value = 0, finish - s.lookahead_margin
        for i in finalists:
            if i != 0:
                v = self._mean(bases, options[i], deep)
                if v < best_value:
                    best, best_value = i, v
        return best

    def _mean(self, bases: list[GameState], option: object, deep: bool = False) -> float:
        total = 0.0
        for base in bases:
            total += self._value(base, option, deep)
        return total / len(bases)

    def _value(self, base: GameState, option: object, deep: bool = False) -> float:
        """`turn_value` of an exact copy of `base` after `option`, greedy playing the turn out: a Main Phase
        step, a Charge Phase plan (then the Main Phase), or None: greedy's own (in the Charge Phase: its
        plan, then the Main Phase). `deep`: greedy plays the next turn too (its Charge Phase, the Draw
        Phase from the copy's own hidden order, its Main Phase), and that turn's end is valued."""
        c = copy_state(base)
        if c.phase == CHARGE:
            if isinstance(option, tuple):
                apply_plan(c, option)
            else:
                self.player.charge_phase(c)
            c.end_charge_phase()
        elif isinstance(option, Action):
            c.apply(option)
        if c.won_turn is None:
            self.player.main_phase(c)
        if deep and c.won_turn is None:
            c.end_turn()
            c.begin_turn()
            self.player.charge_phase(c)
            c.end_charge_phase()
            self.player.main_phase(c)
        return turn_value(self.known, c)


def apply_plan(state: GameState, plan: tuple[list[int], int]) -> None:
    """Play a Charge Phase plan of `LookAhead.charge_plan`: send its cards for AP Charge, then what the hand
    limits force (T2a), then its HP Charge (T2b) when the rules allow it."""
    send, target = plan
    if send:
        state.charge_cards(send)
    forced_charges(state)
    if target >= 0 and state.can_hp_charge(target) is None:
        state.hp_charge(target)
