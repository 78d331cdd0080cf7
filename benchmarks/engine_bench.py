"""Benchmark the rules engine: games per second for each policy, next to a minimal loop.

    .venv/bin/python benchmarks/engine_bench.py [--games N] [--turns 8] [--policy NAME ...] [--count]
        [--set NAME=VALUE ...] [--going first|second] [--defends]

One process, one core, with the sengoku that this Python imports (a regular install compiles the
engine with mypyc; an editable one runs it as pure Python: the first line says which). The minimal loop is the floor a full-rules engine is measured against:
it only shuffles, draws, charges and deploys greedily (no board, no Growth/Focus, no rule
checks, no measures beyond the AP per turn). `--set NAME=VALUE` changes a setting of the default
policy (`GreedySettings`, as benchmarks/greedy_ab.py takes it): what a setting costs, e.g.
`--policy greedy --set fitted_focus=False` beside `--policy greedy`. The policies play going first
against a passive opponent unless `--going second` or `--defends` says otherwise (greedy's look-ahead
plays its first turns going second and against a defender: what it costs there); the minimal loop
is the same in every setting.

Each of the `--repeat` rounds times the minimal loop and then each policy back to back; a figure is
the best of its rounds, and a policy's share of the loop is also printed per round (the median, the
lowest and the highest), which a machine whose speed changes between rounds moves less.
"""

from __future__ import annotations

import argparse
import ast
import itertools
import random
import statistics
import time


def load_default_deck():
    """Validate the bundled default decklist and compile it for the engine."""
    from sengoku.engine import compile_deck
    from sengoku.paths import data_dir
    from sengoku.validate.api import validate_file

    result = validate_file(data_dir("decklists") / "default.toml")
    if not result.valid:
        raise SystemExit(f"the default deck is invalid: {result.errors}")
    import sengoku

    return compile_deck(sengoku.load_card_db(), result.sections, result.mode)


def minimal_game(deck, cost, charge, name, rng, turns):
    """A lean loop: shuffle, draw 5, then each turn +10 AP, charge, draw to 5, deploy cheapest first."""
    d = deck[:]
    rng.shuffle(d)
    hand = d[-5:]
    del d[-5:]
    ap = 0
    spaces = 5
    in_play = set()
    standby = []
    curve = []
    for _ in range(turns):
        ap += 10
        keep = []
        for c in hand:  # charge what cannot be deployed
            if spaces and name[c] not in in_play and cost[c] <= ap:
                keep.append(c)
            else:
                ap += charge[c]
                standby.append(c)
        hand = keep
        while len(hand) < 5:
            if not d:
                if not standby:
                    break
                d, standby = standby, []
                rng.shuffle(d)
            hand.append(d.pop())
        hand.sort(key=cost.__getitem__)
        rest = []
        for c in hand:
            if spaces and cost[c] <= ap and name[c] not in in_play:
                ap -= cost[c]
                in_play.add(name[c])
                spaces -= 1
            else:
                rest.append(c)
        hand = rest
        curve.append(ap)
    return curve


def bench(fn, games: int) -> float:
    """Return games per CPU second (process time: other processes sharing the core do not count)."""
    t0 = time.process_time()
    for _ in range(games):
        fn()
    return games / (time.process_time() - t0)


# Engine actions counted by --count (GameState methods), with what they stand for.
COUNTED = (("stack", "Growth/Focus"), ("deploy", "deployments"), ("hp_charge", "HP Charges"),
           ("charge_cards", "AP Charges with cards sent"))


def count_actions(tables, cmd, policy: str, games: int, turns: int, seed: int) -> None:
    """Print how many of each action, and of cards drawn, a game of `policy` takes on average.

    Wraps the GameState class's methods (inherited from its rule-group classes), which only the
    pure-Python build allows.
    """
    from sengoku.engine import GameRunner, GameState, make_policy

    counts = dict.fromkeys([name for name, _ in COUNTED] + ["_draw"], 0)
    originals = {name: getattr(GameState, name) for name in counts}

    def counting(name, method):
        def wrapper(self, *args, **kwargs):
            result = method(self, *args, **kwargs)
            counts[name] += result if name == "_draw" else 1  # cards drawn, or actions taken
            return result
        return wrapper

    try:
        for name, method in originals.items():
            setattr(GameState, name, counting(name, method))
        runner = GameRunner(tables, make_policy(policy), random.Random(seed), turns, True, cmd)
        for _ in range(games):
            runner.play()
    finally:
        for name, method in originals.items():
            setattr(GameState, name, method)
    print(f"{policy}, per game of {turns} turns (mean of {games}): " + ", ".join(
        f"{counts[name] / games:.1f} {what}" for name, what in COUNTED) + f", {counts['_draw'] / games:.1f} cards drawn")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20000, help="games per measurement (random: a tenth)")
    parser.add_argument("--turns", type=int, default=8, help="turns per game")
    parser.add_argument("--policy", action="append", help="policies to time (default: all but the slow look-ahead search)")
    parser.add_argument("--seed", type=int, default=1, help="master seed (run i of the engine is seeded as goldfish seeds it)")
    parser.add_argument("--repeat", type=int, default=3, help="take the best of this many measurements")
    parser.add_argument("--count", action="store_true",
                        help="instead of timing, count the actions a game takes (pure-Python install only)")
    parser.add_argument("--floor-process", action="store_true",
                        help="load the deck, play --games games of the minimal loop once, and exit: the floor "
                             "a whole `sengoku goldfish` process is timed against (goldfish_bench.py)")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        help="change this setting of the default policy (VALUE a Python literal)")
    parser.add_argument("--going", choices=["first", "second"], default="first",
                        help="the policies' seat (default: first)")
    parser.add_argument("--defends", action="store_true", help="the opponent defends (G4)")
    args = parser.parse_args(argv)
    from sengoku.engine.errors import EngineError
    from sengoku.engine.policies.greedy import GreedyPolicy, GreedySettings

    settings = GreedySettings()
    for item in args.set:
        name, _, value = item.partition("=")
        try:
            settings = GreedySettings.from_mapping({name: ast.literal_eval(value)}, settings)
        except (ValueError, SyntaxError):
            parser.error(f"--set {item}: {value!r} is not a Python literal")
        except EngineError as exc:
            parser.error(f"--set {item}: {exc}")

    def policy(pname: str):
        """A new policy by name; greedy with the settings --set changed."""
        return GreedyPolicy(settings) if pname == "greedy" else make_policy(pname)

    from sengoku.engine import POLICIES, GameRunner, choose_commander, make_policy
    from sengoku.engine.chance import Chance, seed_run

    import sengoku
    import sengoku.engine.state

    tables = load_default_deck()
    cmd = choose_commander(tables)
    deck = tables.stronghold_after(cmd)
    print(f"sengoku {sengoku.__version__}, rules engine {sengoku.engine_build()} "
          f"({sengoku.engine.state.__file__})")
    print(f"default deck: {len(tables.deck_indices)} main cards, Commander {tables.name[cmd]}; "
          f"{args.turns} turns; best of {args.repeat}; games per CPU second of one core"
          + "".join(f"; {item}" for item in args.set)
          + ("" if args.going == "first" and not args.defends else
             f"; the policies go {args.going}" + (" against a defender" if args.defends else "")))

    if args.count:
        if sengoku.engine_build() != "pure Python":
            raise SystemExit("--count wraps the engine's methods: run it with an editable (pure-Python) install")
        for pname in args.policy or ["greedy", "charge"]:
            count_actions(tables, cmd, pname, min(args.games, 2000), args.turns, args.seed)
        return 0

    rng = random.Random(args.seed)
    cost, charge, name = list(tables.cost), list(tables.charge), list(tables.name_id)
    if args.floor_process:
        print(f"{'minimal loop':>14}: {bench(lambda: minimal_game(deck, cost, charge, name, rng, args.turns), args.games):10,.0f} games/s, once")
        return 0
    # Every round times the minimal loop and then each policy, back to back, so that a change in the
    # machine's speed between rounds (a shared or virtual machine's) moves both sides of a round's
    # share alike; each figure is the best of its rounds, and each share is also given per round.
    pnames = args.policy or [p for p in POLICIES if p != "search"]  # search: see killturn_bench.py
    players = {}
    for pname in pnames:
        # One runner per policy, as `sengoku goldfish` plays its runs: run i's chance prepared by
        # seed_run (G7), then a full setup (S1-S7) each game.
        chance = Chance()
        runner = GameRunner(tables, policy(pname), chance, args.turns, args.going == "first", cmd,
                            opponent_defends=args.defends)
        runs = itertools.count()

        def play_run(chance=chance, runner=runner, runs=runs) -> None:
            seed_run(chance, args.seed, next(runs))
            runner.play()

        players[pname] = (play_run, args.games // 10 if pname == "random" else args.games)
    floors: list[float] = []
    rates: dict[str, list[float]] = {pname: [] for pname in pnames}
    for _ in range(args.repeat):
        floors.append(bench(lambda: minimal_game(deck, cost, charge, name, rng, args.turns), args.games))
        for pname, (play_run, n) in players.items():
            rates[pname].append(bench(play_run, n))
    floor = max(floors)
    print(f"{'minimal loop':>14}: {floor:10,.0f} games/s")
    for pname in pnames:
        rate = max(rates[pname])
        shares = sorted(r / f for r, f in zip(rates[pname], floors))
        per_round = (f"; per round {statistics.median(shares):.0%}, {shares[0]:.0%} to {shares[-1]:.0%}"
                     if len(shares) > 1 else "")
        print(f"{pname:>14}: {rate:10,.0f} games/s  ({rate / floor:.0%} of the minimal loop{per_round})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
