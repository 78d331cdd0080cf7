"""Start-up of `sengoku` commands, each beside the floor of starting Python itself, and the goals.

    python benchmarks/startup_bench.py [--runs 11] [--against OTHER_PYTHON] [--instructions | --stages]

Run it with the Python of the install to time (`/tmp/v/bin/python benchmarks/startup_bench.py`):
the `sengoku` beside that Python is timed. Prints the median CPU and wall seconds of fresh
processes, run in turn: `python -c pass` (the floor), `python -c "import typer"` (the command-line
library alone), `sengoku --version`, `sengoku --help`, `sengoku formats`, a one-file `validate`
of the bundled default deck, `goldfish --runs 1` (its fixed cost: everything but the games), with
the text report and with --json, and a whole `goldfish --runs 10000 --turns 8 --jobs 1` beside
`engine_bench.py --floor-process` (a process that loads the same deck and plays as many games of
the minimal loop). The checked-files memory (`sengoku.pass_cache`) lives in a fresh temporary
folder, warmed by the first run.

Then the goals, as ratios of two commands measured in the same run (side by side, so that a busy
machine slows both alike): `--help`, `--version` and `formats` at most 1.3 times `import typer`;
`validate` at most 2 times it; the whole goldfish run at most 1.5 times the floor process.

With `--against`, the `sengoku` beside another Python (another install, say the previous
release) runs the same commands in the same rotation, each right after this one's, so that a
busy machine slows both alike; each line then shows both, and the difference.

With `--instructions`, each command runs once under valgrind (`--tool=cachegrind
--cache-sim=no`, with PYTHONHASHSEED=0) and the millions of instructions it executed are
printed instead of times, with the goals' ratios in instructions: a count that other people's
jobs on the machine do not move, so that a change of a few percent shows (it takes about 50
times as long as a run; valgrind must be installed).

With `--stages`, the fixed cost of `goldfish --runs 1` is taken apart the same way: one process
per stage under valgrind, each running the stages before it too, and what each stage adds.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

from proc_time import medians

ROOT = Path(__file__).resolve().parents[1]


def commands_of(python: str) -> dict[str, list[str]]:
    """The commands timed, run by the `sengoku` beside `python`."""
    exe = str(Path(python).with_name("sengoku"))
    deck = str(ROOT / "decklists" / "default.toml")
    return {
        "python -c pass (floor)": [python, "-c", "pass"],
        TYPER: [python, "-c", "import typer"],
        "sengoku --version": [exe, "--version"],
        "sengoku --help": [exe, "--help"],
        "sengoku formats": [exe, "formats"],
        "sengoku validate default.toml": [exe, "validate", deck],
        "sengoku goldfish --runs 1": [exe, "goldfish", "--runs", "1"],
        "sengoku goldfish --runs 1 --json": [exe, "goldfish", "--runs", "1", "--json"],
        FLOOR_PROCESS: [python, str(Path(__file__).with_name("engine_bench.py")), "--floor-process",
                        "--games", "10000", "--turns", "8"],
        WHOLE_GOLDFISH: [exe, "goldfish", "--runs", "10000", "--turns", "8", "--jobs", "1"],
    }


TYPER = 'python -c "import typer"'
FLOOR_PROCESS = "engine_bench.py --floor-process (10000 games)"
WHOLE_GOLDFISH = "sengoku goldfish --runs 10000 --turns 8 --jobs 1"
# (command, measured against, at most this many times it)
GOALS = [
    ("sengoku --help", TYPER, 1.3),
    ("sengoku --version", TYPER, 1.3),
    ("sengoku formats", TYPER, 1.3),
    ("sengoku validate default.toml", TYPER, 2.0),
    (WHOLE_GOLDFISH, FLOOR_PROCESS, 1.5),
]


def print_goals(found: Mapping[str, float], unit: str, wall: Mapping[str, float] | None = None) -> None:
    """Print each goal's ratio, from figures measured in the same run (the verdict: on `found`).

    With `wall`, each line also shows the ratio of the wall seconds, for comparison.
    """
    print(f"goals ({unit}, measured side by side in this run)")
    extra = f" {'wall':>6}" if wall is not None else ""
    print(f"  {'command':<50} {'against':<46} {'ratio':>6}{extra} {'goal':>6}")
    for name, reference, goal in GOALS:
        ratio = found[name] / found[reference]
        verdict = "met" if ratio <= goal else "NOT met"
        shown = f" {wall[name] / wall[reference]:5.2f}x" if wall is not None else ""
        print(f"  {name:<50} {reference:<46} {ratio:5.2f}x{shown} {goal:5.1f}x  {verdict}")


def instructions(cmd: Sequence[str], env: Mapping[str, str]) -> float:
    """Run `cmd` once under valgrind; return the millions of instructions it executed."""
    argv = list(cmd)
    if not argv[0].endswith(("python", "python3")) and Path(argv[0]).is_file():
        argv = [str(Path(argv[0]).with_name("python")), *argv]  # the script, not its launcher, is counted
    done = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                           *argv], capture_output=True, text=True,
                          env={**os.environ, **env, "PYTHONHASHSEED": "0"})
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if found is None:
        raise SystemExit(f"valgrind gave no instruction count for {' '.join(argv)}:\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", "")) / 1e6


# The fixed cost of `sengoku goldfish --runs 1`, stage by stage: each stage's code runs after all
# the stages before it, in one `python -c` process.
STAGES = [
    ("import sengoku.cli (streams, errors)", "import sengoku.cli"),
    ("import typer", "import typer"),
    ("register goldfish; typer builds the command",  # earlier, _register() took no arguments
     "try:\n    app = sengoku.cli._register(['goldfish'])\nexcept TypeError:\n    app = sengoku.cli._register()\n"
     "cmd = typer.main.get_command(app)"),
    ("parse the options (typer 0.29: pydantic adapters)",
     "ctx = cmd.make_context('sengoku', ['goldfish', '--runs', '1'])\n"
     "cmd.get_command(ctx, 'goldfish').make_context('goldfish', ['--runs', '1'], parent=ctx)"),
    ("import sengoku.engine (the rules engine)", "import sengoku.engine"),
    ("import sengoku.goldfish.api (the rest; no pydantic)", "import sengoku.goldfish.api"),
    ("goldfish(runs=1): deck, database, validation, game",
     "r = sengoku.goldfish.api.goldfish(None, None, runs=1, jobs=1)"),
    ("the result as JSON", "r.to_json()"),
    ("import rich and the text report",
     "import io\nfrom rich.console import Console\nimport sengoku.goldfish.reports.report"),
    ("render the text report",
     "sengoku.goldfish.reports.report.render(r, Console(file=io.StringIO(), highlight=False, width=120))"),
]


def count_stages() -> None:
    if shutil.which("valgrind") is None:
        raise SystemExit("--stages needs valgrind")
    print(f"`goldfish --runs 1` by stages: millions of instructions under valgrind; {sys.version.split()[0]}")
    print(f"  {'stage':<52} {'total':>8} {'added':>8}")
    with tempfile.TemporaryDirectory() as cache:
        env = {"SENGOKU_CACHE_DIR": cache}
        code = "pass"
        subprocess.run([sys.executable, "-c", "\n".join(c for _, c in STAGES)], env={**os.environ, **env},
                       check=True)  # warm the checked-files memory
        before = instructions([sys.executable, "-c", code], env)
        print(f"  {'python -c pass':<52} {before:8.1f}")
        code = ""
        for name, step in STAGES:
            code += step + "\n"
            total = instructions([sys.executable, "-c", code], env)
            print(f"  {name:<52} {total:8.1f} {total - before:+8.1f}")
            before = total


def count_instructions(commands: Mapping[str, Sequence[str]], against: bool) -> None:
    if shutil.which("valgrind") is None:
        raise SystemExit("--instructions needs valgrind")
    with tempfile.TemporaryDirectory() as cache:
        env = {"SENGOKU_CACHE_DIR": cache}
        for cmd in commands.values():  # warm the checked-files memory, as the timed runs do
            subprocess.run(list(cmd), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           env={**os.environ, **env}, check=False)
        found = {name: instructions(cmd, env) for name, cmd in commands.items()}
    print(f"millions of instructions, one run each under valgrind; {sys.version.split()[0]}")
    if not against:
        for name, count in found.items():
            print(f"  {name:<50} {count:9.1f}")
        print_goals(found, "instructions")
        return
    print(f"  {'command':<50} {'this':>9} {'against':>9} {'diff':>8}")
    for name in commands_of(sys.executable):
        this, other = found[name], found[f"against: {name}"]
        print(f"  {name:<50} {this:9.1f} {other:9.1f} {100 * (this - other) / other:+7.1f}%")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11, help="counted runs of each command (default 11)")
    parser.add_argument("--against", metavar="OTHER_PYTHON",
                        help="also time the sengoku beside this Python, each command right after this one's")
    parser.add_argument("--instructions", action="store_true",
                        help="count each command's instructions under valgrind instead of timing it")
    parser.add_argument("--stages", action="store_true",
                        help="count the instructions of goldfish --runs 1's start-up, stage by stage")
    args = parser.parse_args()
    if args.stages:
        count_stages()
        return
    commands = commands_of(sys.executable)
    if args.against:  # interleaved: this install's command, then the other's, then the next command
        other = commands_of(args.against)
        commands = {f"{side}{name}": cmd for name in commands
                    for side, cmd in (("", commands[name]), ("against: ", other[name]))}
    if args.instructions:
        count_instructions(commands, bool(args.against))
        return
    with tempfile.TemporaryDirectory() as cache:
        env = {name: {"SENGOKU_CACHE_DIR": cache} for name in commands}
        found = medians(commands, args.runs, env)
    floor_cpu = found["python -c pass (floor)"][0]
    print(f"median of {args.runs} fresh processes each, run in turn; {sys.version.split()[0]}")
    if not args.against:
        print(f"  {'command':<50} {'cpu s':>7} {'wall s':>7} {'cpu / floor':>12}")
        for name, (cpu, wall) in found.items():
            print(f"  {name:<50} {cpu:7.3f} {wall:7.3f} {cpu / floor_cpu:11.1f}x")
        print_goals({name: cpu for name, (cpu, _) in found.items()}, "CPU seconds, medians",
                    wall={name: w for name, (_, w) in found.items()})
        return
    print(f"  this: {sys.executable}; against: {args.against}")
    print(f"  {'command':<50} {'cpu s':>7} {'against':>8} {'diff':>7} {'wall s':>7} {'against':>8}")
    for name in commands_of(sys.executable):
        (cpu, wall), (cpu_a, wall_a) = found[name], found[f"against: {name}"]
        print(f"  {name:<50} {cpu:7.3f} {cpu_a:8.3f} {cpu - cpu_a:+7.3f} {wall:7.3f} {wall_a:8.3f}")


if __name__ == "__main__":
    main()
