"""Benchmark `sengoku goldfish`: wall time of the whole CLI process, and games per second.

    .venv/bin/python benchmarks/goldfish_bench.py [--repeat 5] [--runs 10000] [--turns 8]

Prints, for the bundled default deck:
  1. wall time of `sengoku goldfish --runs R --turns T` as a fresh process (the text report, stdout
     to /dev/null; then --json), with --jobs 1 and --jobs 2: min and median of --repeat runs;
  2. games/s of the engine's play loop in this process (greedy and idle policies, one core);
  3. games/s of a minimal pure-Python loop that only shuffles, draws, charges and deploys
     greedily (no board, no Growth/Focus, no abilities): the floor the issue compares against.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def sengoku_exe() -> list[str]:
    exe = Path(sys.executable).with_name("sengoku")
    return [str(exe)] if exe.exists() else [shutil.which("sengoku") or "sengoku"]


def wall(cmd: list[str], repeat: int) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        times.append(time.perf_counter() - t)
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stderr}")
    return min(times), statistics.median(times)


def engine_rate(policy: str, games: int, turns: int) -> float:
    from sengoku.carddb.load import load_card_db
    from sengoku.goldfish.api import validate
    from sengoku.engine import GameRunner, choose_commander, compile_deck, make_policy

    db = load_card_db()
    _, v = validate(None, db)
    tables = compile_deck(db, v.sections, mode=v.mode)
    cmd = choose_commander(tables)
    runner = GameRunner(tables, make_policy(policy), random.Random(1), turns, True, cmd)
    play = runner.play
    t = time.perf_counter()
    for _ in range(games):
        play()
    return games / (time.perf_counter() - t)


def minimal_loop_rate(games: int, turns: int) -> float:
    """Shuffle, draw 5, AP Charge, charge what cannot be deployed, deploy cheapest first, draw."""
    # default-deck-like costs/charges: 13 names x levels, costs 2-10, charge 1-3
    deck = [(2 + (i * 7) % 9, 1 + i % 3) for i in range(51)]
    rng = random.Random(1)
    shuffle = rng.shuffle
    t = time.perf_counter()
    for _ in range(games):
        pile = deck[:]
        shuffle(pile)
        hand = pile[-5:]
        del pile[-5:]
        ap = 0
        allies = 0
        for _turn in range(turns):
            ap += 10
            hand.sort()
            keep = []
            for cost, charge in hand:
                if cost <= ap:
                    ap -= cost
                    allies += 1
                else:
                    keep.append((cost, charge))
            ap += sum(c for _, c in keep[1:])
            hand = keep[:1]
            while len(hand) < 5 and pile:
                hand.append(pile.pop())
    return games / (time.perf_counter() - t)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=5, help="process runs per configuration (default 5)")
    ap.add_argument("--runs", type=int, default=10_000, help="games per CLI run (default 10000)")
    ap.add_argument("--turns", type=int, default=8, help="turns per game (default 8)")
    args = ap.parse_args()
    exe = sengoku_exe()
    print(f"machine: {os.cpu_count()} cores; python {sys.version.split()[0]}")
    print(f"== whole process, `sengoku goldfish --runs {args.runs} --turns {args.turns}` "
          f"(min / median of {args.repeat})")
    for extra in ([], ["--json"]):
        for jobs in (1, 2):
            cmd = [*exe, "goldfish", "--runs", str(args.runs), "--turns", str(args.turns), "--jobs", str(jobs), *extra]
            lo, med = wall(cmd, args.repeat)
            print(f"  {' '.join(cmd[1:]):<60} {lo:6.3f} s / {med:6.3f} s")
    lo, med = wall([*exe, "--help"], args.repeat)
    print(f"  {'--help':<60} {lo:6.3f} s / {med:6.3f} s")
    print(f"== games/s in one process, one core, {args.turns} turns")
    for policy in ("greedy", "idle"):
        print(f"  engine, {policy:<6} policy: {engine_rate(policy, 5000, args.turns):>9,.0f} games/s")
    print(f"  minimal shuffle/draw/charge/deploy loop: {minimal_loop_rate(20000, args.turns):>9,.0f} games/s")


if __name__ == "__main__":
    main()
