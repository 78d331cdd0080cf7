"""Peak memory of `sengoku tune` as its pool grows: what one look needs, not every candidate at once.

    nice -n 10 .venv/bin/python benchmarks/tune_memory_bench.py [--extra 0 500 2000] [--runs 2]

For each size, a card database of the bundled sample set plus EXTRA renamed copies of its
cards (`make_big_db.py`), and a tune of `decklists/tune/no-level4.toml` against it with the
whole database as its pool, `--jobs 1`, `--check 0`, and a budget of RUNS runs of every
candidate of the first step (the first screening look, cut short by the budget, still plays
every candidate). Each tune is a process of its own; the figures are its peak resident set size
(the operating system's own figure for that process) and its wall time, beside the floor:
`sengoku validate` of the same deck against the same database (loading the cards, checking
the deck), what any command costs with that database.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from make_big_db import big_cards, write_db  # noqa: E402  (sibling scripts, not a package)
from proc_time import peak_rss  # noqa: E402

from sengoku.carddb.load import load_card_db  # noqa: E402
from sengoku.decklist.read import read_decklist  # noqa: E402
from sengoku.tune.candidates import default_pool, legal_candidates  # noqa: E402
from sengoku.tune.deck import Deck  # noqa: E402
from sengoku.validate.api import Validator  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DECK = ROOT / "decklists" / "tune" / "no-level4.toml"
GROUP = 32  # candidates per task (tune.looks.GROUP): the incumbent plays once per group


def candidates(db: Path) -> int:
    """Return how many legal candidates the first step of the tune races."""
    card_db = load_card_db(db)
    deck, _ = read_decklist(DECK)
    validator = Validator(card_db)
    result = validator.validate_deck(deck)
    start = Deck.from_sections(result.sections)
    found, _ = legal_candidates(start, deck, default_pool(card_db, result.mode or "standard"), card_db, validator)
    return len(found)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--extra", type=int, nargs="+", default=[0, 500],
                        help="cards added to the sample set, one database each (default 0 500)")
    parser.add_argument("--runs", type=int, default=2, help="runs of every candidate the budget pays (default 2)")
    args = parser.parse_args()
    sample = len(big_cards(0)["cards"])
    mb = 1024 * 1024
    print(f"{'cards':>6} {'candidates':>10} {'budget':>8} {'floor MB':>9} {'tune MB':>8} {'tune s':>7}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        for extra in args.extra:
            n = sample + extra
            db = write_db(Path(tmp) / f"cards-{n}", n).parent
            count = candidates(db)
            budget = args.runs * (count + -(-count // GROUP))
            floor, _ = peak_rss([sys.executable, "-m", "sengoku", "validate", str(DECK), "--db", str(db)])
            began = time.perf_counter()
            peak, code = peak_rss([sys.executable, "-m", "sengoku", "tune", str(DECK), "--db", str(db), "--budget",
                                   str(budget), "--check", "0", "--jobs", "1"])
            took = time.perf_counter() - began
            assert code == 0, f"tune exited {code}"
            print(f"{n:>6,} {count:>10,} {budget:>8,} {floor / mb:>9.0f} {peak / mb:>8.0f} {took:>7.1f}", flush=True)


if __name__ == "__main__":
    main()
