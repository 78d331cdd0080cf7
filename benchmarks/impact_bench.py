"""Benchmark `sengoku impact`: every card of the default deck to ±0.02 turns, and the floor its games set.

    .venv/bin/python benchmarks/impact_bench.py [--precision 0.02] [--jobs 2] [--json FILE]

Prints, side by side: the wall time of `impact()` on the bundled default deck (every card it can
measure, --precision 0.02, seed 0, on --jobs local processes: each card to ±0.02 turns, or sooner
when its corrected interval leaves 0 out, as `impact` races), the games it played, and the
floor: the time those games take at the engine's own speed on this machine (one process playing
the default deck's runs back to back through `simulate.play_runs`, measured first, times the
processes), that is, the race with no cost of its own. The goal is 30 s on two cores with the
compiled engine (`sengoku --version` says which engine runs).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from sengoku.build import engine_build
from sengoku.goldfish.api import plan_of
from sengoku.goldfish.play.simulate import play_runs
from sengoku.impact.race import ImpactRace

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ROOT / "decklists" / "default.toml"
GOAL_SECONDS = 30.0


def engine_speed(runs: int = 4000) -> float:
    """Return the default deck's games per second on one process (runs 0..runs-1, back to back)."""
    plan = plan_of(DEFAULT)
    began = time.perf_counter()
    for _ in play_runs(plan, 0, runs):
        pass
    return runs / (time.perf_counter() - began)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--precision", type=float, default=0.02)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()

    print(f"engine: {engine_build()}")
    rate = engine_speed()
    print(f"engine speed: {rate:,.0f} games/s on one process (the default deck)", flush=True)

    race = ImpactRace(DEFAULT, precision=args.precision, budget=10_000_000, jobs=args.jobs)
    if race.options.jobs_note():
        print(f"note: {race.options.jobs_note()}")
    began = time.perf_counter()
    executor = race.open_executor()
    try:
        result = race.run()
    finally:
        executor.close()
    wall = time.perf_counter() - began
    floor = result.games / (rate * executor.workers)
    # a card stops when its interval is within ±precision, or sooner when its corrected interval leaves 0 out
    precise = [c for c in result.cards if c.stop == "precise"]
    decided = [c for c in result.cards if c.stop == "decided"]
    widest = max((c.sums.half_width() or 0.0 for c in precise if c.sums is not None), default=0.0)
    print(f"cards measured: {result.measured} (of {len(result.cards)}): {len(precise)} to ±{args.precision:g} turns "
          f"(widest 95% half-width {widest:.4f}), {len(decided)} decided sooner (corrected interval away from 0); "
          f"stopped: {result.stopped}; looks {[runs for runs, _ in result.looks]}")
    print(f"{'':24}{'seconds':>10}{'games':>12}{'games/s':>10}")
    print(f"{'impact, ' + executor.describe:24}{wall:>10.1f}{result.games:>12,}{result.games / wall:>10,.0f}")
    print(f"{'floor (games at speed)':24}{floor:>10.1f}{result.games:>12,}{rate * executor.workers:>10,.0f}")
    print(f"{'goal':24}{GOAL_SECONDS:>10.1f}")
    verdict = "met" if wall <= GOAL_SECONDS else "missed"
    print(f"goal of {GOAL_SECONDS:g} s: {verdict} ({wall / floor:.2f}x the floor)")
    if args.json is not None:
        args.json.write_text(json.dumps({"engine": engine_build(), "precision": args.precision,
                                         "workers": executor.workers, "seconds": round(wall, 2),
                                         "games": result.games, "floor_seconds": round(floor, 2),
                                         "engine_games_per_s": round(rate), "goal_seconds": GOAL_SECONDS,
                                         "widest_half_width": round(widest, 4)}, indent=2) + "\n",
                             encoding="utf-8")
    return 0 if widest <= args.precision and result.stopped == "done" else 1


if __name__ == "__main__":
    sys.exit(main())
