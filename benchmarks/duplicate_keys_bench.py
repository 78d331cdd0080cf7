"""What refusing duplicate JSON keys costs: parsing a big card database with and without the check.

    python benchmarks/duplicate_keys_bench.py [--cards 100000] [--runs 5]

Writes a database with make_big_db.py into a temporary folder, then parses its text in this
process, in turn: `loads_json(..., unique_keys=False)` (what a database whose bytes passed
before gets), `loads_json(...)` (every other load: a key given twice in one object is an error),
and the walk that finds a duplicate's line (`duplicate_keys`, run only when there is one).
Prints the median CPU seconds of each (process time: other programs on the machine count less).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from make_big_db import write_db

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from sengoku.files import duplicate_keys, loads_json  # noqa: E402


def _cpu(fn, runs: int) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(runs):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        text = write_db(Path(tmp) / "db", args.cards).read_text(encoding="utf-8")
    print(f"{args.cards} cards, {len(text) / 1e6:.0f} MB of JSON; median CPU s of {args.runs} runs")
    plain = _cpu(lambda: loads_json(text, "cards.json", unique_keys=False), args.runs)
    unique = _cpu(lambda: loads_json(text, "cards.json"), args.runs)
    walk = _cpu(lambda: duplicate_keys(text), max(1, args.runs // 2))
    print(f"  parse, no check        {plain:.2f}")
    print(f"  parse, duplicate keys  {unique:.2f}  ({unique / plain:.2f}x)")
    print(f"  walk for the line      {walk:.2f}")


if __name__ == "__main__":
    main()
