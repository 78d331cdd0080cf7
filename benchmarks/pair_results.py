"""Pair two versions' kill turns in a results file of policy_bench.py, deal by deal: what a version changed.

    python benchmarks/pair_results.py RESULTS --before 0.13.0 --after 0.14.0 [--policy greedy ...] [--deck NAME ...]

RESULTS is the file `policy_bench.py --results` writes, one line a chunk of deals: a file that each
version wrote into in turn (the same command run with each version installed: a line names its
version, and a version plays only the chunks it has not written) holds both versions' games of
the same deals. For each policy (default: every one in the file), the chunks of the two versions
with the same deck, setting, turns, seed and deals are paired deal by deal; it prints the mean of
`after - before` (negative: the later version wins sooner), with its 95% interval, per setting and
over every paired deal, and how many deals were paired. With `--deck` only those decks' chunks are
paired (a deck named as the results file names it, e.g. `gen-1001/ultimate-1`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from policy_bench import mean_ci, read_results


def paired(results: dict, before: str, after: str, policy: str,
           decks: set[str] | None = None) -> dict[str, list[int]]:
    """Per setting, `after - before` of each deal of `policy` that both versions played (of the decks
    whose hashes are `decks`, when given)."""
    out: dict[str, list[int]] = {}
    for key, (kills, _) in sorted(results.items()):
        deck_hash, setting, who, version, turns, seed, start, stop = key
        if who != policy or version != after or decks is not None and deck_hash not in decks:
            continue
        old = results.get((deck_hash, setting, who, before, turns, seed, start, stop))
        if old is not None:
            out.setdefault(setting, []).extend(b - a for a, b in zip(old[0], kills))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", type=Path, help="a results file of policy_bench.py --results")
    parser.add_argument("--before", required=True, help="the earlier version (as `sengoku --version` names it)")
    parser.add_argument("--after", required=True, help="the later version")
    parser.add_argument("--policy", action="append", help="default: every policy in the file")
    parser.add_argument("--deck", action="append", help="only this deck, as the file names it (repeat for several; "
                        "default: every deck)")
    args = parser.parse_args(argv)
    if not args.results.is_file():
        print(f"{args.results}: no such file", file=sys.stderr)
        return 2
    names: dict[str, set[str]] = {}
    results = read_results(args.results, names)
    decks = None
    if args.deck:
        unknown = [d for d in args.deck if d not in names]
        if unknown:
            print(f"{args.results}: no deck {', '.join(unknown)} (the file has: {', '.join(sorted(names))})",
                  file=sys.stderr)
            return 2
        decks = set().union(*(names[d] for d in args.deck))
    policies = args.policy or sorted({key[2] for key in results})
    found = False
    for policy in policies:
        by_setting = paired(results, args.before, args.after, policy, decks)
        every = [d for deals in by_setting.values() for d in deals]
        if not every:
            print(f"{policy}: no deal played by both {args.before} and {args.after}")
            continue
        found = True
        for setting, deals in by_setting.items():
            mean, half = mean_ci(deals)
            print(f"{policy} {setting}: {args.after} - {args.before} {mean:+.4f} ± {half:.4f} ({len(deals)} deals)")
        mean, half = mean_ci(every)
        print(f"{policy} every setting: {args.after} - {args.before} {mean:+.4f} ± {half:.4f} ({len(every)} deals)")
    return 0 if found else 1


if __name__ == "__main__":
    raise SystemExit(main())
