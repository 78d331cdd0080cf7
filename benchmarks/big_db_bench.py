"""`validate`, `db check` and `cards` against big card databases, beside the floor of parsing the file.

    python benchmarks/big_db_bench.py [--cards 5000 20000 100000] [--runs 3] [--only validate ...]

Run it with the Python of the install to time: the `sengoku` beside that Python is timed.
Writes the databases with make_big_db.py into a temporary folder; for each size prints the
median CPU and wall seconds of fresh processes, run in turn:
  floor           `python -c "json.load(open(cards.json))"`: reading and parsing the file, nothing else;
  validate cold   one deck (the bundled default) against it, nothing remembered (SENGOKU_NO_CACHE=1);
  validate first  the same with an empty cache folder: the cold run, noting the bytes it read;
  validate index  a second reading of the same bytes (its pass remembered): it writes the database's
                  index (`sengoku.carddb.stored`), every run anew (the index is deleted before each);
  validate warm   the same, after two runs: the checked-files memory (`sengoku.pass_cache`) and the
                  database's index: only the deck's cards are read;
  validate 95     the same deck against the bundled 95-card sample set, warm: what a run costs
                  whatever the database's size (start-up, the deck, the rules), beside `validate warm`;
  db check        the whole folder, always checked;
and, after the table of each size, what of `validate warm` is the database's part: opening the index
and validating the deck, timed inside one process after its imports (best of 5 fresh processes).
  cards QUERY     `sengoku cards Soma --db ...`, the table of matching cards.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from make_big_db import write_db
from proc_time import medians, run_once

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, nargs="+", default=[5000, 20000, 100000], help="database sizes")
    parser.add_argument("--runs", type=int, default=3, help="counted runs of each command (default 3)")
    parser.add_argument("--only", nargs="+", metavar="WORD",
                        help="time only the commands whose name has one of these words (the floor always)")
    args = parser.parse_args()
    exe = str(Path(sys.executable).with_name("sengoku"))
    deck = str(ROOT / "decklists" / "default.toml")
    print(f"median of {args.runs} fresh processes each, run in turn; {sys.version.split()[0]}")
    print(f"  {'cards':>7} {'command':<16} {'cpu s':>7} {'wall s':>7} {'cpu / floor':>12}")
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.cards:
            folder = Path(tmp) / f"cards-{n}"
            cards_file = write_db(folder, n)
            cache = str(Path(tmp) / f"cache-{n}")
            first_cache = str(Path(tmp) / f"first-{n}")
            index_cache = str(Path(tmp) / f"index-{n}")
            commands = {
                "floor": [sys.executable, "-c", "import json, sys; json.load(open(sys.argv[1], encoding='utf-8'))",
                          str(cards_file)],
                "validate cold": [exe, "validate", deck, "--db", str(folder)],
                "validate first": ["sh", "-c", 'rm -rf "$1" && exec "$2" validate "$3" --db "$4"', "sh",
                                   first_cache, exe, deck, str(folder)],
                "validate index": ["sh", "-c", 'rm -f "$1"/cards/*.sqlite && exec "$2" validate "$3" --db "$4"',
                                   "sh", index_cache, exe, deck, str(folder)],
                "validate warm": [exe, "validate", deck, "--db", str(folder)],
                "validate 95": [exe, "validate", deck],
                "db check": [exe, "db", "check", str(folder)],
                "cards QUERY": [exe, "cards", "Soma", "--db", str(folder)],
            }
            env = {"validate cold": {"SENGOKU_NO_CACHE": "1"}, "validate first": {"SENGOKU_CACHE_DIR": first_cache},
                   "validate index": {"SENGOKU_CACHE_DIR": index_cache},
                   "validate warm": {"SENGOKU_CACHE_DIR": cache}, "validate 95": {"SENGOKU_CACHE_DIR": cache},
                   "cards QUERY": {"SENGOKU_CACHE_DIR": cache}}
            for name in ("validate index", "validate warm", "validate warm", "validate 95"):
                run_once(commands[name], env[name])  # remember the pass; then the index
            if args.only:
                commands = {name: cmd for name, cmd in commands.items()
                            if name == "floor" or any(word in name for word in args.only)}
            found = medians(commands, args.runs, env, warmup=0)
            floor = found["floor"][0]
            for name, (cpu, wall) in found.items():
                print(f"  {n:>7} {name:<16} {cpu:7.2f} {wall:7.2f} {cpu / floor:11.2f}x")
            if "validate warm" in found:
                inside = min(_in_process(folder, deck, cache) for _ in range(5))
                print(f"  {n:>7} warm, in-process: opening the index + validating the deck {inside:.3f} s CPU")


_IN_PROCESS = """
import sys, time
from sengoku.validate.api import Validator
start = time.process_time()
Validator(sys.argv[1]).validate_file(sys.argv[2])
print(time.process_time() - start)
"""


def _in_process(folder: Path, deck: str, cache: str) -> float:
    """Return the CPU seconds of loading the catalog and validating `deck`, after the imports."""
    out = subprocess.run([sys.executable, "-c", _IN_PROCESS, str(folder), deck], capture_output=True, text=True,
                         env={**os.environ, "SENGOKU_CACHE_DIR": cache}, check=True)
    return float(out.stdout)


if __name__ == "__main__":
    main()
