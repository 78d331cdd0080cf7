"""How much of a tune step is the client's alone, and what more workers would give (issue 38).

    nice -n 10 python benchmarks/tune_scale_bench.py [--cards 2000] [--games-per-step 125000]
                  [--look-groups N] [--looks 2] [--rounds 3]
                  [--part all|serial] [--json FILE]

Two pools: the sample set's (the bundled database, 95 cards) and a database of CARDS cards (the
sample set and renamed copies of it, `make_big_db.py`), each the whole database; the deck is
`decklists/tune/no-level3-4.toml`, against the default deck, as in docs/tune.md's quality run.

1. The client's serial part of one step, per pool, in parts: **check** (every one-card change
   checked: `Tuner.candidates`), **compile** (the incumbent compiled once, and pickled once as
   the base its candidates are built from, with the pool's card rows: `base`, its bytes, which go
   once to each worker), **send** (every task of the step pickled as a local process pool sends
   it, bytes counted: `sent`), **decide** (everything else the client does: making the
   tasks, merging the results, the screening and confirmation decisions), in CPU seconds of the
   client's process (on a machine shared with other jobs, its wall time is that divided by the
   share of a core it got; the load average is printed). The step is a whole
   step of the tuner's own code, screening and confirmation, played by a dry executor that
   pickles each task and answers it at once with made-up integers (a few candidates better than
   the incumbent, so the step screens and confirms as a real one does); the time it takes to
   make them up is not counted.
2. Games/s: the sample pool's first look (every candidate, or its first LOOK_GROUPS groups, 32
   candidates and the incumbent on 50 runs each; the workers compile the candidates from their
   changes, as in a tune), LOOKS times on successive runs, on 1 local worker process, a Dask
   LocalCluster of 2 and 2 local worker processes, each new and warmed up with two tasks a
   worker; in ROUNDS rounds, each in the opposite order to the one before, so that a drift in
   the machine's speed weighs on every executor alike. A round's ratios are its own rates over
   its own one worker; the verdict on the goal is their median over the rounds, printed with the
   lowest and highest (one run of each, on a machine whose speed swings between runs, made the
   ratio a draw). The tasks, and for Dask the Dask tasks that carried them (away from a run's
   end, four tasks a Dask task: `executors.BUNDLE`). Wall time, with the load average before and after, and CPU seconds, which a
   shared machine disturbs less: of the games (the threads that played them), of this process
   (the client; for Dask, its scheduler and the nannies too) and of the worker processes; what is
   spent beside the games, as a share of the games' CPU, bounds what the LocalCluster can reach on
   two cores of its own: 2 (1 + one worker's share) / (1 + the LocalCluster's).
3. The model T(W) = S + G / (W * R): S the serial part of step 1, R the games/s of a worker on a
   core of its own (two groups played in this process, per CPU second; on a loaded machine the
   wall rate of one local worker is lower, and would make the serial part look smaller), G the games of a step (--games-per-step, default 125,000: docs/tune.md's quality run,
   1,999,022 games over 16 accepted changes; for the larger pool, the screening's share grown
   with the pool: twice its first look's games). Printed for W = 1, 8, 64, with the speed-up
   T(1) / T(W), beside the goals: a serial part of at most 0.3 s with either pool, at least 30x
   at 64 workers with the sample pool, and a LocalCluster of 2 at least 1.7x one worker.

Run it on the compiled engine (a wheel) for the games/s that matter; the script says which runs.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import statistics
import sys
import tempfile
import time
import zlib
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from make_big_db import write_db  # noqa: E402  (a sibling script, not a package)

from sengoku.build import engine_build  # noqa: E402
from sengoku.tune.build import BaseFiles  # noqa: E402
from sengoku.tune.executors import DaskCluster, ProcessPool  # noqa: E402
from sengoku.tune.looks import GROUP  # noqa: E402
from sengoku.tune.tuner import SCREEN_FIRST, Tuner  # noqa: E402
from sengoku.tune.work import TaskResult, play_task  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DECK = ROOT / "decklists" / "tune" / "no-level3-4.toml"
OPPONENT = ROOT / "decklists" / "default.toml"
GOALS = {"serial_s": 0.3, "speedup_64": 30.0, "cluster_2": 1.7}


class DryExecutor:
    """Pickle each task as a process pool sends it, and answer at once with made-up kill-turn counts.

    A candidate's counts depend only on its change (a digest of it) and the runs: about one
    in five is better than the incumbent by 0.1-0.3 turns, so screening keeps a few and a
    confirmation accepts one, as in a real step. Pickling is timed as `send`; making up the
    answer is timed as `made_up`, which the benchmark leaves out of the client's time.
    """

    workers = 1
    describe = "dry"

    def __init__(self) -> None:
        self.send = self.made_up = 0.0
        self.bytes = self.tasks = 0
        self._bases = BaseFiles()

    def run(self, tasks: Iterable[Any]) -> Iterator[TaskResult]:
        for group, a, b, base in tasks:
            began = time.process_time()
            task = (group, a, b, self._bases.ship(base))  # as ProcessPool sends it
            self.bytes += len(pickle.dumps(task, protocol=pickle.HIGHEST_PROTOCOL))
            self.tasks += 1
            made = time.process_time()
            self.send += made - began
            result = self._answer(task)
            self.made_up += time.process_time() - made
            yield result

    @staticmethod
    def _answer(task: Any) -> TaskResult:
        group, a, b, _ = task
        runs = b - a
        n, total, squares = [], [], []  # as a worker sends them: per candidate, the sums of its per-run gains
        for change in group.changes:
            q = zlib.crc32(repr(change).encode()) % 1000 / 1000  # (section, out, into)
            better = round(runs * (0.25 + 0.2 * q)) if q > 0.8 else round(runs * 0.2 * q)
            worse = round(runs * 0.2)
            n.append(runs)
            total.append(better - worse)  # +1, 0 or -1 a run
            squares.append(better + worse)
        games = runs * (len(group.changes) + 1)
        return TaskResult([], Counter({4: runs}), games, games / 7000, (n, total, squares))

    def close(self, quietly: bool = False) -> None:
        self._bases.close()


class TimedTuner(Tuner):
    """The tuner, with its check and its compile of the incumbent timed."""

    check_s = compile_s = 0.0
    base_bytes = 0

    def candidates(self) -> Any:
        began = time.process_time()
        found = super().candidates()
        self.check_s += time.process_time() - began
        return found

    def incumbent_of(self, deck: Any) -> Any:
        began = time.process_time()
        made = super().incumbent_of(deck)
        self.compile_s += time.process_time() - began
        self.base_bytes = len(made.base.blob)
        return made


def serial_step(db: Path | None) -> dict[str, Any]:
    """Play one whole step with the dry executor; return the client's time in parts."""
    dry = DryExecutor()
    tuner = TimedTuner(DECK, db, opponent=OPPONENT, budget=10 ** 9, check_runs=0, executor=dry)
    began = time.process_time()
    tuner._step()
    total = time.process_time() - began - dry.made_up
    dry.close()
    race = tuner.races[-1]
    return {"candidates": race.candidates, "refused": race.refused, "accepted": bool(tuner.steps),
            "looks": len(race.looks), "tasks": dry.tasks, "bytes": dry.bytes, "base_bytes": tuner.base_bytes,
            "check_s": tuner.check_s, "compile_s": tuner.compile_s, "send_s": dry.send,
            "decide_s": total - tuner.check_s - tuner.compile_s - dry.send, "serial_s": total}


def _timed_play(group: Any, a: int, b: int, base: Any = None) -> tuple[TaskResult, float]:
    """`play_task`, and the CPU seconds of the thread that played it: the games' own CPU, wherever they ran."""
    began = time.thread_time()
    result = play_task(group, a, b, base)
    return result, time.thread_time() - began


def _cpu(process: Any) -> float:
    try:
        times = process.cpu_times()
    except Exception:  # noqa: BLE001 - a process already gone counts as nothing more
        return 0.0
    return float(times.user + times.system)


EXECUTORS = (("1 local worker", lambda: ProcessPool(1)), ("Dask local:2", lambda: DaskCluster("local:2")),
             ("2 local workers", lambda: ProcessPool(2)))


def one_run(tuner: Tuner, make: Any, tasks_of: Any) -> dict[str, Any]:
    """Play the tasks on a new executor, after a warm-up of two tasks a worker: wall time, and CPU seconds of
    the games (their threads), of this process (the client; with Dask, its scheduler and nannies too) and of
    the workers (their processes)."""
    import psutil  # deferred: Dask's own dependency, needed only here

    me = psutil.Process()
    executor = make()
    try:
        tuner.executor = executor
        tasks = tasks_of()
        # warm-up: every worker has imported sengoku and opened the base before the clock starts (a
        # LocalCluster's workers are new processes; a local pool's are forked from this one)
        list(executor.run(tasks[:2 * executor.workers], _timed_play))
        sent = getattr(executor, "sent", None)  # Dask tasks sent so far (a Dask task plays one task or a bundle)
        workers = me.children(recursive=True)
        before = [_cpu(me), *map(_cpu, workers)]
        load = os.getloadavg()[0]
        began = time.perf_counter()
        played = list(executor.run(tasks, _timed_play))
        wall = time.perf_counter() - began
        after = [_cpu(me), *map(_cpu, workers)]
        sent = None if sent is None else executor.sent - sent
    finally:
        executor.close()
    games = sum(r.games for r, _ in played)
    games_cpu = sum(c for _, c in played)
    client, worker = after[0] - before[0], sum(after[1:]) - sum(before[1:])
    beside = client + worker - games_cpu
    return {"games": games, "seconds": wall, "games_per_s": games / wall, "tasks": len(tasks), "dask_tasks": sent,
            "games_cpu_s": games_cpu, "client_cpu_s": client, "workers_cpu_s": worker, "beside_cpu_s": beside,
            "beside_share": beside / games_cpu, "load": [round(load, 1), round(os.getloadavg()[0], 1)]}


def _spread(values: list[float], form: str) -> str:
    return (f"{format(statistics.median(values), form)} (" + ", ".join(format(v, form) for v in values) + ")"
            if len(values) > 1 else format(values[0], form))


def games_per_s(groups: int | None, looks: int, rounds: int) -> dict[str, Any]:
    """Games/s of the sample pool's first look (its first `groups` groups, default all), `looks` times on
    successive runs, on 1 local worker, Dask local:2 and 2 local workers, in `rounds` rounds, each in the
    opposite order to the one before; the ratios of a round's rates, and their median over the rounds."""
    tuner = Tuner(DECK, opponent=OPPONENT, check_runs=0)
    candidates, _ = tuner.candidates()
    incumbent = tuner.incumbent_of(tuner.incumbent)
    racing = candidates[:groups * GROUP] if groups else candidates
    out: dict[str, Any] = {"games": looks * SCREEN_FIRST * (len(racing) + -(-len(racing) // GROUP)),
                           "groups": -(-len(racing) // GROUP), "looks": looks, "rounds": []}
    # What one core gives, whatever the load: two groups played in this process, per CPU second
    began, played = time.process_time(), 0
    changes = [(c.change.section, c.change.out, c.change.into) for c in racing]
    for _, (group, a, b, base) in list(tuner.looks.tasks(2 * GROUP, lambda g, h: tuner._group(incumbent, changes[g:h]),
                                                         0, SCREEN_FIRST)):
        played += play_task(group, a, b, base).games
    out["cpu"] = {"games_per_s": played / (time.process_time() - began), "games": played}
    print(f"  {'one core (CPU)':<16} {played:,} games in {time.process_time() - began:.2f} CPU s = "
          f"{out['cpu']['games_per_s']:>7,.0f} games per CPU second (in this process)", flush=True)

    def tasks_of() -> list[Any]:
        tuner.looks.seconds_per_game = 1 / 7000  # tasks of about a second, as a tune settles on
        return [t for look in range(looks) for _, t in
                tuner.looks.tasks(len(racing), lambda g, h: tuner._group(incumbent, changes[g:h]),
                                  look * SCREEN_FIRST, (look + 1) * SCREEN_FIRST)]

    print(f"  {'round':<6}{'executor':<16} {'games/s':>8} {'wall':>7} {'tasks (Dask)':>12} {'games CPU':>10} "
          f"{'client CPU':>11} {'workers CPU':>12} {'beside':>7}  load", flush=True)
    for k in range(rounds):
        row: dict[str, Any] = {}
        for label, make in (EXECUTORS if k % 2 == 0 else EXECUTORS[::-1]):
            r = row[label] = one_run(tuner, make, tasks_of)
            tasks = f"{r['tasks']}" + ("" if r["dask_tasks"] is None else f" ({r['dask_tasks']})")
            print(f"  {k + 1:<6}{label:<16} {r['games_per_s']:>8,.0f} {r['seconds']:>6.2f}s {tasks:>12} "
                  f"{r['games_cpu_s']:>9.2f}s {r['client_cpu_s']:>10.2f}s {r['workers_cpu_s']:>11.2f}s "
                  f"{100 * r['beside_share']:>6.1f}%  {r['load'][0]:.1f} -> {r['load'][1]:.1f}", flush=True)
        one = row["1 local worker"]["games_per_s"]
        row["cluster_2_over_1"] = row["Dask local:2"]["games_per_s"] / one
        row["local_2_over_1"] = row["2 local workers"]["games_per_s"] / one
        row["cluster_2_over_local_2"] = row["Dask local:2"]["games_per_s"] / row["2 local workers"]["games_per_s"]
        print(f"  {k + 1:<6}over 1 local worker: Dask local:2 {row['cluster_2_over_1']:.2f}x, "
              f"2 local workers {row['local_2_over_1']:.2f}x; Dask local:2 over 2 local workers "
              f"{row['cluster_2_over_local_2']:.2f}x", flush=True)
        out["rounds"].append(row)
    for label, _ in EXECUTORS:
        runs = [row[label] for row in out["rounds"]]
        out[label] = {"games_per_s": statistics.median(r["games_per_s"] for r in runs),
                      "beside_share": statistics.median(r["beside_share"] for r in runs)}
    for key in ("cluster_2_over_1", "local_2_over_1", "cluster_2_over_local_2"):
        ratios = [row[key] for row in out["rounds"]]
        out[key] = {"median": statistics.median(ratios), "low": min(ratios), "high": max(ratios)}
    return out


def model(serial: float, games: float, rate: float) -> dict[int, dict[str, float]]:
    """T(W) = S + G / (W R) and the speed-up T(1) / T(W), for W = 1, 8, 64."""
    t1 = serial + games / rate
    return {w: {"seconds": serial + games / (w * rate), "speedup": t1 / (serial + games / (w * rate))}
            for w in (1, 8, 64)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=2000, help="cards of the larger pool's database (default 2000)")
    parser.add_argument("--games-per-step", type=int, default=125_000,
                        help="games of a step with the sample pool, G (default 125,000: docs/tune.md's quality run)")
    parser.add_argument("--look-groups", type=int, default=None,
                        help="groups of 32 candidates played for games/s (default: all of the sample pool's, 28)")
    parser.add_argument("--looks", type=int, default=2,
                        help="first looks played for games/s, on successive runs (default 2: about 91,000 games in "
                             "56 tasks, so that one task more or less on a worker is a few per cent of a run)")
    parser.add_argument("--rounds", type=int, default=3,
                        help="rounds of games/s (default 3): each plays the same tasks on 1 local worker, Dask local:2 "
                             "and 2 local workers, in the opposite order to the round before; the ratios are a round's "
                             "rates over its own 1 local worker, and their median is the verdict")
    parser.add_argument("--part", choices=("all", "serial"), default="all",
                        help="serial: only the client's serial part (step 1), no games")
    parser.add_argument("--json", type=Path, help="also write the figures as JSON to this file")
    args = parser.parse_args()
    out: dict[str, Any] = {"engine": engine_build(), "cores": len(os.sched_getaffinity(0))}
    print(f"rules engine: {out['engine']}; cores this process may use: {out['cores']}; "
          f"load average {os.getloadavg()[0]:.1f}", flush=True)

    print("\n1. The client's serial part of one step (check, compile, send, decide), seconds", flush=True)
    print(f"  {'pool':<22} {'changes':>8} {'legal':>7} {'tasks':>6} {'sent':>9} {'base':>8} {'check':>7} {'compile':>8} "
          f"{'send':>7} {'decide':>7} {'serial':>7}  goal", flush=True)
    steps: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for label, db in (("sample set (95 cards)", None),
                          (f"{args.cards:,} cards", write_db(Path(tmp) / "big", args.cards).parent)):
            s = steps[label] = serial_step(db)
            print(f"  {label:<22} {s['candidates'] + s['refused']:>8,} {s['candidates']:>7,} {s['tasks']:>6,} "
                  f"{s['bytes'] / 1e6:>7.2f}MB {s['base_bytes'] / 1e6:>6.2f}MB {s['check_s']:>7.3f} {s['compile_s']:>8.3f} {s['send_s']:>7.3f} "
                  f"{s['decide_s']:>7.3f} {s['serial_s']:>7.3f}  <= {GOALS['serial_s']}"
                  f"{'' if s['serial_s'] <= GOALS['serial_s'] else '  MISSED'}", flush=True)
    out["serial"] = steps
    if args.part == "serial":
        return

    print(f"\n2. Games/s, the sample pool's first look ({args.look_groups or 'all'} groups of {GROUP} candidates "
          f"and the incumbent, {SCREEN_FIRST} runs each), {args.looks} time(s) on successive runs", flush=True)
    rates = out["games_per_s"] = games_per_s(args.look_groups, args.looks, args.rounds)
    one = rates["1 local worker"]["games_per_s"]
    cluster, local = rates["cluster_2_over_1"], rates["local_2_over_1"]
    out["cluster_2_over_1"] = cluster["median"]
    # On two cores each worker's games get at most a core: what the LocalCluster spends beside its games (its
    # client, scheduler, nannies and the workers' own event loops, in CPU seconds) caps it below twice one worker
    # (which spends a little beside its games too), whatever the load did to the wall times.
    ceiling = 2 * (1 + rates["1 local worker"]["beside_share"]) / (1 + rates["Dask local:2"]["beside_share"])
    out["cluster_2_ceiling"] = ceiling
    verdict = "met" if cluster["median"] >= GOALS["cluster_2"] else "MISSED"  # (three decimals printed: 1.698x is short)
    # the benchmark's own processes make a load of about 2-3 at most (two workers, and Dask's client process)
    busiest = max(load for row in rates["rounds"] for label, _ in EXECUTORS for load in row[label]["load"])
    if busiest > out["cores"] + 1:
        verdict += (f" on this run, but the load average reached {busiest:.1f} on {out['cores']} cores: other jobs "
                    f"took CPU from the rounds, so their wall ratios do not judge the goal (rerun on a quiet machine)")
    out["loaded"] = busiest > out["cores"] + 1
    print(f"  over 1 local worker, median of {args.rounds} round(s) (lowest-highest): Dask local:2 "
          f"{cluster['median']:.3f}x ({cluster['low']:.2f}-{cluster['high']:.2f}), goal >= {GOALS['cluster_2']}x: "
          f"{verdict}; 2 local workers {local['median']:.2f}x ({local['low']:.2f}-{local['high']:.2f})", flush=True)
    # the same two cores divided the same way, with or without Dask: a loaded machine moves both alike
    both = rates["cluster_2_over_local_2"]
    print(f"  Dask local:2 over 2 local workers, median of the rounds: {both['median']:.2f}x "
          f"({both['low']:.2f}-{both['high']:.2f})", flush=True)
    print(f"  CPU beside the games (median share of the games' CPU): 1 local worker "
          f"{100 * rates['1 local worker']['beside_share']:.1f}%, Dask local:2 "
          f"{100 * rates['Dask local:2']['beside_share']:.1f}%, 2 local workers "
          f"{100 * rates['2 local workers']['beside_share']:.1f}%: on 2 cores of their own, Dask local:2 could reach "
          f"at most {ceiling:.2f}x one worker", flush=True)

    # R: a worker's games/s on a core of its own (the CPU rate); a loaded machine's wall rate would flatter
    # the model (a slower worker makes the serial part matter less)
    rate = max(one, rates["cpu"]["games_per_s"])
    print(f"\n3. The model T(W) = S + G / (W R), R = {rate:,.0f} games/s (a worker on a core of its own: the CPU "
          f"rate; the wall rate of 1 local worker was {one:,.0f} here)", flush=True)
    sample, big = steps.values()
    first = {k: SCREEN_FIRST * (s["candidates"] + -(-s["candidates"] // GROUP)) for k, s in steps.items()}
    out["model"] = {}
    for (label, s), games in zip(steps.items(), (args.games_per_step, args.games_per_step
                                                 + 2 * (list(first.values())[1] - list(first.values())[0]))):
        m = out["model"][label] = model(s["serial_s"], games, rate)
        goal = f"  (goal at 64: >= {GOALS['speedup_64']:.0f}x)" if s is sample else ""
        print(f"  {label:<22} S = {s['serial_s']:.3f} s, G = {games:,}: " + ", ".join(
            f"T({w}) = {v['seconds']:.2f} s ({v['speedup']:.1f}x)" for w, v in m.items()) + goal, flush=True)
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
