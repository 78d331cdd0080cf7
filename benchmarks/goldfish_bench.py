"""Benchmark `sengoku goldfish`: wall time of the whole CLI process, and games per second.

    .venv/bin/python benchmarks/goldfish_bench.py [--repeat 5] [--runs 10000] [--turns 8]

Prints, for the bundled default deck, the wall time of `sengoku goldfish --runs R --turns T` as a
fresh process (the text report, stdout to /dev/null; then --json), with --jobs 1 and --jobs 2:
min and median of --repeat runs; and of `sengoku --help`. Beside them, the floor: a process that
loads the same deck and plays as many games of engine_bench.py's minimal loop (`engine_bench.py
--floor-process`), and each `--jobs 1` run's median as a multiple of the floor's. The `sengoku` beside this Python is
timed; its first line says whether its rules engine is compiled. Games per second of the engine
alone, next to a minimal loop: benchmarks/engine_bench.py.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path


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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=5, help="process runs per configuration (default 5)")
    ap.add_argument("--runs", type=int, default=10_000, help="games per CLI run (default 10000)")
    ap.add_argument("--turns", type=int, default=8, help="turns per game (default 8)")
    args = ap.parse_args()
    exe = sengoku_exe()
    version = subprocess.run([*exe, "--version"], capture_output=True, text=True).stdout.strip()
    print(f"machine: {os.cpu_count()} cores; python {sys.version.split()[0]}; {version}")
    print(f"== whole process, `sengoku goldfish --runs {args.runs} --turns {args.turns}` "
          f"(min / median of {args.repeat})")
    floor_cmd = [sys.executable, str(Path(__file__).with_name("engine_bench.py")), "--floor-process",
                 "--games", str(args.runs), "--turns", str(args.turns)]
    floor_lo, floor_med = wall(floor_cmd, args.repeat)
    print(f"  {'floor: engine_bench.py --floor-process (same games)':<60} {floor_lo:6.3f} s / {floor_med:6.3f} s")
    for extra in ([], ["--json"]):
        for jobs in (1, 2):
            cmd = [*exe, "goldfish", "--runs", str(args.runs), "--turns", str(args.turns), "--jobs", str(jobs), *extra]
            lo, med = wall(cmd, args.repeat)
            ratio = f"  {med / floor_med:4.2f}x the floor" if jobs == 1 else ""
            print(f"  {' '.join(cmd[1:]):<60} {lo:6.3f} s / {med:6.3f} s{ratio}")
    lo, med = wall([*exe, "--help"], args.repeat)
    print(f"  {'--help':<60} {lo:6.3f} s / {med:6.3f} s")


if __name__ == "__main__":
    main()
