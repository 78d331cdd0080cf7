"""Measure one change to the default policy: greedy with a setting changed against greedy as it is, on the same deals.

    .venv/bin/python benchmarks/greedy_ab.py NAME=VALUE [NAME=VALUE ...] [--deals 2000] [--deck NAME ...]
        [--setting S ...] [--turns 12] [--seed 0] [--jobs 1] [--set benchmarks/decksets/fit.toml]

NAME is a setting of the default policy (a field of `GreedySettings`, for example
`hp_charge=True`, `fitted_margin=0.0`, `contracts=False`), checked by that record (an unknown or a
removed setting: exit 2, naming it); VALUE is a Python literal. Both play through the library's
own run path (`goldfish()` with a `PolicySpec`), so deal i of every deck and setting of the suite
(decklists/suite/, see policy_bench.py) is run i of `sengoku goldfish`, from the same streams; the paired
gap (changed minus as it is: negative when the change wins sooner) has its 95% interval.

With `--set MANIFEST` the rows are a deck set's decks instead (`set_rows`: each deck with its own card
database, deal i of a row from run i's seeds), a deck named as the set names it (`--deck
gen-2001/low-curve-101`); a set that shares a deck or a generated card database with the test set is
refused (`set_rows.fit_only`: a change is looked for on the fit set, never on the test set). It then
also prints the pooled gap of each setting over the set's decks.

Two builds of the engine (a change to the fitted rules' weights or to a rule's code, which no
setting names) are compared the same way on a deck set: `--save FILE` writes greedy's kill turns of
every row as this build plays them (JSON, with the rows, deals, seed, turns and sengoku's version),
and `--builds FILE`, run with the other build's Python, pairs this build's greedy (the changed one)
with the kill turns saved there, deal by deal; no NAME=VALUE is given then:

    old/bin/python benchmarks/greedy_ab.py --set benchmarks/decksets/fit.toml --deals 1000 --save before.json
    new/bin/python benchmarks/greedy_ab.py --set benchmarks/decksets/fit.toml --deals 1000 --builds before.json
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
import tempfile
from pathlib import Path

from policy_bench import SETTINGS, SUITE, mean_ci


def kills(deck: str, policy, deals: int, turns: int, going_first: bool, defends: bool, seed: int,
          jobs: int = 1) -> list[int]:
    """Each deal's kill turn (turns + 1: not won), played by the library's own run path (`goldfish()`)."""
    import sengoku
    from sengoku.goldfish.options import PlayOptions

    options = PlayOptions(turns=turns, seed=seed, going="first" if going_first else "second", policy=policy,
                          opponent_defends=defends, jobs=jobs)
    result = sengoku.goldfish(SUITE / f"{deck}.toml", runs=deals, options=options, kill_turns=True)
    return [turns + 1 if k == 0 else k for k in result.run_kill_turns]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("change", nargs="*", help="NAME=VALUE: a setting of greedy")
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--deck", action="append")
    parser.add_argument("--setting", action="append", choices=list(SETTINGS))
    parser.add_argument("--turns", type=int, default=12)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="processes (the result does not depend on it)")
    parser.add_argument("--set", type=Path, metavar="MANIFEST",
                        help="a deck set's decks (the fit set, benchmarks/decksets/fit.toml) instead of the suite's")
    parser.add_argument("--save", type=Path, metavar="FILE",
                        help="with --set: write greedy's kill turns of every row as this build plays them")
    parser.add_argument("--builds", type=Path, metavar="FILE",
                        help="with --set: this build's greedy against the kill turns another build saved (--save)")
    args = parser.parse_args(argv)
    if (args.save or args.builds) and (args.set is None or args.change or (args.save and args.builds)):
        parser.error("--save or --builds goes with --set and no NAME=VALUE, one of them at a time")
    if not (args.change or args.save or args.builds):
        parser.error("give NAME=VALUE (a setting of greedy), or with --set --save FILE or --builds FILE")
    if args.save or args.builds:
        return by_builds(args)

    from sengoku.goldfish.errors import GoldfishError
    from sengoku.goldfish.options import PolicySpec

    changes = {}
    for item in args.change:
        name, _, value = item.partition("=")
        try:
            changes[name] = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            parser.error(f"{item}: {value!r} is not a Python literal")
    try:
        changed = PolicySpec("greedy", changes)  # checked by greedy's own settings
    except GoldfishError as exc:
        parser.error(str(exc))
    print(f"{changed} against greedy, {args.deals} deals; command: python benchmarks/greedy_ab.py "
          + " ".join(sys.argv[1:] if argv is None else argv))
    if args.set is not None:
        return on_set(args, changes)
    decks = args.deck or sorted(p.stem for p in SUITE.glob("*.toml"))
    all_gaps = []
    for deck in decks:
        for setting in args.setting or list(SETTINGS):
            first, defends = SETTINGS[setting]
            a = kills(deck, PolicySpec("greedy"), args.deals, args.turns, first, defends, args.seed, args.jobs)
            b = kills(deck, changed, args.deals, args.turns, first, defends, args.seed, args.jobs)
            gaps = [y - x for x, y in zip(a, b)]
            gap, half = mean_ci(gaps)
            all_gaps.append(gap)
            print(f"{deck:20} {setting:14} greedy {sum(a) / len(a):.3f}  changed {sum(b) / len(b):.3f}  "
                  f"gap {gap:+.3f} ± {half:.3f}")
            sys.stdout.flush()
    print(f"mean gap {sum(all_gaps) / len(all_gaps):+.4f} over {len(all_gaps)} rows")
    return 0


def set_kills(args: argparse.Namespace, records: list) -> tuple[list[tuple[str, str]], list[list[int]]]:
    """The deck set's rows (`--set`, `--deck`, `--setting`) and, per record and row in that order,
    greedy's kill turns of deals 0..deals-1 (the fit-set guard first)."""
    import set_rows

    with tempfile.TemporaryDirectory() as folder:
        _, built = set_rows.build_set(args.set, folder)
        set_rows.fit_only(built, folder)
        unknown = [d for d in args.deck or () if d not in {b.name for b in built.decks}]
        if unknown:
            raise SystemExit(f"no deck {', '.join(unknown)} in {args.set}")
        rows = set_rows.make_rows(built, args.setting or list(SETTINGS), args.turns, args.seed, args.deck)
        tasks = [(row, record, 0, args.deals) for record in records for row in rows]
        return rows, [k for _, k in set_rows.play_all(tasks, args.jobs)]


def by_builds(args: argparse.Namespace) -> int:
    """`--save`: write this build's kill turns of every row; `--builds`: pair them with another build's."""
    import sengoku
    from sengoku.engine.policies.greedy.settings import GreedySettings

    what = {"set": args.set.as_posix(), "deals": args.deals, "seed": args.seed, "turns": args.turns}
    if args.builds:
        try:
            saved = json.loads(args.builds.read_text(encoding="utf-8"))
            before = {(r["deck"], r["setting"]): r["kills"] for r in saved["rows"]}
            if {k: saved[k] for k in what} != what:
                raise SystemExit(f"{args.builds} holds other deals: {({k: saved[k] for k in what})}, not {what}")
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise SystemExit(f"{args.builds}: not a file greedy_ab.py --save wrote ({exc})") from None
    rows, played = set_kills(args, [GreedySettings()])
    if args.save:
        text = json.dumps({"version": sengoku.__version__, **what,
                           "rows": [{"deck": d, "setting": s, "kills": k} for (d, s), k in zip(rows, played)]})
        args.save.write_text(text, encoding="utf-8")
        print(f"{len(rows)} rows of {args.deals} deals written to {args.save} (sengoku {sengoku.__version__})")
        return 0
    missing = [f"{d} {s}" for d, s in rows if (d, s) not in before]
    if missing:
        raise SystemExit(f"{args.builds} holds no row {', '.join(missing)}")
    print(f"sengoku {sengoku.__version__} (changed) against sengoku {saved['version']} ({args.builds})")
    report(rows, [before[row] for row in rows] + played, args.setting or list(SETTINGS))
    return 0


def report(rows: list[tuple[str, str]], played: list[list[int]], settings: list[str]) -> None:
    """Print each row's gap (the second half of `played` minus the first, deal by deal), then pooled per setting."""
    all_gaps, pooled = [], {s: [] for s in settings}
    for i, (deck, setting) in enumerate(rows):
        a, b = played[i], played[len(rows) + i]
        gaps = [y - x for x, y in zip(a, b)]
        gap, half = mean_ci(gaps)
        all_gaps.append(gap)
        pooled[setting] += gaps
        print(f"{deck:28} {setting:14} greedy {sum(a) / len(a):.3f}  changed {sum(b) / len(b):.3f}  "
              f"gap {gap:+.3f} ± {half:.3f}")
    for setting, gaps in pooled.items():
        gap, half = mean_ci(gaps)
        print(f"{setting}: pooled gap {gap:+.4f} ± {half:.4f} ({len(gaps)} deals)")
    every = [g for gaps in pooled.values() for g in gaps]
    gap, half = mean_ci(every)
    print(f"every row: pooled gap {gap:+.4f} ± {half:.4f} ({len(every)} deals)")
    print(f"mean gap {sum(all_gaps) / len(all_gaps):+.4f} over {len(all_gaps)} rows")


def on_set(args: argparse.Namespace, changes: dict) -> int:
    """The comparison on a deck set's rows (`--set`): per row, then pooled per setting and over every row."""
    from sengoku.engine.policies.greedy.settings import GreedySettings

    rows, played = set_kills(args, [GreedySettings(), GreedySettings.from_mapping(changes)])
    report(rows, played, args.setting or list(SETTINGS))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
