"""Time the rules engine of several builds side by side: games per CPU second beside the minimal loop.

    python benchmarks/builds_bench.py LABEL=PYTHON [LABEL=PYTHON ...] [--rounds 3] [--games 20000]
                                      [--turns 8] [--policy greedy ...] [--runs] [--instructions]

Each PYTHON is the interpreter of a virtual environment with one build of sengoku installed (a
regular install compiles the engine; an editable one is pure Python). Round after round, each
build plays in a fresh process of its own: the minimal loop of `engine_bench.py` (the floor),
then each policy's games on the bundled default deck, going first, one core. The builds take
turns, so a load that comes and goes on the machine slows them alike; compare the ratios to the
minimal loop of the same round.

By default the engine plays alone, as 0.4.1's `engine_bench.py` timed it: every game draws its
chance from one `random.Random` that is never reseeded (the same call in every version since
0.4.1). With --runs, each game is run i of a simulation as `goldfish` plays it (`seed_run`
before each setup; builds older than `seed_run` reseed their generator with the run's seed).
With --instructions, no timing: each build's games of the engine alone run under valgrind's
callgrind, and the instructions a game are printed (steady whatever the load on the machine).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent

# Runs in each build's interpreter: imports only what every version since 0.4.1 has.
CHILD = """
import itertools, random, sys, time
sys.path.insert(0, {here!r})
from engine_bench import bench, load_default_deck, minimal_game
import sengoku
from sengoku.engine import GameRunner, choose_commander, make_policy
games, turns, runs = {games}, {turns}, {runs}
tables = load_default_deck()
cmd = choose_commander(tables)
deck = tables.stronghold_after(cmd)
rng = random.Random(1)
cost, charge, name = list(tables.cost), list(tables.charge), list(tables.name_id)
out = [sengoku.__version__, sengoku.engine_build(),
       bench(lambda: minimal_game(deck, cost, charge, name, rng, turns), games)]
for pname in {policies!r}:
    if not runs:
        runner = GameRunner(tables, make_policy(pname), random.Random(1), turns, True, cmd)
        out.append(bench(runner.play, games))
        continue
    try:
        from sengoku.engine.chance import Chance, seed_run
    except ImportError:  # before per-purpose chance: one generator, reseeded per run
        from sengoku.goldfish.seeds import run_seed
        gen = random.Random()
        runner = GameRunner(tables, make_policy(pname), gen, turns, True, cmd)
        count = itertools.count()
        def play(gen=gen, runner=runner, count=count):
            gen.seed(run_seed(1, next(count)))
            runner.play()
    else:
        chance = Chance()
        runner = GameRunner(tables, make_policy(pname), chance, turns, True, cmd)
        count = itertools.count()
        def play(chance=chance, runner=runner, count=count):
            seed_run(chance, 1, next(count))
            runner.play()
    out.append(bench(play, games))
print(repr(out))
"""


# --instructions: the child plays `games` games of one policy, nothing else.
PLAY = """
import random, sys
sys.path.insert(0, {here!r})
from engine_bench import load_default_deck
from sengoku.engine import GameRunner, choose_commander, make_policy
tables = load_default_deck()
runner = GameRunner(tables, make_policy({policy!r}), random.Random(1), {turns}, True, choose_commander(tables))
for _ in range({games}):
    runner.play()
"""


def instructions(python: str, policy: str, turns: int, games: int) -> float:
    """Instructions a game under callgrind: a run of `games` + 200 games less one of 200 (start-up cancels)."""
    counts = []
    for n in (200, games + 200):
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "callgrind.out"
            subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", python, "-c",
                            PLAY.format(here=str(HERE), policy=policy, turns=turns, games=n)],
                           check=True, capture_output=True)
            summary = next(line for line in out.read_text().splitlines() if line.startswith("summary:"))
            counts.append(int(summary.split()[1]))
    return (counts[1] - counts[0]) / games


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("builds", nargs="+", help="LABEL=PYTHON: a build's label and its interpreter")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--turns", type=int, default=8)
    ap.add_argument("--policy", action="append", help="policies to time (default: greedy, develop, charge)")
    ap.add_argument("--runs", action="store_true", help="seed each game as goldfish seeds run i")
    ap.add_argument("--instructions", action="store_true",
                    help="instead of timing, count the instructions a game of the engine alone takes (valgrind)")
    args = ap.parse_args()
    policies = args.policy or ["greedy", "develop", "charge"]
    builds = [b.split("=", 1) for b in args.builds]
    if any(len(b) != 2 for b in builds):
        raise SystemExit("each build is LABEL=PYTHON")
    if args.instructions:
        games = min(args.games, 2000)
        print(f"default deck, {args.turns} turns, the engine alone; instructions a game (callgrind, {games} games)")
        for label, python in builds:
            print(f"{label:>10} " + " ".join(f"{p} {instructions(python, p, args.turns, games):10,.0f}"
                                             for p in policies), flush=True)
        return 0
    code = CHILD.format(here=str(HERE), games=args.games, turns=args.turns, runs=args.runs, policies=policies)
    print(f"default deck, {args.turns} turns, {args.games} games a measurement, "
          f"{'run i seeded as goldfish seeds it' if args.runs else 'the engine alone (one generator)'}; "
          f"games per CPU second, (share of the round's minimal loop)")
    print(f"{'round':>5} {'build':>10} {'version':>8} {'engine':>12} {'minimal':>8} "
          + " ".join(f"{p:>16}" for p in policies))
    for r in range(1, args.rounds + 1):
        for label, python in builds:
            done = subprocess.run([python, "-c", code], capture_output=True, text=True)
            if done.returncode:
                raise SystemExit(f"{label}: {done.stderr}")
            version, build, floor, *rates = eval(done.stdout.strip().splitlines()[-1])  # our own repr
            print(f"{r:>5} {label:>10} {version:>8} {build:>12} {floor:8,.0f} "
                  + " ".join(f"{rate:8,.0f} ({rate / floor:4.0%})" for rate in rates), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
