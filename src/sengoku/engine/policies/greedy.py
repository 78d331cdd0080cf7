"""The default policy (G6): develops like `develop`, then advances and attacks the opponent's Stronghold to win.

What it knows of the Last Guard (K4) is what a player knows: the opponent's deck list (by default
a mirror of ours). Per deck it works out, for every attack power, the chance that a random card of
the opponent's Stronghold has no higher ATK (or MAT): the chance an attack of that kind hits.
Against a defending opponent (G4) those chances also count the self-boosts its hand can pay and,
until it has joined a combat, its Commander.
"""

from __future__ import annotations

from math import comb
from typing import ClassVar, Final

from mypy_extensions import mypyc_attr  # read by mypyc when the engine is compiled

from sengoku.engine.ally import Ally
from sengoku.engine.board import COMMAND_ZONE
from sengoku.engine.constants import HAND_LIMIT
from sengoku.engine.errors import IllegalAction
from sengoku.engine.policies import charge_weights, deploy_weights, focus_weights
from sengoku.engine.policies.develop import DevelopPolicy
from sengoku.engine.state import GameState
from sengoku.engine.tables import NAMELESS, OP_DRAW, OP_HEAL, SUPPORT, DeckTables


def hit_chances(powers: list[int]) -> tuple[float, ...]:
    """Return, for each attack power p from 0 up, the chance that a Last Guard drawn at random from
    cards of these `powers` is not higher than p (K4: higher or equal takes 1 Stronghold HP)."""
    n = len(powers)
    top = max(powers, default=0)
    if n == 0:
        return (1.0,)
    out = []
    for p in range(top + 1):
        out.append(sum(1 for g in powers if g <= p) / n)
    return tuple(out)


def defended_hit_chances(ot: DeckTables, cards: list[int], magic: bool) -> tuple[float, ...]:
    """`hit_chances` against a defending opponent (G4) whose hand pays its Last Guard's self-boosts.

    The guard is a random card of `cards` (its Stronghold); its hand holds HAND_LIMIT of the others
    (S6), so the count of the guard's namesakes there is hypergeometric. It boosts (K2, one namesake
    each, Nameless excepted) while the attack would still win; the attack hits when its power is at
    least the guard's power after every boost the hand can pay.
    """
    n = len(cards)
    if n == 0:
        return (1.0,)
    others = n - 1
    drawn = min(HAND_LIMIT, others)
    ways = comb(others, drawn)
    by_name: dict[int, int] = {}
    for c in cards:
        if ot.kind[c] != NAMELESS:
            by_name[ot.name_id[c]] = by_name.get(ot.name_id[c], 0) + 1
    needs: list[tuple[float, int]] = []  # (chance, power the attack needs), over guard and hand
    for c in cards:
        base = ot.mat[c] if magic else ot.atk[c]
        values = ot.boost_mat[c] if magic else ot.boost_atk[c]
        namesakes = by_name.get(ot.name_id[c], 1) - 1 if ot.kind[c] != NAMELESS else 0
        power = base
        for k in range(min(len(values), drawn) + 1):
            if k:
                power += values[k - 1]
            if k < len(values) and k < drawn:  # exactly k namesakes in hand
                p = comb(namesakes, k) * comb(others - namesakes, drawn - k) / ways
            else:  # k or more: every boost paid
                p = 1.0 - sum(comb(namesakes, j) * comb(others - namesakes, drawn - j) for j in range(k)) / ways
            if p > 0:
                needs.append((p / n, power))
    top = max(power for _, power in needs)
    out = []
    for q in range(top + 1):
        total = 0.0
        for p, power in needs:
            if power <= q:
                total += p
        out.append(min(total, 1.0))
    return tuple(out)


def fitted_value(x: list[float], weights: tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]],
                 second: float, ultimate: float) -> float:
    """A fitted rule's value of features `x`: each weight with its parts going second and in
    Ultimate mode (`charge_weights.CARD`, `focus_weights.FOCUS`)."""
    w0, w1, w2 = weights
    v = 0.0
    for i in range(len(x)):
        v += x[i] * (w0[i] + second * w1[i] + ultimate * w2[i])
    return v


def setting_value(x: list[float], weights: tuple[tuple[float, ...], ...], factors: list[float]) -> float:
    """A fitted rule's value of features `x` when each weight has a part per factor of the setting
    (1, going second, Ultimate mode, a defending opponent: `deploy_weights.DEPLOY`)."""
    v = 0.0
    for j in range(len(factors)):
        f = factors[j]
        if f:
            w = weights[j]
            for i in range(len(x)):
                xi = x[i]
                if xi != 0.0:  # (a zero feature adds nothing: skipped, the sum is the same)
                    v += f * xi * w[i]
    return v


def chance(table: tuple[float, ...], power: int) -> float:
    """Return the hit chance of `power` from a `hit_chances` table (1 beyond its end)."""
    if power >= len(table):
        return 1.0
    return table[power] if power >= 0 else 0.0


def draws(effects: tuple[tuple[int, int, int], ...]) -> bool:
    """Whether an ability's effects (C5) draw cards."""
    for op, _, _ in effects:
        if op == OP_DRAW:
            return True
    return False


# `_path`'s marks in its table of where the walk came from.
_UNSEEN: Final = -3
_FIRST_STEP: Final = -2


@mypyc_attr(allow_interpreted_subclasses=True)
class GreedyPolicy(DevelopPolicy):
    """Play to win: grow and focus first, move allies (the Commander too) into attack range and attack
    the Stronghold with the kind (ATK or MAT) likelier to beat the Last Guard, self-boosting when that
    raises the odds; then deploy, HP-charge and use abilities as AP allows, and advance new allies."""

    name = "greedy"
    # Send for AP Charge what cannot be played this turn instead of keeping a card deployable next
    # turn (benchmarks/greedy_ab.py keep_for_next_turn=True: 0.008 turns later on average over the
    # suite, up to 0.06 on its high-level deck; 0.02 sooner on one Ultimate deck going first).
    keep_for_next_turn = False
    # No HP Charge (T2b: 5 AP or more for +1 HP): the AP deploys and walks instead. Measured with
    # benchmarks/greedy_ab.py hp_charge=False before it became the default: sooner on each of the
    # suite's 32 deck-and-setting rows, 0.033 turns on average (0.012 to 0.089).
    hp_charge = False
    # Attack (or move into range to attack) with any chance to take Stronghold HP: measured on the
    # bundled decks (benchmarks/killturn_bench.py), holding back weak attackers to keep them alive
    # wins later (a threshold of 0.3 costs 0.08 turns on Standard, 0.5 costs 0.14 and 0.19).
    min_hit: ClassVar[float] = 0.01
    # A self-boost (a card) is paid only when it raises the hit chance by more than this.
    boost_gain: ClassVar[float] = 0.02
    # No AP is spent walking an ally into range for an attack below this hit chance when it would
    # more likely than not be lost to the Last Guard (K4: the guard's power against the ally's,
    # as K1): a 1-HP Nameless walking into an ATK 18 guard (benchmarks/greedy_ab.py risky_hit=0
    # measures it), in the first `risky_turns` turns (measured: later, the walk pays). From where it stands, an ally attacks whenever it can hit at all: a guard
    # that wins goes to the opponent's hand, so the Stronghold left has the lower guards.
    risky_hit: ClassVar[float] = 0.2
    # In Ultimate mode (8 Stronghold HP, U1-U5) the walk waits for a higher chance: turn 1 going
    # second, an ally kept is an attacker on every turn after (benchmarks/greedy_ab.py
    # risky_hit_ultimate=0.2 measures it; `risky_hit` itself also gates Releases, where 0.4 was later).
    risky_hit_ultimate: ClassVar[float] = 0.4
    risky_turns: ClassVar[int] = 1  # ... in the first turn only, when AP is what the first deployments need
    # ... and against a defending opponent (G4) in Standard mode too: its Last Guard self-boosts,
    # and one that wins goes to its hand to pay for more (benchmarks/greedy_ab.py
    # risky_defended=False measures it; in Ultimate mode, 9 hits to win, it was later on a deck).
    risky_defended: ClassVar[bool] = True
    # ... and there it holds for the first two turns: the defender's Commander joins the first
    # combat (G4) and a Last Guard that wins pays for the next one's self-boosts, so a Nameless
    # walked in on turn 2 is mostly lost for nothing (the search walks 0.14 fewer Level 1 allies a
    # game on turn 2 of `one-commander` first-defends; benchmarks/greedy_ab.py risky_turns_defended=1
    # measures it).
    risky_turns_defended: ClassVar[int] = 2
    # ... and going first in Standard mode it holds through turn 2, the first turn with attacks
    # (S8): `risky_turns` alone never applied there (benchmarks/greedy_ab.py risky_turns_first=1
    # measures it; in Ultimate mode it was 0.04 turns later on both decks going first).
    risky_turns_first: ClassVar[int] = 2
    # Against a defending opponent (G4), before an ally on the Stronghold Perimeter attacks, step it
    # (1 AP, M4) to a free space off the Perimeter from which it still reaches the Stronghold, but
    # not onto the space the opponent's Commander would take when it joins (it would take the next
    # one, which may be ours in range): the Perimeter space is left for a deployment (M1) in range.
    # benchmarks/greedy_ab.py step_ahead=False measures it (every Standard defending row sooner;
    # no change without a defender).
    step_ahead: ClassVar[bool] = True
    # Against a defending opponent (G4) in Standard mode, the first attack on its Stronghold meets
    # its Commander's power too, and only that one: the ally whose hit chance that lowers least
    # attacks first, even one that cannot hit (it spares the others the Commander), when another
    # ally is ready to attack after it (benchmarks/greedy_ab.py soak_commander=False measures it).
    soak_commander: ClassVar[bool] = True
    # Swap (M5, 2 AP) two adjacent allies in Attack Stance when that puts more of the two where
    # they reach the Stronghold (K4): before the attacks, counting the allies that can attack this
    # turn; at the end of the turn, for the next (benchmarks/greedy_ab.py swap_into_range=False
    # measures it).
    swap_into_range: ClassVar[bool] = True
    # Against a defending opponent (G4), at the end of the turn, an ally in Attack Stance on the
    # Stronghold Perimeter that reaches the Stronghold steps (M4, 1 AP) to a free space off the
    # Perimeter still in range, as `step_ahead` does before an attack: going first, turn 1 has no
    # attack, and the Perimeter space it frees takes next turn's deployment in range (M1)
    # (benchmarks/greedy_ab.py step_ahead_end=False measures it).
    step_ahead_end: ClassVar[bool] = True
    # Of the new names that can be deployed, the card with the fewest spaces from which it reaches
    # the Stronghold (no corner: c2 and c3 only) is deployed first, then by level and cost as
    # `develop` does (the count of its name's cards in hand still first): it takes the space only
    # it can use, and the cards with corners go round it (`walk_deploy`, `step_ahead_for_room`;
    # benchmarks/greedy_ab.py scarce_first=False measures it).
    scarce_first: ClassVar[bool] = True
    # The space a defending opponent's Commander would take when it joins (G4) is avoided (by
    # `step_ahead` and `walk_deploy`) only when taking it would send the Commander to a space from
    # which more of our deck's cards (each card once) reach the Stronghold: c3 while it is free;
    # otherwise an ally may stand there, and the Commander goes on to the next space, or cannot
    # join at all (benchmarks/greedy_ab.py landing_value=False measures it).
    landing_value: ClassVar[bool] = True
    # Deploy where the card that will top the ally this turn reaches the Stronghold: the
    # highest-level card of its name in hand grows onto it at once (M2), and its range (a Level 4's
    # corners) may take a Perimeter space the deployed card's does not, leaving the one every card
    # reaches to the next deployment (benchmarks/greedy_ab.py deploy_for_top=False measures it).
    deploy_for_top: ClassVar[bool] = True
    # A card with no free Perimeter space in range is deployed on the free one fewest Moves (M4)
    # from a free space in range (for a defending opponent's Commander yet to join, its space
    # counts as taken, G4), not merely the one furthest ahead (benchmarks/greedy_ab.py
    # walk_deploy=False measures it).
    walk_deploy: ClassVar[bool] = True
    # Release a Contracted familiar (U5) next to its holder where it reaches the Stronghold and
    # attack with it the same turn (benchmarks/greedy_ab.py releases=False measures it).
    releases: ClassVar[bool] = True
    # In the first `extra_charge_turns` turns, send `extra_charge` more of the cards the plan keeps
    # for AP Charge (T2a), lowest level first: the Draw Phase (T3) refills the hand at once, so each
    # sent card is its charge value and a fresh card this very turn (the search sends one to three
    # more on turn 1; benchmarks/search_choices.py). benchmarks/greedy_ab.py: extra_charge=0 is 0.09
    # turns later (every row of the suite), 2 is 0.01 later, 4 and 5 later still; turn 2 too, no change.
    extra_charge: ClassVar[int] = 3
    extra_charge_turns: ClassVar[int] = 1
    # ... unless the fitted rule (`charge_weights`, fitted by benchmarks/fit_charges.py to the
    # search's rollouts on sampled turn-1 hands) expects another choice of extra cards to win at
    # least `fitted_margin` turns sooner: each card the plan keeps gets a value from its own
    # features (level, charge value, cost, kind, whether it can Grow or Focus now, copies of its
    # name in hand, the Commander's name, the lowest of its name, affordable) and the hand's, and the
    # cheapest count of the lowest-valued cards is sent (benchmarks/greedy_ab.py fitted_charges=False
    # measures it; the margin was chosen on other deals, `--seed 5`).
    fitted_charges: ClassVar[bool] = True
    fitted_margin: ClassVar[float] = 0.04
    # On turn 1, a card that could Focus (M3) onto a Nameless out of its range, and could instead be
    # deployed (M1) onto a free Perimeter space in its range, is deployed when the rule fitted to
    # the search's rollouts (`focus_weights`, benchmarks/fit_focus.py) values that above
    # `focus_margin` turns: the search deploys the Ayame cards so where greedy focused them onto
    # the Nameless Onmyoji on d1 (benchmarks/greedy_ab.py fitted_focus=False measures it).
    fitted_focus: ClassVar[bool] = True
    focus_margin: ClassVar[float] = 0.0
    # On turn 1, a card deployed (M1) while a free Perimeter space in its range is left goes to the
    # free Perimeter space that the rule fitted to the search's rollouts
    # (`deploy_weights`, benchmarks/fit_deploy.py) values highest, when that beats greedy's own
    # space by more than `deploy_margin` turns: the search deploys to b2 or d2 where greedy takes
    # c2, the one Perimeter space every card reaches from (benchmarks/greedy_ab.py
    # fitted_deploy=False measures it).
    fitted_deploy: ClassVar[bool] = True
    deploy_margin: ClassVar[float] = 0.03
    # When every Perimeter space from which a card to deploy reaches the Stronghold is taken, an
    # ally in Attack Stance there steps one space ahead to a space from which it still reaches
    # (M4, 1 AP) and the card takes its place (the search deploys and moves so; benchmarks/
    # greedy_ab.py step_ahead_for_room=False measures it).
    step_ahead_for_room: ClassVar[bool] = True
    # No Growth or Focus makes a Nameless a namesake of the Commander while the Commander is in the
    # Command Zone: the Commander could not enter the Battlefield while it lives (M1, M4), and it
    # is the ally the deck grows; the card is sent for AP Charge instead (benchmarks/greedy_ab.py
    # keep_commander_name=False measures it).
    keep_commander_name: ClassVar[bool] = True
    # In the first `draw_first_turns` turns, a hand card's ability that draws (C5) is used at the
    # start of the Main Phase, before the AP goes to deployments, and even by a card that could
    # Grow or Focus (the search draws so on turn 1). benchmarks/greedy_ab.py draw_first_turns=0:
    # 0.0015 turns later (two seeds), up to 0.024 on ultimate-beasts going second; with any AP
    # (going first too) it was later: the first deployments need the AP.
    draw_first_turns: ClassVar[int] = 1
    draw_first_ap: ClassVar[int] = 22  # ... when the Main Phase starts with at least this AP
    # Against a defending opponent whose Commander has yet to join (G4), when at most
    # `block_commander` spaces of its Stronghold Perimeter are free, all on our board, walk an ally
    # onto each (M4) from which it still reaches the Stronghold, before the attacks: with no free
    # space the Commander cannot join, and every attack meets the Last Guard alone (K4). The
    # search steps allies into the last free spaces (benchmarks/search_choices.py); benchmarks/
    # greedy_ab.py block_commander=0 measures it (most first-defends rows later, by up to 0.12).
    block_commander: ClassVar[int] = 3
    # Before the attacks, an ally that can attack this turn but stands out of range, with a walk of
    # 3 Moves or more (or none the AP pays for) into it, has its way opened: an ally in Attack
    # Stance standing in range steps one space (M4, 1 AP) to a free space from which it still
    # reaches, when that shortens the walk by two Moves or more (the search's "move Sorin L3 to
    # d3 from d2" ahead of the ally on d1, which greedy walked round by e1, e2, e3; benchmarks/
    # greedy_ab.py step_ahead_for_walk=False measures it).
    step_ahead_for_walk: ClassVar[bool] = True
    # ... and when no single step opens it, two allies in range each step one space (2 AP) if that
    # shortens the walk by three Moves or more (a Nameless on b1 behind allies on b2 and c2, its
    # way to c2 or c3 round by a1, a2, a3: b2 steps to b3 and c2 to c3, and it walks b2, c2;
    # benchmarks/greedy_ab.py pair_steps_for_walk=False measures it).
    pair_steps_for_walk: ClassVar[bool] = True
    abilities: ClassVar[bool] = True  # use the runnable abilities that help (C5), last in the turn
    familiar_abilities: ClassVar[bool] = True  # ... and Contracted familiars' abilities (A4), among them

    def __init__(self) -> None:
        super().__init__()
        self._hit_atk: tuple[float, ...] = ()
        self._hit_mat: tuple[float, ...] = ()
        self._spots: tuple[tuple[int, ...], ...] = ()
        self._reaches: tuple[tuple[bool, ...], ...] = ()
        self._plans: tuple[tuple[tuple[float, bool, int], ...], ...] = ()
        self._guards_of: DeckTables | None = None
        self._guards_defend = False
        self._guard_atk: list[int] = []  # the Last Guard's possible ATK (and MAT), one per card
        self._guard_mat: list[int] = []
        self._demand: tuple[float, ...] = ()  # per space: the share of the deck's cards in range from it

    def _prepare(self, t: DeckTables) -> None:
        super()._prepare(t)
        board = t.board
        # Per card: the spaces from which it reaches the opponent's Stronghold (K4), furthest ahead
        # first (they leave the spaces behind free for the allies that follow).
        ahead = sorted(range(board.n_spaces), key=lambda s: (-board.coords[s][0], s))
        self._spots = tuple(tuple(s for s in ahead if board.reaches_enemy_stronghold(s, t.corners[c]))
                            for c in range(t.n))
        # The same as a lookup by space (a.space >= 0 and _reaches[a.top][a.space]: ally a is in range).
        self._reaches = tuple(tuple(s in spots for s in range(board.n_spaces)) for spots in self._spots)
        # Per space: the share of the deck's distinct cards that reach the Stronghold from it.
        distinct = {t.card_id[c]: c for c in range(t.n)}.values()
        self._demand = tuple(sum(1 for c in distinct if self._reaches[c][s]) / max(1, len(distinct))
                             for s in range(board.n_spaces))
        self._guards_of = None
        if self.scarce_first:
            # DevelopPolicy's key with the count of spaces in range in bits 13-14, above the level
            # (bits 10-12) and below the count of the name's cards in hand (bits 15-19): 0 for two
            # spaces in range (c2, c3), the fewest
            self._deploy_key = tuple(key | min(3, max(0, len(self._spots[c]) - 2)) << 13
                                     for c, key in enumerate(self._deploy_key))

    def _prepare_guards(self, state: GameState) -> None:
        """The Last Guard's odds: the opponent's Stronghold is its deck minus its Commander (S1, S3, G4)."""
        t = state.t
        ot = state.opp_t
        cards = ot.stronghold_after(state.opp_allies[0].top)
        if state.opp_defends:
            self._hit_atk = defended_hit_chances(ot, cards, False)
            self._hit_mat = defended_hit_chances(ot, cards, True)
        else:
            self._hit_atk = hit_chances([ot.atk[c] for c in cards])
            self._hit_mat = hit_chances([ot.mat[c] for c in cards])
        # Per top card, the best attack with 0, 1, 2... payable self-boosts (as far as they differ).
        plans = []
        for c in range(t.n):
            most = max(len(t.boost_atk[c]), len(t.boost_mat[c]))
            plans.append(tuple(self._plan(t, c, -1, False, k) for k in range(most + 1)))
        self._plans = tuple(plans)
        self._guard_atk = [ot.atk[c] for c in cards]
        self._guard_mat = [ot.mat[c] for c in cards]
        self._guards_of = ot
        self._guards_defend = state.opp_defends

    # ---- Charge Phase ------------------------------------------------------------------------

    def _plan_charges(self, state: GameState) -> tuple[list[int], int]:
        send, ap = DevelopPolicy._plan_charges(self, state)
        if self.extra_charge > 0 and state.turn <= self.extra_charge_turns and len(send) < len(state.hand):
            # (the AP the plan counts on already holds every card's charge value)
            if not (self.fitted_charges and self._charge_fitted(state, send, ap)):
                self._charge_extra(state, send)
        return send, ap

    def charge_features(self, state: GameState, send: list[int], ap: int) -> list[tuple[int, list[float]]]:
        """Each hand position the plan `send` keeps, with its features for the fitted rule
        (`charge_weights.CARD_FEATURES`, in that order); `ap` is the AP the plan counts on.

        The one definition of the features: the default policy and the script that fits the
        weights (benchmarks/fit_charges.py) both read them here."""
        t = state.t
        hand = state.hand
        nid, level = t.name_id, t.level
        cz = state.command_zone
        cz_name = -1 if cz is None else nid[cz.top]
        kept = len(hand) - len(send)
        out: list[tuple[int, list[float]]] = []
        for p, c in enumerate(hand):
            if p in send:
                continue
            lv = level[c]
            same = 0
            lowest = True
            for q, d in enumerate(hand):
                if q != p and nid[d] == nid[c]:
                    same += 1
                    if level[d] < lv:
                        lowest = False
            stacks = isinstance(state.stack_target_or_name(c), Ally)
            affordable = t.cost[c] <= ap
            out.append((p, [1.0, float(lv == 1), float(lv == 2), float(lv == 3), float(lv == 4),
                            float(t.charge[c]), t.cost[c] / 5.0, float(t.kind[c] == SUPPORT),
                            float(t.kind[c] == NAMELESS), float(stacks), float(min(same, 2)),
                            float(nid[c] == cz_name), float(lowest), float(affordable),
                            float(lowest and affordable and not stacks), ap / 10.0, kept / 5.0]))
        return out

    def _charge_fitted(self, state: GameState, send: list[int], ap: int) -> bool:
        """`fitted_charges`: add to `send` the extra cards the fitted rule chooses, when it expects
        them to win at least `fitted_margin` turns sooner than `_charge_extra`'s; return whether it did."""
        second = 0.0 if state.going_first else 1.0
        ultimate = 1.0 if state.t.ultimate else 0.0
        defends = 1.0 if state.opp_defends else 0.0
        values: list[tuple[float, int]] = []
        for p, x in self.charge_features(state, send, ap):
            values.append((fitted_value(x, charge_weights.CARD, second, ultimate), p))
        values.sort()
        # The size term of sending k cards (k of 7 or more: the last), per k.
        s0, s1, s2, s3, s4 = charge_weights.SIZE
        ap10 = ap / 10.0
        size = [s0[i] + second * s1[i] + ultimate * s2[i] + defends * s3[i] + ap10 * s4[i] for i in range(len(s0))]
        best, count, total = 0.0, 0, 0.0  # sending none: 0 by definition
        for k in range(1, len(values) + 1):
            total += values[k - 1][0]
            v = total + size[min(k, len(size)) - 1]
            if v < best:
                best, count = v, k
        # The fixed rule's choice, valued the same way.
        usual = list(send)
        self._charge_extra(state, usual)
        extra = usual[len(send):]
        fixed = 0.0
        if extra:
            for v, p in values:
                if p in extra:
                    fixed += v
            fixed += size[min(len(extra), len(size)) - 1]
        if best > fixed - self.fitted_margin:
            return False
        for _, p in values[:count]:
            send.append(p)
        return True

    def _charge_extra(self, state: GameState, send: list[int]) -> None:
        """Add to `send` up to `extra_charge` of the hand positions it does not hold: lowest level
        first, then the highest charge value, then hand order."""
        t = state.t
        level, charge = t.level, t.charge
        hand = state.hand
        keys = []  # level, then charge value (high first), then position, packed in one int
        for p, c in enumerate(hand):
            if p not in send:
                keys.append(level[c] << 24 | (255 - charge[c]) << 16 | p)
        keys.sort()
        for k in keys[: self.extra_charge]:
            send.append(k & 0xFFFF)

    def focus_or_deploy(self, state: GameState, card: int, ally: Ally) -> int:
        """The choice `fitted_focus` weighs: when `card` could Focus onto the Nameless `ally` on the
        Battlefield, from whose space it would not reach the Stronghold, and the AP pays for
        deploying it onto a free Perimeter space from which it reaches, that space (the one
        furthest ahead); else -1."""
        t = state.t
        if t.kind[ally.top] != NAMELESS or ally.space < 0 or self._reaches[card][ally.space] or t.cost[card] > state.ap:
            return -1
        return self._free_spot(state, card)

    def focus_features(self, state: GameState, card: int, ally: Ally) -> list[float]:
        """The features of `focus_or_deploy`'s choice for the fitted rule (`focus_weights.FEATURES`,
        in that order): the one definition, read by the policy and by benchmarks/fit_focus.py."""
        t = state.t
        lv = t.level[card]
        nid = t.name_id
        higher = 0
        for d in state.hand:
            if nid[d] == nid[card] and t.level[d] > lv:
                higher += 1
        board = t.board
        occ = state.occupant
        free = 0
        for s in self._spots[card]:
            if board.is_perimeter[s] and occ[s] is None:
                free += 1
        others = 0
        for a in state.nameless:
            if a is not ally and a.space >= 0:
                others += 1
        cz = state.command_zone
        top = self._grown_top(state, card)
        return [1.0, float(lv == 1), float(lv == 2), float(lv == 3), float(lv == 4), t.cost[card] / 5.0,
                float(t.charge[card]), float(min(higher, 2)), float(others), state.ap / 10.0,
                0.0 if state.going_first else 1.0, 1.0 if t.ultimate else 0.0, 1.0 if state.opp_defends else 0.0,
                float(free), len(state.allies) / 5.0, self._plans[card][0][0], self._plans[top][0][0],
                float(cz is not None and nid[card] == nid[cz.top]), len(self._spots[card]) / 5.0,
                len(self._spots[ally.top]) / 5.0]

    def _deploys_instead(self, state: GameState, card: int, ally: Ally) -> bool:
        """`fitted_focus`: on turn 1, deploy `card` rather than Focus it onto `ally` when the fitted
        rule values that above `focus_margin`."""
        if not self.fitted_focus or state.turn != 1 or self.focus_or_deploy(state, card, ally) < 0:
            return False
        second = 0.0 if state.going_first else 1.0
        ultimate = 1.0 if state.t.ultimate else 0.0
        return fitted_value(self.focus_features(state, card, ally), focus_weights.FOCUS, second, ultimate) \
            > self.focus_margin

    def deploy_spaces(self, state: GameState, card: int) -> list[int]:
        """The choice `fitted_deploy` weighs: greedy's own space for `card` first, when it is a free
        Perimeter space from which the card (or the one that tops it this turn) reaches the
        Stronghold, then every other free Perimeter space (M1); an empty list when greedy's space
        is not such a space. (The empty Command Zone is no candidate: the search's rollouts found
        it neither better nor worse, 0.001 turns on average over 8,183 choices.)"""
        own = self._space_in_range(state, card)
        if own < 0:
            return []
        occ = state.occupant
        out = [own]
        for s in state.t.board.perimeter:
            if s != own and occ[s] is None:
                out.append(s)
        return out

    def _moves_to_range(self, state: GameState, top: int, space: int) -> int:
        """Moves (M4, through empty spaces) from `space` to a space from which `top` reaches the
        Stronghold; at most 4."""
        reaches = self._reaches[top]
        if reaches[space]:
            return 0
        board = state.t.board
        occ = state.occupant
        seen = [False] * board.n_spaces
        seen[space] = True
        frontier = [space]
        steps = 0
        while frontier and steps < 4:
            for s in frontier:
                if reaches[s]:
                    return steps
            steps += 1
            nxt = []
            for x in frontier:
                for d in board.neighbours[x]:
                    if not seen[d] and occ[d] is None:
                        seen[d] = True
                        nxt.append(d)
            frontier = nxt
        return 4

    def deploy_features(self, state: GameState, card: int, space: int) -> list[float]:
        """The features of deploying `card` on the Perimeter space `space` (one of `deploy_spaces`) for
        the fitted rule (`deploy_weights.FEATURES`, in that order): the one definition, read by the
        policy and by benchmarks/fit_deploy.py."""
        t = state.t
        board = t.board
        occ = state.occupant
        top = self._grown_top(state, card)
        reach_top = self._reaches[top][space]
        moves = self._moves_to_range(state, top, space)
        nid = t.name_id
        wanted = only = 0  # other new names in hand in range from `space` (and with no other free one)
        for d in state.hand:
            if nid[d] == nid[card] or state.stack_target_or_name(d) is not False:
                continue
            if self._reaches[d][space]:
                wanted += 1
                free = 0
                for s in self._spots[d]:
                    if board.is_perimeter[s] and occ[s] is None:
                        free += 1
                if free == 1:
                    only += 1
        commander = state.command_zone
        landing = self._commander_landing(state) if state.opp_defends else -1
        room = next_to_landing = 0
        for d in board.neighbours[space]:
            if occ[d] is None:
                room += 1
            if d == landing:
                next_to_landing = 1
        column = board.coords[space][1] - board.board.stronghold[1]
        return [float(reach_top), float(self._reaches[card][space]), moves / 4.0,
                float(board.coords[space][0] == 0), self._demand[space], min(wanted, 3) / 3.0, min(only, 2) / 2.0,
                float(commander is not None and self._reaches[commander.top][space]),
                reach_top * t.level[top] / 4.0, moves * (state.ap - t.cost[card]) / 40.0,
                float(column < 0), float(column > 0), room / 4.0, float(next_to_landing)]

    def _fitted_space(self, state: GameState, card: int) -> int | None:
        """`fitted_deploy`: on turn 1, the space of `deploy_spaces` the fitted rule values highest when
        it beats greedy's own by more than `deploy_margin`; else None (greedy's choice stands)."""
        spaces = self.deploy_spaces(state, card)
        if len(spaces) < 2:
            return None
        factors = [1.0, 0.0 if state.going_first else 1.0, 1.0 if state.t.ultimate else 0.0,
                   1.0 if state.opp_defends else 0.0]
        weights = deploy_weights.DEPLOY
        own = setting_value(self.deploy_features(state, card, spaces[0]), weights, factors)
        best, best_value = None, own + self.deploy_margin
        for s in spaces[1:]:
            v = setting_value(self.deploy_features(state, card, s), weights, factors)
            if v > best_value:
                best, best_value = s, v
        return best

    def _holds_back(self, state: GameState, card: int, ally: Ally) -> bool:
        """`keep_commander_name`: whether stacking `card` onto `ally` would make a Nameless a
        namesake of the Commander waiting in the Command Zone."""
        if not self.keep_commander_name:
            return False
        cz = state.command_zone
        if cz is None or ally is cz:
            return False
        t = state.t
        return t.kind[ally.top] == NAMELESS and t.name_id[card] == t.name_id[cz.top]

    # ---- Main Phase --------------------------------------------------------------------------

    def _prepare_for(self, state: GameState) -> None:
        """Work out what this game's decks need, once per deck (ours, and the opponent's Last Guards)."""
        if self._tables is not state.t:
            self._prepare(state.t)
        if self._guards_of is not state.opp_t or self._guards_defend != state.opp_defends:
            self._prepare_guards(state)

    def main_phase(self, state: GameState) -> None:
        self._prepare_for(state)
        if state.turn <= self.draw_first_turns and state.ap >= self.draw_first_ap and state.won_turn is None:
            self._draw_first(state)
        attacking = not (state.going_first and state.turn == 1) and state.won_turn is None  # S8, K5
        if attacking:
            while self._grow_and_focus(state) is None:  # free, pays AP and raises attack power
                pass
            self._attack_all(state)
            if state.won_turn is not None:
                return  # K5: the game is won; nothing is left to play for this turn
            if self.releases and state.t.ultimate and self._release_all(state):
                return  # K5 (asked in a method of its own: here mypy holds won_turn narrowed to None)
        DevelopPolicy.main_phase(self, state)
        if attacking:
            self._attack_all(state)  # a defeated attacker may have freed a space in range
            if state.won_turn is not None:
                return
        self._advance(state)
        if self.abilities and self._use_abilities(state):
            DevelopPolicy.main_phase(self, state)  # cards drawn: develop with them
            self._advance(state)

    def best_attack(self, state: GameState, a: Ally) -> tuple[float, bool, int]:
        """Return (hit chance, magic, self-boosts) of ally `a`'s best attack on the Stronghold (K2, K4).

        The kind with the better chance against the Last Guard's distribution; each self-boost
        only if it raises that chance by more than `boost_gain`, and only as many as the ally
        can pay for.
        """
        joining = state.joining_commander() if state.opp_defends else -1
        if a.familiars or a.released or joining >= 0:
            t = state.t
            fam = a.familiars[-1] if a.familiars else -1
            return self._plan(t, a.top, fam, a.released, state.boost_cards(a), self._commander_power(state, joining))
        plans = self._plans[a.top]
        most = len(plans) - 1  # the self-boosts that can change the plan
        if most == 0:
            return plans[0]
        cards = state.boost_cards(a)
        return plans[cards if cards < most else most]

    def _commander_power(self, state: GameState, joining: int) -> tuple[int, int]:
        """The (ATK, MAT) a defending opponent's Commander adds to the next Last Guard (G4), or (0, 0)."""
        if joining < 0:
            return 0, 0
        return state.opp_t.atk[joining], state.opp_t.mat[joining]

    def _plan(self, t: DeckTables, top: int, fam: int, released: bool, cards: int,
              against: tuple[int, int] = (0, 0)) -> tuple[float, bool, int]:
        """`best_attack` for an ally topped by `top` holding familiar `fam` (-1: none), `cards` boosts
        payable, against a Last Guard that `against` (ATK, MAT) more defends."""
        best, best_magic, best_boosts = -1.0, False, 0
        for magic in (False, True):
            if magic:
                power, values, table = t.mat[top] - against[1], t.boost_mat[top], self._hit_mat
                if fam >= 0:
                    power += t.mat[fam]
            else:
                power, values, table = t.atk[top] - against[0], t.boost_atk[top], self._hit_atk
                if fam >= 0:
                    power += t.atk[fam]
            allowed = min(1, len(values)) if released else len(values)
            if allowed > cards:
                allowed = cards
            hit = chance(table, power)
            boosts = 0
            for k in range(allowed):
                power += values[k]
                better = chance(table, power)
                if better - hit <= self.boost_gain:
                    break
                hit, boosts = better, k + 1
            if hit > best:
                best, best_magic, best_boosts = hit, magic, boosts
        return best, best_magic, best_boosts

    def _attack_all(self, state: GameState) -> None:
        """Attack with every ally in range worth it; move ready allies into free spaces in range; repeat."""
        if self.block_commander > 0 and state.opp_defends and state.joining_commander() >= 0:
            self._block_commander(state)
        if self.step_ahead_for_walk:
            self._make_ways(state)
        while True:
            if self.swap_into_range:
                while self._swap_into_range(state, True):
                    pass
            turn = state.turn
            reaches = self._reaches
            order = list(state.allies)
            soak: Ally | None = None
            if state.opp_defends and state.joining_commander() >= 0:
                # G4: the first to attack meets the opponent's Commander too: the likeliest to win it first
                order.sort(key=lambda a: -self.best_attack(state, a)[0])
                if self.soak_commander and not state.t.ultimate:
                    soak = self._soak_first(state, order)
            for a in order:
                # (what can_attack asks of the ally: in Attack Stance, on a space in range, not new;
                # `attack` checks it all again, and the boosts best_attack chose are ones it can pay)
                if a.in_play and not a.defending and (a.entered != turn or a.released) \
                        and a.space >= 0 and reaches[a.top][a.space]:
                    hit, magic, boosts = self.best_attack(state, a)
                    if hit >= self.min_hit or a is soak:  # (even a likely loss: a guard that wins leaves the Stronghold)
                        if self.step_ahead and state.opp_defends and state.t.board.is_perimeter[a.space]:
                            self._step_ahead(state, a)
                        state.attack(a, magic, boosts)
                        if state.won_turn is not None:
                            return  # K5
            if not self._move_into_range(state, True):
                return

    def _soak_first(self, state: GameState, order: list[Ally]) -> Ally | None:
        """`soak_commander`: put first in `order` the ally ready to attack whose hit chance the joining
        Commander's power (G4) lowers least: the Commander joins one combat only, so the others
        attack without it (K4)."""
        t = state.t
        turn = state.turn
        reaches = self._reaches
        best, best_loss = -1, 2.0
        ready = 0
        for k in range(len(order)):
            a = order[k]
            if a.in_play and not a.defending and (a.entered != turn or a.released) \
                    and a.space >= 0 and reaches[a.top][a.space]:
                ready += 1
                hit = self.best_attack(state, a)[0]
                fam = a.familiars[-1] if a.familiars else -1
                alone = self._plan(t, a.top, fam, a.released, state.boost_cards(a))[0]
                if alone - hit < best_loss - 1e-9:
                    best, best_loss = k, alone - hit
        if best < 0:
            return None
        if best > 0:
            order.insert(0, order.pop(best))
        return order[0] if ready > 1 else None

    def _step_ahead(self, state: GameState, a: Ally) -> None:
        """Move ally `a` off the Stronghold Perimeter to a free space still in range (M4, K4), other
        than the one a joining Commander would take (G4); the Perimeter space it frees may take a
        deployment (M1) in range."""
        if state.ap < 1:
            return
        board = state.t.board
        reaches = self._reaches[a.top]
        occ = state.occupant
        landing = self._commander_landing(state)
        if self.landing_value and landing >= 0 and not self._landing_matters(state, landing):
            landing = -1
        for d in board.neighbours[a.space]:
            if occ[d] is None and reaches[d] and not board.is_perimeter[d] and d != landing:
                state.move(a, d)
                return

    def _commander_landing(self, state: GameState) -> int:
        """The space of ours a defending opponent's Commander would step onto when it joins (G4), or -1.

        Standing there sends it to the next space of its Perimeter, which may be one more of ours
        in range; left free, it takes this one."""
        if state.joining_commander() < 0:
            return -1
        for space in self._free_enemy_perimeter(state):
            if space >= 0:
                return space
        return -1

    def _free_enemy_perimeter(self, state: GameState) -> list[int]:
        """The spaces of the opponent's Stronghold Perimeter that neither our allies nor its own
        hold, in the order its joining Commander tries them (G4); a negative one is off our board."""
        occ = state.occupant
        free: list[int] = []
        for space in state.t.board.enemy_perimeter:
            if space >= 0 and occ[space] is not None:
                continue
            for e in state.opp_allies:
                if e.space == space:
                    break
            else:
                free.append(space)
        return free

    def _landing_matters(self, state: GameState, landing: int) -> bool:
        """Whether the space the Commander would take next, were `landing` ours, is one from which more
        of our deck's cards reach the Stronghold than from `landing`."""
        nxt = -1
        for space in self._free_enemy_perimeter(state):
            if space >= 0 and space != landing:
                nxt = space
                break
        if nxt < 0:
            return False  # the Commander could not join at all (G4)
        here = there = 0
        for r in self._reaches:
            here += r[landing]
            there += r[nxt]
        return there > here

    def _risky_defended(self, state: GameState) -> bool:
        """Whether `risky_hit` holds back walks against this defending opponent (G4): Standard mode only."""
        return self.risky_defended and not state.t.ultimate

    def _risky_turns(self, state: GameState) -> int:
        """The first turns in which `_risky_hit` holds: `risky_turns`; in Standard mode against a
        defending opponent `risky_turns_defended`, and going first at least `risky_turns_first`."""
        if state.t.ultimate:
            return self.risky_turns
        n = self.risky_turns_defended if state.opp_defends and self.risky_defended else self.risky_turns
        if state.going_first and n < self.risky_turns_first:
            return self.risky_turns_first
        return n

    def _risky_hit(self, state: GameState) -> float:
        """The hit chance below which `_move_into_range` walks no likely-lost ally into an attack:
        `risky_hit`, or in Ultimate mode `risky_hit_ultimate`."""
        return self.risky_hit_ultimate if state.t.ultimate else self.risky_hit

    def _likely_lost(self, state: GameState, a: Ally, magic: bool, boosts: int) -> bool:
        """Whether ally `a` attacking so (K2, K4) is more likely than not to be defeated by the Last Guard.

        The guard is a random card of the opponent's Stronghold; a higher guard deals its power
        divided by the attack's (K1), and the ally is lost when that reaches its HP.
        """
        t = state.t
        top = a.top
        power = t.mat[top] if magic else t.atk[top]
        if a.familiars:
            power += t.mat[a.familiars[-1]] if magic else t.atk[a.familiars[-1]]
        values = t.boost_mat[top] if magic else t.boost_atk[top]
        for k in range(min(boosts, len(values))):
            power += values[k]
        joining = state.joining_commander() if state.opp_defends else -1
        extra = self._commander_power(state, joining)[1 if magic else 0]
        guards = self._guard_mat if magic else self._guard_atk
        if not guards:
            return False
        lost = 0
        for g in guards:
            g += extra
            if g > power and (power <= 0 or g // power >= a.hp):
                lost += 1
        return 2 * lost > len(guards)

    def _block_commander(self, state: GameState) -> None:
        """`block_commander`: against a defending opponent whose Commander has not joined (G4), when
        at most `block_commander` spaces of its Stronghold Perimeter are free and all on our board,
        walk allies in Attack Stance onto each (M4), the cheapest walk first, each ally one from
        which it still reaches the Stronghold (K4), when the AP pays for every walk: with no free
        space left the Commander cannot join the Last Guard."""
        board = state.t.board
        occ = state.occupant
        free = self._free_enemy_perimeter(state)
        if not free or len(free) > self.block_commander or min(free) < 0:
            return  # (a negative one: a free space none of ours can step onto)
        trial = list(occ)  # the board as the planned walks leave it
        budget = state.ap
        plan: list[tuple[Ally, list[int]]] = []
        reaches = self._reaches
        for space in free:
            best: Ally | None = None
            best_path: list[int] = []
            for a in state.allies:
                if a.defending or a.space < 0 or not reaches[a.top][space] or a.space in board.enemy_perimeter:
                    continue  # (on one of those spaces already, it blocks)
                taken = False
                for b, _ in plan:
                    if b is a:
                        taken = True
                        break
                if taken:
                    continue
                path = self._path_on(state, a, (space,), trial, budget)
                if path and (best is None or len(path) < len(best_path)):
                    best, best_path = a, path
            if best is None:
                return  # not every space can be taken: no walk
            trial[best.space] = None
            trial[space] = best
            budget -= len(best_path)
            plan.append((best, best_path))
        for a, path in plan:
            for d in path:
                if state.occupant[d] is not None or state.ap < 1:
                    return
                state.move(a, d)

    def _make_ways(self, state: GameState) -> None:
        """`step_ahead_for_walk`, before the attacks: open the way (`_step_ahead_for_walk`) for each
        ally that can attack this turn but stands out of range, with a walk into it of 3 Moves or
        more, or none the AP pays for."""
        reaches = self._reaches
        turn = state.turn
        for a in list(state.allies):
            if a.defending or (a.entered == turn and not a.released) or not self._spots[a.top]:
                continue
            if a.space >= 0 and reaches[a.top][a.space]:
                continue
            if self.best_attack(state, a)[0] < self.min_hit:
                continue
            # (the walk as `_path` finds it, asked of `_path_on`: a subclass that overrides `_path`
            # changes the walks `_move_into_range` takes, not the steps that open them)
            path = self._path_on(state, a, self._spots[a.top], state.occupant, state.ap)
            if not path or len(path) >= 3:
                self._step_ahead_for_walk(state, a, len(path))

    def _step_ahead_for_walk(self, state: GameState, a: Ally, walk: int) -> bool:
        """`step_ahead_for_walk`: when ally `a`'s walk into range is long (`walk` Moves, 0: none),
        step an ally in Attack Stance that stands in range one space (M4, 1 AP) to a free space from
        which it still reaches the Stronghold, if that shortens `a`'s walk by two Moves or more;
        return True if one stepped."""
        if state.ap < 2:
            return False
        spots = self._spots[a.top]
        movers = self._in_range_but(state, a)
        best: Ally | None = None
        best_d = -1
        best_len = walk - 1 if walk else state.ap
        for b, d, trial in self._steps_aside(state, state.occupant, movers):
            n = len(self._path_on(state, a, spots, trial, state.ap - 1))
            if n and n < best_len:
                best, best_d, best_len = b, d, n
        if best is None:
            return self.pair_steps_for_walk and self._step_pair_for_walk(state, a, walk)
        state.move(best, best_d)
        return True

    def _in_range_but(self, state: GameState, a: Ally) -> list[Ally]:
        """The allies other than `a` in Attack Stance on a space from which they reach the Stronghold."""
        reaches = self._reaches
        return [b for b in state.allies if b is not a and not b.defending and b.space >= 0 and reaches[b.top][b.space]]

    def _steps_aside(self, state: GameState, occ: list[Ally | None],
                     movers: list[Ally]) -> list[tuple[Ally, int, list[Ally | None]]]:
        """Every step (M4) of an ally of `movers` to a free space of the board `occ` from which it still
        reaches the Stronghold, with the board after it: (ally, space, board), in `movers` order."""
        neighbours = state.t.board.neighbours
        reaches = self._reaches
        out: list[tuple[Ally, int, list[Ally | None]]] = []
        for b in movers:
            for d in neighbours[b.space]:
                if occ[d] is None and reaches[b.top][d]:
                    trial = list(occ)
                    trial[b.space] = None
                    trial[d] = b
                    out.append((b, d, trial))
        return out

    def _step_pair_for_walk(self, state: GameState, a: Ally, walk: int) -> bool:
        """`pair_steps_for_walk`: step two allies in Attack Stance that stand in range one space each
        (M4, 2 AP) to free spaces from which they still reach the Stronghold, if that shortens ally
        `a`'s walk (`walk` Moves, 0: none) by three Moves or more; return True if they stepped."""
        if state.ap < 3:
            return False
        spots = self._spots[a.top]
        movers = self._in_range_but(state, a)
        best: tuple[Ally, int, Ally, int] | None = None
        best_len = walk - 2 if walk else state.ap - 1
        for k in range(len(movers)):
            for b, d, once in self._steps_aside(state, state.occupant, movers[k:k + 1]):
                for c, e, twice in self._steps_aside(state, once, movers[k + 1:]):
                    n = len(self._path_on(state, a, spots, twice, state.ap - 2))
                    if n and n < best_len:
                        best, best_len = (b, d, c, e), n
        if best is None:
            return False
        state.move(best[0], best[1])
        state.move(best[2], best[3])
        return True

    def _path_on(self, state: GameState, a: Ally, goals: tuple[int, ...], occ: list[Ally | None],
                 budget: int) -> list[int]:
        """`_path` to the first of `goals` it reaches, on a board whose occupants are `occ` (M4: empty
        spaces, one step each), within `budget` Moves, or []."""
        board = state.t.board
        came = [_UNSEEN] * board.n_spaces
        frontier = []
        for s in board.perimeter if a.space == COMMAND_ZONE else board.neighbours[a.space]:
            if occ[s] is None:
                came[s] = _FIRST_STEP
                frontier.append(s)
        steps = 1
        while frontier and steps <= budget:
            for goal in goals:
                if came[goal] != _UNSEEN:
                    path = [goal]
                    while came[path[-1]] != _FIRST_STEP:
                        path.append(came[path[-1]])
                    path.reverse()
                    return path
            nxt = []
            for s in frontier:
                for d in board.neighbours[s]:
                    if came[d] == _UNSEEN and occ[d] is None:
                        came[d] = s
                        nxt.append(d)
            frontier = nxt
            steps += 1
        return []

    def _release_all(self, state: GameState) -> bool:
        """Release and attack while it is worth it (`_release_and_attack`); return True if the game is won."""
        while self._release_and_attack(state):
            if state.won_turn is not None:
                return True
        return False

    def _release_and_attack(self, state: GameState) -> bool:
        """Release a Contracted familiar (U5) onto a free space next to its holder from which it
        reaches the Stronghold, if its attack is worth it, and attack with it at once (K4: a
        Released familiar may). The holder attacks first, with the familiar's power added (U3).
        Return True if a familiar was Released."""
        if state.ap < 1:
            return False
        t = state.t
        board = t.board
        occ = state.occupant
        reaches = self._reaches
        turn = state.turn
        for a in state.allies:
            if not a.familiars or a.released or t.is_egg[a.familiars[-1]] or a.space == COMMAND_ZONE:
                continue
            if not a.defending and a.entered != turn and reaches[a.top][a.space]:
                continue  # it can still attack, with its familiar's power added: not yet
            f = a.familiars[-1]
            # U5: as a Released familiar it may self-boost once, paying a familiar or two cards.
            cards = len(state.fam_hand) + len(a.familiars) - 1 + len(state.hand) // 2
            joining = state.joining_commander() if state.opp_defends else -1
            if self._plan(t, f, -1, True, cards, self._commander_power(state, joining))[0] < max(self.min_hit, self.risky_hit):
                continue
            for d in board.neighbours[a.space]:
                if occ[d] is None and reaches[f][d] and state.can_release(a, d, False) is None:
                    fam = state.release(a, d, False)
                    hit, magic, boosts = self.best_attack(state, fam)
                    if hit >= self.min_hit and (hit >= self.risky_hit or not self._likely_lost(state, fam, magic, boosts)):
                        state.attack(fam, magic, boosts)
                    return True
        return False

    def _move_into_range(self, state: GameState, now: bool) -> bool:
        """Move allies to free spaces in attack range, cheapest path first (M4); return True if one moved.

        `now`: allies that can attack this turn, worth it (else: every ally in Attack Stance, for
        next turn). One ally per call, the likeliest to hit first.
        """
        if state.ap < 1:
            return False
        ready: list[tuple[float, int]] = []  # (minus the hit chance, position in allies): likeliest first
        occ = state.occupant
        reaches = self._reaches
        allies = state.allies
        for k, a in enumerate(allies):
            if a.defending or (now and a.entered == state.turn and not a.released):  # K4
                continue
            spots = self._spots[a.top]
            if not spots or (a.space >= 0 and reaches[a.top][a.space]):
                continue  # never in range, or in range already
            for s in spots:
                if occ[s] is None:
                    break
            else:
                continue  # every space in range is taken
            hit, magic, boosts = self.best_attack(state, a)
            if hit >= self.min_hit and (hit >= self._risky_hit(state) or not now or state.turn > self._risky_turns(state)
                                        or (state.opp_defends and not self._risky_defended(state))
                                        or not self._likely_lost(state, a, magic, boosts)):
                ready.append((-hit, k))
        if len(ready) > 1:
            ready.sort()
        for _, k in ready:
            a = allies[k]
            path = self._path(state, a, self._spots[a.top])
            if path:
                for d in path:
                    try:
                        state.move(a, d)  # (checks the step: one lookup, not can_move and then move)
                    except IllegalAction:
                        return d != path[0]
                return True
        return False

    def _path(self, state: GameState, a: Ally, spots: tuple[int, ...]) -> list[int]:
        """Return the spaces of the shortest walk (M4: empty spaces, one step each) from `a` to a free
        space of `spots` that AP pays for, or [] (breadth first; ties: the earlier spot)."""
        return self._path_on(state, a, spots, state.occupant, state.ap)

    def _advance(self, state: GameState) -> None:
        """With AP to spare, put allies that did not attack into range for next turn."""
        while self._move_into_range(state, False):
            pass
        if self.swap_into_range:
            while self._swap_into_range(state, False):
                pass
        if self.step_ahead_end and state.opp_defends:
            self._step_ahead_at_end(state)

    def _step_ahead_at_end(self, state: GameState) -> None:
        """`step_ahead_end`: step each ally in Attack Stance that stands on the Stronghold Perimeter in
        range off it, to a free space still in range (`_step_ahead`), while AP lasts."""
        board = state.t.board
        reaches = self._reaches
        for a in list(state.allies):
            if state.ap < 1:
                return
            if a.in_play and not a.defending and a.space >= 0 and board.is_perimeter[a.space] \
                    and reaches[a.top][a.space]:
                try:
                    self._step_ahead(state, a)
                except IllegalAction:
                    pass  # (a refused Move leaves the game as it was)

    def _swap_into_range(self, state: GameState, now: bool) -> bool:
        """`swap_into_range`: Swap (M5, 2 AP) two adjacent allies in Attack Stance when that puts more
        of the two on spaces from which they reach the Stronghold (K4); `now`: counting only allies
        that can attack this turn and whose attack can hit. Return True if two swapped."""
        if state.ap < 2:
            return False
        board = state.t.board
        occ = state.occupant
        reaches = self._reaches
        allies = state.allies
        turn = state.turn
        for a in allies:
            if not a.in_play or a.defending or a.space < 0:
                continue
            ra = reaches[a.top]
            for d in board.neighbours[a.space]:
                b = occ[d]
                if b is None or b.defending or type(b) is not Ally:  # (an Enemy: the joined Commander, G4)
                    continue
                rb = reaches[b.top]
                before = after = 0
                if now:
                    if a.entered != turn or a.released:
                        before += ra[a.space]
                        after += ra[d]
                    if b.entered != turn or b.released:
                        before += rb[d]
                        after += rb[a.space]
                else:
                    before = ra[a.space] + rb[d]
                    after = ra[d] + rb[a.space]
                if after <= before:
                    continue
                if now and ((ra[d] and not ra[a.space] and self.best_attack(state, a)[0] < self.min_hit)
                            or (rb[a.space] and not rb[d] and self.best_attack(state, b)[0] < self.min_hit)):
                    continue
                state.swap(a, b)
                return True
        return False

    def _use_abilities(self, state: GameState) -> bool:
        """Use the allies', their Contracted familiars' and the hand's runnable abilities that help
        (draw, gain AP, heal the hurt; a familiar row that changes something), last in the turn (a
        Stance change then costs nothing: T1 resets it); return True if cards were drawn."""
        t = state.t
        drawn = False
        hand = state.hand
        for a in list(state.allies):
            for k, act in enumerate(t.act[a.top]):
                if state.can_use_ability(a, k) is None and self._helps(state, a, act[2]):
                    before = len(hand)
                    state.use_ability(a, k)
                    drawn = drawn or len(hand) > before
        for a in list(state.allies):  # A4: a holder in Defense Stance (it attacked) activates its familiar
            if self.familiar_abilities and a.familiars and state.can_use_familiar_ability(a) is None and self._familiar_helps(state, a):
                before = len(hand)
                state.use_familiar_ability(a)
                drawn = drawn or len(hand) > before
        p = 0
        while p < len(hand):
            used = False
            for k, act in enumerate(t.hand_act[hand[p]]):
                if state.stack_target(hand[p]) is None and state.can_use_hand_ability(p, k) is None \
                        and self._helps(state, None, act[2]):
                    state.use_hand_ability(p, k)
                    drawn = used = True
                    break
            if not used:
                p += 1
        return drawn

    def _draw_first(self, state: GameState) -> None:
        """`draw_first_turns`: use the hand's abilities that draw cards (C5), first card first, while
        the AP pays for them (each use is checked; a copy's ability once, A1)."""
        t = state.t
        hand = state.hand
        p = 0
        while p < len(hand):
            used = False
            for k, act in enumerate(t.hand_act[hand[p]]):
                if draws(act[2]) and state.can_use_hand_ability(p, k) is None:
                    state.use_hand_ability(p, k)
                    used = True
                    break
            p = 0 if used else p + 1

    def _familiar_helps(self, state: GameState, a: Ally) -> bool:
        """Whether some row of ally `a`'s Contracted familiar's ability would change something now (A4)."""
        for row in state.t.contracted_rows[a.familiars[-1]]:
            if state.familiar_row_gain(a, row) > 0:
                return True
        return False

    def _helps(self, state: GameState, a: Ally | None, effects: tuple[tuple[int, int, int], ...]) -> bool:
        """Whether an ability's effects do something now: a draw or AP always, a heal on a hurt ally."""
        for op, _, _ in effects:
            if op != OP_HEAL:  # a draw or AP
                return True
        if a is not None:
            return a.hp < state.t.cost[a.top]
        return state.neediest_ally() is not None

    def _grown_top(self, state: GameState, card: int) -> int:
        """The card an ally deployed as `card` will have on top this turn: the highest-level card of its
        name in hand, which grows onto it once it is deployed (M2, levels may be skipped)."""
        t = state.t
        if t.kind[card] == NAMELESS:
            return card
        nid, level = t.name_id, t.level
        top = card
        for c in state.hand:
            if nid[c] == nid[card] and level[c] > level[top] and t.kind[c] != NAMELESS:
                top = c
        return top

    def _nearest_to_range(self, state: GameState, top: int) -> int:
        """The free Perimeter space fewest Moves (M4, through empty spaces) from a free space where
        `top` reaches the Stronghold (ties: the one furthest ahead), or -1 if none leads there."""
        board = state.t.board
        occ = state.occupant
        reaches = self._reaches[top]
        landing = self._commander_landing(state) if state.opp_defends else -1
        if self.landing_value and landing >= 0 and not self._landing_matters(state, landing):
            landing = -1
        best, best_key = -1, 1 << 30
        for p in board.perimeter:
            if occ[p] is not None:
                continue
            seen = [False] * board.n_spaces
            seen[p] = True
            frontier = [p]
            steps = 0
            found = False
            while frontier and not found and steps < 6:
                steps += 1
                nxt = []
                for x in frontier:
                    for d in board.neighbours[x]:
                        if not seen[d] and occ[d] is None and d != landing:
                            if reaches[d]:
                                found = True
                            seen[d] = True
                            nxt.append(d)
                frontier = nxt
            if found:
                key = steps << 8 | (3 - board.coords[p][0]) << 4
                if key < best_key:
                    best, best_key = p, key
        return best

    def _deploy_space(self, state: GameState, card: int) -> int | None:
        """Where to deploy `card`: a free Perimeter space in its attack range, else one in range freed
        by an ally stepping ahead (`step_ahead_for_room`), else the free Perimeter space fewest Moves
        from range (`walk_deploy`), else the one furthest ahead, else the empty Command Zone (Level 1), else one freed by a Move."""
        if self.fitted_deploy and state.turn == 1:
            fitted = self._fitted_space(state, card)
            if fitted is not None:
                return fitted
        own = self._space_in_range(state, card)
        if own >= 0:
            return own
        board = state.t.board
        occ = state.occupant
        free = -1
        if self.step_ahead_for_room:
            dest = self._step_ahead_for_room(state, card)
            if dest >= 0:
                return dest
        if self.walk_deploy:
            free = self._nearest_to_range(state, self._grown_top(state, card))
            if free >= 0:
                return free
        for s in board.perimeter:
            if occ[s] is None and (free < 0 or board.coords[s][0] > board.coords[free][0]):
                free = s
        if free >= 0:
            return free
        if state.command_zone is None and state.t.level[card] == 1:
            return COMMAND_ZONE
        return super()._deploy_space(state, card)

    def _space_in_range(self, state: GameState, card: int) -> int:
        """The free Perimeter space greedy deploys `card` on when one is in range: where the card that
        tops it this turn reaches the Stronghold (`deploy_for_top`), else where the card itself
        does (furthest ahead first); else -1."""
        if self.deploy_for_top:
            top = self._grown_top(state, card)
            if top != card:
                s = self._free_spot(state, top)
                if s >= 0:
                    return s
        return self._free_spot(state, card)

    def _free_spot(self, state: GameState, card: int) -> int:
        """The first free Perimeter space from which `card` reaches the Stronghold (`_spots` order), or -1."""
        board = state.t.board
        occ = state.occupant
        for s in self._spots[card]:
            if board.is_perimeter[s] and occ[s] is None:
                return s
        return -1

    def _step_ahead_for_room(self, state: GameState, card: int) -> int:
        """Free a Perimeter space from which `card` reaches the Stronghold (each is taken): move the
        ally in Attack Stance standing there one step ahead, off the Perimeter, to a free space from
        which it still reaches (M4), if the AP pays for the move and the deployment. Return the
        freed space, or -1."""
        t = state.t
        if state.ap < t.cost[card] + 1:
            return -1
        board = t.board
        occ = state.occupant
        reaches = self._reaches
        for s in self._spots[card]:
            a = occ[s]
            if a is None or not board.is_perimeter[s] or a.defending:
                continue
            for d in board.neighbours[s]:
                if occ[d] is None and not board.is_perimeter[d] and reaches[a.top][d]:
                    state.move(a, d)
                    return s
        return -1
