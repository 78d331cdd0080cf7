"""Benchmark `sengoku compare`: what pairing saves, and what comparing costs.

    .venv/bin/python benchmarks/compare_bench.py [--runs 2000] [--policy greedy] [--repeat 3]

1. Interval width: `compare` of the bundled default deck against decklists/compare/one-card.toml
   (one Level 4 card replaced by a Level 2 one) for seeds 0..4; prints the paired and the
   unpaired (Welch) 95% interval of the mean kill-turn difference and how many times narrower
   the paired one is.
2. Wall time: `sengoku compare DEFAULT ONE_CARD --jobs 2 --json` as a fresh process against two
   sequential `sengoku goldfish DECK --jobs 1 --json` calls (the same games a comparison plays)
   and against two sequential `--jobs 2` goldfish calls: min and median of --repeat.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ROOT / "decklists" / "default.toml"
ONE_CARD = ROOT / "decklists" / "compare" / "one-card.toml"
DECKS = (DEFAULT, ONE_CARD)


def sengoku() -> list[str]:
    exe = Path(sys.executable).with_name("sengoku")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "sengoku"]


def run(cmd: list[str]) -> str:
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stderr}")
    return done.stdout


def timed(cmds: list[list[str]], repeat: int) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        for cmd in cmds:
            run(cmd)
        times.append(time.perf_counter() - t)
    return min(times), statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=2000)
    ap.add_argument("--policy", default="greedy")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seeds", type=int, default=5)
    args = ap.parse_args()
    common = ["--runs", str(args.runs), "--policy", args.policy, "--json"]
    print(run([*sengoku(), "--version"]).strip())

    print(f"\n1. mean kill-turn difference, {DEFAULT.name} vs {ONE_CARD.name}, {args.runs} runs:")
    ratios = []
    for seed in range(args.seeds):
        data = json.loads(run([*sengoku(), "compare", str(DEFAULT), str(ONE_CARD), *common, "--seed", str(seed)]))
        row = next(r for r in data["differences"] if r["measure"] == "kill_turn_mean")
        paired = row["ci95"][1] - row["ci95"][0]
        unpaired = row["unpaired_ci95"][1] - row["unpaired_ci95"][0]
        ratios.append(unpaired / paired if paired else float("inf"))
        print(f"   seed {seed}: diff {row['diff']:+.3f}, paired ±{paired / 2:.3f}, unpaired ±{unpaired / 2:.3f}, "
              f"{ratios[-1]:.2f}x narrower")
    print(f"   median: the paired interval is {statistics.median(ratios):.2f}x narrower")

    print(f"\n2. wall time, {args.runs} runs per deck (min / median of {args.repeat}):")
    compare = [[*sengoku(), "compare", str(DEFAULT), str(ONE_CARD), *common, "--jobs", "2"]]
    for label, cmds in (
        ("compare --jobs 2", compare),
        ("2 x goldfish --jobs 1", [[*sengoku(), "goldfish", str(d), *common, "--jobs", "1"] for d in DECKS]),
        ("2 x goldfish --jobs 2", [[*sengoku(), "goldfish", str(d), *common, "--jobs", "2"] for d in DECKS]),
    ):
        lo, med = timed(cmds, args.repeat)
        print(f"   {label:24s} {lo:6.2f} s / {med:6.2f} s")


if __name__ == "__main__":
    main()
