"""Start-up of `sengoku` commands, each beside the floor of starting Python itself.

    python benchmarks/startup_bench.py [--runs 11]

Run it with the Python of the install to time (`/tmp/v/bin/python benchmarks/startup_bench.py`):
the `sengoku` beside that Python is timed. Prints the median CPU and wall seconds of fresh
processes, run in turn: `python -c pass` (the floor), `sengoku --version`, `sengoku --help`,
a one-file `validate` of the bundled default deck, and `goldfish --runs 1` (its fixed cost:
everything but the games), with the text report and with --json. The checked-files memory
(`sengoku.pass_cache`) lives in a fresh temporary folder, warmed by the first run.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from proc_time import medians

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11, help="counted runs of each command (default 11)")
    args = parser.parse_args()
    exe = str(Path(sys.executable).with_name("sengoku"))
    deck = str(ROOT / "decklists" / "default.toml")
    commands = {
        "python -c pass (floor)": [sys.executable, "-c", "pass"],
        "sengoku --version": [exe, "--version"],
        "sengoku --help": [exe, "--help"],
        "sengoku validate default.toml": [exe, "validate", deck],
        "sengoku goldfish --runs 1": [exe, "goldfish", "--runs", "1"],
        "sengoku goldfish --runs 1 --json": [exe, "goldfish", "--runs", "1", "--json"],
    }
    with tempfile.TemporaryDirectory() as cache:
        env = {name: {"SENGOKU_CACHE_DIR": cache} for name in commands}
        found = medians(commands, args.runs, env)
    floor_cpu = found["python -c pass (floor)"][0]
    print(f"median of {args.runs} fresh processes each, run in turn; {sys.version.split()[0]}")
    print(f"  {'command':<36} {'cpu s':>7} {'wall s':>7} {'cpu / floor':>12}")
    for name, (cpu, wall) in found.items():
        print(f"  {name:<36} {cpu:7.3f} {wall:7.3f} {cpu / floor_cpu:11.1f}x")


if __name__ == "__main__":
    main()
