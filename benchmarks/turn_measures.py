"""Where in the game the default policy loses time to `search`: both policies' per-turn measures on the same deals.

    python benchmarks/turn_measures.py [--set benchmarks/decksets/fit.toml] [--deck NAME ...] [--setting S ...]
        [--deals 30] [--turns 12] [--seed 0] [--jobs 1] [--upto 3]

Plays deals 0..deals-1 of each deck and setting with `greedy` and with `search` (policy_bench.py's deal loop:
deal i is run i of `sengoku goldfish`, the same streams for both, so the two games of a deal pair up), and
prints per setting both policies' mean kill turn and, for each of the first `--upto` turns, the mean of
each per-turn measure the engine records (`sengoku.engine.game.MEASURES`: AP, allies, HP, attacks, Stronghold
hits, allies lost...) over the deals whose games both reached that turn, then the Stronghold hits summed up
to the end of each turn over every deal (a game won earlier counts what it had). A game not won within
`--turns` counts as turns + 1. Without `--set` the decks are the suite's (decklists/suite/); with it, a deck
set's, each with its own card database (look for rules on the fit set, fit.toml, never on the test set).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import policy_bench
from policy_bench import SETTINGS, SUITE, deals, in_processes

# The measures printed per turn (the rest are in MEASURES too), in the engine's words.
SHOWN = ("attacks", "stronghold_hits", "allies_lost", "allies", "hp_total", "ap_charge_cards", "ap_spent",
         "ap_end", "hand")


def play(task: tuple[str, str, str, int, int, int]) -> tuple[str, str, str, list[tuple[int, list[tuple[int, ...]]]]]:
    """Play deals 0..deals-1 of one deck and setting with one policy: (kill turn, per-turn measures) each."""
    deck, setting, policy, n, turns, seed = task
    return deck, setting, policy, [(turns + 1 if r.won_turn is None else r.won_turn, list(r.turns))
                                   for _, r in deals(deck, setting, policy, 0, n, turns, seed)]


def summary(games: dict[str, list[tuple[int, list[tuple[int, ...]]]]], upto: int) -> list[str]:
    """The lines for one setting: kill turns, per-turn means (greedy / search), hits to the end of each turn."""
    from sengoku.engine.game import MEASURES

    g, s = games["greedy"], games["search"]
    n = len(g)
    out = [f"{n} deals: greedy {sum(k for k, _ in g) / n:.3f}, search {sum(k for k, _ in s) / n:.3f}, "
           f"gap {(sum(k for k, _ in g) - sum(k for k, _ in s)) / n:+.3f} turns"]
    for turn in range(1, upto + 1):
        both = [(a[turn - 1], b[turn - 1]) for (_, a), (_, b) in zip(g, s) if len(a) >= turn and len(b) >= turn]
        if not both:
            break
        cells = []
        for name in SHOWN:
            j = MEASURES.index(name)
            cells.append(f"{name} {sum(a[j] for a, _ in both) / len(both):.2f}/{sum(b[j] for _, b in both) / len(both):.2f}")
        out.append(f"  turn {turn} ({len(both)} deals), greedy/search: " + ", ".join(cells))
    j = MEASURES.index("stronghold_hits")
    for turn in range(1, upto + 1):
        hits = [sum(sum(m[j] for m in measures[:turn]) for _, measures in games[p]) / n for p in ("greedy", "search")]
        out.append(f"  Stronghold hits by the end of turn {turn}: greedy {hits[0]:.2f}, search {hits[1]:.2f}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", type=Path, metavar="MANIFEST", help="a deck set's decks instead of the suite's")
    parser.add_argument("--deck", action="append", help="deck names (default: every deck of the suite or the set)")
    parser.add_argument("--setting", action="append", choices=list(SETTINGS), help="default: all four")
    parser.add_argument("--deals", type=int, default=30, help="deals per deck and setting")
    parser.add_argument("--turns", type=int, default=12)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="processes (the result does not depend on it)")
    parser.add_argument("--upto", type=int, default=3, help="turns shown")
    args = parser.parse_args(argv)
    print(f"command: python benchmarks/turn_measures.py {' '.join(sys.argv[1:] if argv is None else argv)}")
    if args.set is None:
        return run(args, args.deck or sorted(p.stem for p in SUITE.glob("*.toml")))
    with tempfile.TemporaryDirectory() as folder:  # the set's databases and decklists, for this run
        return run(args, policy_bench.register_set(args.set, args.deck, folder))


def run(args: argparse.Namespace, decks: list[str]) -> int:
    settings = args.setting or list(SETTINGS)
    tasks = [(d, s, p, args.deals, args.turns, args.seed) for s in settings for d in decks for p in ("greedy", "search")]
    played: dict[str, dict[str, list]] = {s: {"greedy": [], "search": []} for s in settings}
    for deck, setting, policy, games in in_processes(play, tasks, args.jobs):
        played[setting][policy] += games
    for setting in settings:
        print(f"\n{setting}, {len(decks)} decks: " + "\n".join(summary(played[setting], args.upto)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
