"""Benchmark `sengoku validate`: 1,000 decklists in one run, against the floor of parsing them.

    .venv/bin/python benchmarks/validate_bench.py [--decks 1000] [--seed 1]

Writes N decklists (Standard and Ultimate, mostly legal, some breaking rules) built from the
bundled sample card set into a temporary folder, then times, in alternating rounds (best of each reported):
  floor     reading each file and parsing it with `tomllib` (nothing else);
  validate  `validate_paths` on the folder: the same reading and parsing, plus finding each
            entry's line, resolving cards and checking every rule. The card database and rule
            file are loaded once per run; that one-off cost is reported separately.
It also times `sengoku --help` (start-up must stay under 0.3 s).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def make_decks(folder: Path, n: int, seed: int) -> list[Path]:
    """Write n decklists in the canonical [[section]] style; return their paths."""
    rng = random.Random(seed)
    cards = json.loads((ROOT / "card_db" / "sengoku" / "cards.json").read_text(encoding="utf-8"))["cards"]
    chars = [c for c in cards if c["kind"] in ("main", "support")]
    by_name: dict[tuple[str, int], list[dict]] = {}
    for c in chars:
        by_name.setdefault((c["name"], c["level"]), []).append(c)
    nameless = [c for c in cards if c["kind"] == "nameless"]
    familiars = [c for c in cards if c["kind"] == "familiar"]
    paths = []
    for i in range(n):
        ultimate = rng.random() < 0.4
        lines = [f'name = "Bench deck {i}"', f'mode = "{"ultimate" if ultimate else "standard"}"', ""]
        total = 0
        keys = list(by_name)
        rng.shuffle(keys)
        target = rng.randint(48, 61)  # mostly legal sizes, some off by one or two
        for name, level in keys:
            if total >= target:
                break
            group = by_name[(name, level)]
            count = min(rng.randint(1, 3), target - total)
            lines += ["[[main]]", f'name = "{name}"', f"level = {level}"]
            if len(group) > 1:
                lines.append(f'epithet = "{group[0]["epithet"]}"')
            lines += [f"count = {count}", ""]
            total += count
        for c in rng.sample(nameless, 2):
            lines += ["[[nameless]]", f'name = "{c["name"]}"', ""]
        if ultimate:
            for c in rng.sample(familiars, rng.randint(9, 16)):
                lines += ["[[familiars]]", f'id = "{c["id"]}"', ""]
        path = folder / f"deck{i:04d}.toml"
        path.write_text("\n".join(lines), encoding="utf-8")
        paths.append(path)
    return paths


def floor(paths: list[Path]) -> float:
    start = time.perf_counter()
    for p in paths:
        tomllib.loads(p.read_bytes().decode("utf-8"))
    return time.perf_counter() - start


def validate(folder: Path) -> tuple[float, float, int]:
    """Return (seconds for the whole run, of which one-off set-up, files failing)."""
    from sengoku.validate.api import Validator, expand_paths
    from sengoku.carddb.catalog import _load_catalog
    from sengoku.validate.rules import _load_rules

    _load_catalog.cache_clear()  # a fresh run each round: the DB and rules are loaded again
    _load_rules.cache_clear()
    start = time.perf_counter()
    validator = Validator()
    validator.checker("sengoku-yugi")
    setup = time.perf_counter() - start
    files = expand_paths([folder])
    results = [validator.validate_file(f.path) for f in files]
    return time.perf_counter() - start, setup, sum(not r.valid for r in results)


def help_startup(rounds: int = 5) -> float:
    exe = Path(sys.executable).parent / "sengoku"
    cmd = [str(exe), "--help"] if exe.exists() else [sys.executable, "-m", "sengoku", "--help"]
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        subprocess.run(cmd, capture_output=True, check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=int, default=1000, help="how many decklists to generate (default 1000)")
    parser.add_argument("--seed", type=int, default=1, help="random seed for the generated decks")
    parser.add_argument("--rounds", type=int, default=5, help="timing rounds (default 5); the best is reported")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        paths = make_decks(folder, args.decks, args.seed)
        # Rounds alternate floor and validate so that load from other processes hits both alike.
        floors, runs = [], []
        for _ in range(args.rounds):
            floors.append(floor(paths))
            runs.append(validate(folder))
    n = args.decks
    floor_s = min(floors)
    total_s, setup_s, failing = min(runs)
    checking = total_s - setup_s
    ratios = sorted((t - s) / f for f, (t, s, _) in zip(floors, runs))
    print(f"{n} decklists ({failing} with errors), {args.rounds} alternating rounds, best times shown")
    print(f"  floor (read + tomllib)     {floor_s:7.3f} s  {n / floor_s:8.0f} decks/s")
    print(f"  validate, per-deck work    {checking:7.3f} s  {n / checking:8.0f} decks/s  "
          f"{checking / floor_s:4.2f}x the floor (median of rounds {statistics.median(ratios):4.2f}x)")
    print(f"  validate, whole run        {total_s:7.3f} s  {n / total_s:8.0f} decks/s  "
          f"{total_s / floor_s:4.2f}x the floor (incl. {setup_s:.3f} s loading the card DB + rules once)")
    print(f"  sengoku --help start-up    {help_startup():7.3f} s  (median of 5; aim < 0.3 s)")


if __name__ == "__main__":
    main()
