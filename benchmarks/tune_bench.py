"""Benchmark `sengoku tune`: what a worker plays, what the cluster adds, and whether the tune finds better decks.

    .venv/bin/python benchmarks/tune_bench.py [--part all|speed|quality] [--budget 2000000] [--json FILE]

Needs the cluster extra (pip install 'sengoku[cluster]') for the Dask parts. Parts:

1. speed: games/s per worker (one race task of the bundled default deck and 32 one-card candidates,
   played in this process); scaling from 1 to 2 workers (the same 64 tasks on a Dask LocalCluster
   of 1 and of 2 worker processes, wall time); the cost per task (200 tasks of one run each on the
   2-worker cluster, less the work they hold, per task); and the wall time of a tune of the default
   deck with --budget 200000 on --jobs 1.
2. quality: a tune of decklists/tune/no-level3-4.toml (the default deck with its Level 3 and Level 4
   cards replaced by Level 1 cards of other names; about 0.7 turns slower than the default deck)
   with the whole sample set as its pool and --budget (at most 2,000,000 games), then every accepted
   change checked again on 4x the runs that accepted it (its confirmation's), on fresh runs (master seed + 1000), and
   the final deck against the start on 20,000 fresh runs: the final deck must be at least 0.3 turns
   faster with a 95% interval that excludes 0, and no change may come out worse in its 4x check.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from sengoku.build import engine_build
from sengoku.goldfish.compare import compare
from sengoku.goldfish.statistics.differences import KILL_TURN_MEAN
from sengoku.tune.candidates import legal_candidates
from sengoku.tune.deck import decklist
from sengoku.tune.executors import DaskCluster, InProcess
from sengoku.tune.tuner import Tuner
from sengoku.tune.work import group_plan, play_task

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ROOT / "decklists" / "default.toml"
WEAKENED = ROOT / "decklists" / "tune" / "no-level3-4.toml"


def _tasks(runs_per_task: int, count: int) -> list:
    tuner = Tuner(DEFAULT, check_runs=0)
    candidates, _ = legal_candidates(tuner.start, tuner.setup.like, tuner.pool, tuner.setup.card_db, tuner.validator)
    plan = group_plan(tuner.plan(tuner.start), [tuner.plan(c.deck) for c in candidates[:32]])
    return [(plan, k * runs_per_task, (k + 1) * runs_per_task, None) for k in range(count)]


def speed(out: dict) -> None:
    [task] = _tasks(60, 1)
    began = time.perf_counter()
    result = play_task(*task)
    seconds = time.perf_counter() - began
    out["games_per_s_per_worker"] = round(result.games / seconds)
    print(f"one worker: {result.games:,} games in {seconds:.2f} s = {result.games / seconds:,.0f} games/s")

    tasks = _tasks(30, 64)
    games = sum(len(p.plans) * (b - a) for p, a, b, _ in tasks)
    walls = {}
    for workers in (1, 2):
        cluster = DaskCluster(f"local:{workers}")
        try:
            list(cluster.run(tasks[:2]))  # warm: the workers import sengoku once
            began = time.perf_counter()
            list(cluster.run(tasks))
            walls[workers] = time.perf_counter() - began
            if workers == 2:
                tiny = _tasks(1, 200)
                began = time.perf_counter()
                results = list(cluster.run(tiny))
                wall = time.perf_counter() - began
                work = sum(r.seconds for r in results) / workers
                out["cost_per_task_ms"] = round(1000 * (wall - work) / len(tiny), 2)
                print(f"cost per task: {out['cost_per_task_ms']} ms ({len(tiny)} one-run tasks in {wall:.2f} s, "
                      f"{work:.2f} s of it playing per worker)")
        finally:
            cluster.close()
        print(f"Dask local:{workers}: {games:,} games in {walls[workers]:.2f} s = {games / walls[workers]:,.0f} games/s")
    out["dask_games_per_s"] = {str(w): round(games / s) for w, s in walls.items()}
    out["scaling_1_to_2"] = round(walls[1] / walls[2], 2)
    print(f"scaling 1 -> 2 workers: {walls[1] / walls[2]:.2f}x (cores this process may use: {len(os.sched_getaffinity(0))})")

    began = time.perf_counter()
    result = Tuner(DEFAULT, budget=200_000, check_runs=0).run()
    seconds = time.perf_counter() - began
    out["tune_default_200k"] = {"seconds": round(seconds, 1), "games": result.games, "changes": len(result.steps),
                                "stopped": result.stopped}
    print(f"tune of the default deck, --budget 200000, --jobs 1: {seconds:.1f} s, {result.games:,} games, "
          f"{len(result.steps)} change(s), stopped: {result.stopped}")


def quality(out: dict, budget: int, jobs: int, opponent: Path | None) -> None:
    executor = InProcess() if jobs == 1 else None
    if executor is None:
        from sengoku.tune.executors import ProcessPool

        executor = ProcessPool(jobs)
    began = time.perf_counter()
    seen = [0]

    def progress(p) -> None:  # type: ignore[no-untyped-def]
        if len(tuner.steps) > seen[0]:  # say each accepted change as it comes (a 2M-game run takes minutes)
            seen[0] = len(tuner.steps)
            s = tuner.steps[-1]
            print(f"  step {seen[0]}: {s.label} {s.diff:+.3f} on {s.runs:,} runs, {p.games:,} games, "
                  f"{time.perf_counter() - began:.0f} s", flush=True)

    try:
        tuner = Tuner(WEAKENED, budget=budget, check_runs=20_000, executor=executor, progress=progress,
                      opponent=opponent)
        result = tuner.run()
    finally:
        executor.close()
    seconds = time.perf_counter() - began
    like = result.like
    deck = result.start
    checks = []
    for k, step in enumerate(result.steps, start=1):
        after = deck.apply(step.change)
        cmp = compare([decklist(deck, like), decklist(after, like)], runs=4 * step.runs, seed=1000, jobs=jobs,
                      opponent=opponent if opponent is not None else decklist(result.start, like))
        row = cmp.rows(KILL_TURN_MEAN)[0]
        worse = row["ci95"][0] > 0
        checks.append({"step": k, "change": step.label, "diff": round(step.diff, 4), "runs": step.runs,
                       "check_runs": 4 * step.runs, "check_diff": round(row["diff"], 4),
                       "check_ci95": [round(x, 4) for x in row["ci95"]], "worse": worse})
        print(f"{k}. {step.label}: {step.diff:+.3f} on {step.runs:,} runs; 4x check on fresh runs "
              f"{row['diff']:+.3f} [{row['ci95'][0]:+.3f}, {row['ci95'][1]:+.3f}]{'  WORSE' if worse else ''}")
        deck = after
    c = result.check
    assert c is not None or not result.steps
    out["quality"] = {
        "budget": budget, "opponent": str(opponent.relative_to(ROOT)) if opponent else "the start deck",
        "games": result.games, "seconds": round(seconds, 1), "stopped": result.stopped,
        "changes": checks,
        "final_vs_start": None if c is None else {"runs": c.runs, "start": round(c.start, 4), "final": round(c.final, 4),
                                                  "diff": round(c.diff, 4), "ci95": [round(x, 4) for x in c.ci95]},
        "decklist": result.decklist_text(),
    }
    if c is not None:
        print(f"final vs start on {c.runs:,} fresh runs: {c.start:.3f} -> {c.final:.3f}, {c.diff:+.3f} "
              f"[{c.ci95[0]:+.3f}, {c.ci95[1]:+.3f}]")
    ok = c is not None and c.diff <= -0.3 and c.ci95[1] < 0 and not any(x["worse"] for x in checks)
    out["quality"]["ok"] = ok
    print(f"{result.games:,} games in {seconds:.0f} s; quality target met: {ok}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--part", choices=("all", "speed", "quality"), default="all")
    ap.add_argument("--budget", type=int, default=2_000_000)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument("--opponent", default=str(DEFAULT.relative_to(ROOT)),
                    help="the quality tune's opponent, as `tune --opponent` (default: the bundled default deck, as "
                         "`sengoku compare decklists/default.toml START` measures the start); 'start': the start deck")
    args = ap.parse_args()
    out: dict = {"engine": engine_build(), "python": sys.version.split()[0]}
    print(f"rules engine: {out['engine']}")
    if args.part in ("all", "speed"):
        speed(out)
    if args.part in ("all", "quality"):
        quality(out, args.budget, args.jobs, None if args.opponent == "start" else ROOT / args.opponent)
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
