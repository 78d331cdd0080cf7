"""Re-check each of greedy's hand-made settings on the test set: the setting as it ships against it turned off, paired.

    python benchmarks/recheck_settings.py [--set benchmarks/decksets/test.toml] [--deals 100] [--name NAME ...]
        [--setting S ...] [--deck NAME ...] [--together NAME,NAME,...] [--turns 12] [--seed 0] [--jobs 1]
        [--out recheck.md]

Issue 36 point 4 (SPEC G6): every setting of `greedy` was chosen by measuring it on the suite, so
each is graded again on decks that chose none of them, the test set (`benchmarks/decksets/test.toml`).
For each setting of `GreedySettings`, greedy as it ships and greedy with that one setting turned
off (`off_value`: a flag flipped, a count or a threshold set to 0; a setting already at 0 has no
off value and is skipped) play the same deals, deal i of every row (a deck of the set in a
setting) from run i's seeds (`set_rows`). Per setting it prints, and appends to `--out` as a row of
a Markdown table as soon as it is measured: the paired gap over every deal of every row (off
minus as it ships: positive when the setting wins sooner, so it earns its place), its 95% interval
(Student's t over the deals), the rows whose own interval lies above 0 or below 0, and the verdict:
"earns its place" when the whole interval is above 0, "costs turns" when below, else "not shown".
A game not won within `--turns` counts as turns + 1. Nothing here chooses a setting: a setting
this table finds wanting is a question for the tuner on the fit set (`tune_settings.py`).
`--together A,B,...` measures instead one row: those settings all turned off at once (a removal's
combined effect, on the same deals).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import set_rows  # noqa: E402  (the benchmarks' own helpers)
from policy_bench import SETTINGS, mean_ci  # noqa: E402

HEADER = ("| setting | ships | off | gap: off minus ships (95% interval) | rows above 0 / below 0 | verdict |\n"
          "| --- | --- | --- | --- | --- | --- |\n")


def off_value(value: Any) -> Any:
    """The setting turned off: a flag flipped, a number set to 0 (None: it is 0 already)."""
    if type(value) is bool:
        return not value
    return None if value == 0 else type(value)(0)


def judge_setting(ships: list[list[int]], off: list[list[int]]) -> tuple[float, float, int, int, str]:
    """Given each row's kill turns as it ships and with the setting off: the pooled gap (off minus ships), its
    half-width, the rows whose own interval lies above and below 0, and the verdict."""
    gaps = [b - a for row_a, row_b in zip(ships, off) for a, b in zip(row_a, row_b)]
    gap, half = mean_ci(gaps)
    above = below = 0
    for row_a, row_b in zip(ships, off):
        g, h = mean_ci([b - a for a, b in zip(row_a, row_b)])
        above += g - h > 0
        below += g + h < 0
    said = "earns its place" if gap - half > 0 else "costs turns" if gap + half < 0 else "not shown"
    return gap, half, above, below, said


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", type=Path, default=set_rows.TEST_SET, help="deck set manifest (default: the test set)")
    parser.add_argument("--deals", type=int, default=100, help="deals a row")
    parser.add_argument("--name", action="append", help="only these settings (default: every one)")
    parser.add_argument("--setting", action="append", choices=list(SETTINGS), help="default: all four")
    parser.add_argument("--deck", action="append", help="only these decks of the set")
    parser.add_argument("--together", help="one row instead: these settings (comma-separated) all turned off at once")
    parser.add_argument("--turns", type=int, default=12)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="processes (the result does not depend on it)")
    parser.add_argument("--out", type=Path, default=Path("recheck.md"), help="the table, a row as each is measured")
    args = parser.parse_args(argv)
    if args.deals < 2:
        parser.error("--deals must be at least 2 (an interval needs two deals)")

    import sengoku
    from sengoku.engine.policies.greedy import GreedySettings

    ships = GreedySettings()
    together = [n.strip() for n in args.together.split(",") if n.strip()] if args.together else []
    names = together or args.name or list(GreedySettings.names())
    from sengoku.engine.policies.greedy.settings import REMOVED, removed_setting

    for name in names:
        if name in REMOVED:
            parser.error(removed_setting(name))
    unknown = [n for n in names if n not in GreedySettings.names()]
    if unknown:
        parser.error(f"greedy has no setting {', '.join(unknown)}")
    command = "python benchmarks/recheck_settings.py " + " ".join(sys.argv[1:] if argv is None else argv)
    with tempfile.TemporaryDirectory() as folder:
        manifest, built = set_rows.build_set(args.set, folder)
        rows = set_rows.make_rows(built, args.setting or list(SETTINGS), args.turns, args.seed, args.deck)
        if not rows:
            raise SystemExit(f"no deck {', '.join(args.deck or ())} in {args.set}")
        head = (f"greedy's settings, each as it ships against turned off, on the {manifest.name} set (digest "
                f"{built.digest[:12]}): {len(rows)} rows, {args.deals} deals a row; sengoku {sengoku.__version__}, "
                f"rules engine {sengoku.engine_build()}\n\ncommand: {command.rstrip()}\n\n")
        print(head + HEADER, end="", flush=True)
        with args.out.open("w", encoding="utf-8") as out:
            out.write(head + HEADER)
            out.flush()
            tasks = [(row, ships, 0, args.deals) for row in rows]
            shipped = [kills for _, kills in set_rows.play_all(tasks, args.jobs)]
            groups = [together] if together else [[name] for name in names]
            for group in groups:
                name = ", ".join(group)
                value = ", ".join(str(getattr(ships, n)) for n in group)
                offs = {n: off_value(getattr(ships, n)) for n in group}
                changed = ", ".join(str(v) for v in offs.values())
                if None in offs.values():
                    line = f"| {name} | {value} | (0 already) | | | skipped |\n"
                else:
                    record = GreedySettings.from_mapping(offs)
                    tasks = [(row, record, 0, args.deals) for row in rows]
                    off = [kills for _, kills in set_rows.play_all(tasks, args.jobs)]
                    gap, half, above, below, said = judge_setting(shipped, off)
                    line = (f"| {name} | {value} | {changed} | {gap:+.4f} ({gap - half:+.4f} to {gap + half:+.4f}) "
                            f"| {above} / {below} | {said} |\n")
                print(line, end="", flush=True)
                out.write(line)
                out.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
