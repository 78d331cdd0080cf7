"""Measure one change to the default policy: greedy with a setting changed against greedy as it is, on the same deals.

    .venv/bin/python benchmarks/greedy_ab.py NAME=VALUE [NAME=VALUE ...] [--deals 2000] [--deck NAME ...]
        [--setting S ...] [--turns 12] [--seed 0]

NAME is a setting of the default policy (a field of `GreedySettings`, for example
`deploy_first=False`, `min_hit=0.3`, `contracts=False`); VALUE is a Python literal. Deal i of every deck and setting of the suite
(decklists/suite/, see policy_bench.py) is played by both from the same streams; the paired
gap (changed minus as it is: negative when the change wins sooner) has its 95% interval.
"""

from __future__ import annotations

import argparse
import ast
import sys

from policy_bench import SETTINGS, SUITE, load_deck, mean_ci


def kills(tables, policy, deals: int, turns: int, going_first: bool, defends: bool, seed: int) -> list[int]:
    from sengoku.engine import GameRunner
    from sengoku.goldfish.play.seeds import Chance, seed_run

    chance = Chance()
    runner = GameRunner(tables, policy, chance, turns, going_first, opponent_defends=defends)
    out = []
    for i in range(deals):
        seed_run(chance, seed, i)
        won = runner.play().won_turn
        out.append(turns + 1 if won is None else won)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("change", nargs="+", help="NAME=VALUE: a setting of the default policy")
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--deck", action="append")
    parser.add_argument("--setting", action="append", choices=list(SETTINGS))
    parser.add_argument("--turns", type=int, default=12)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    from sengoku.engine.errors import EngineError
    from sengoku.engine.policies import GreedyPolicy, GreedySettings

    changes = {}
    for item in args.change:
        name, _, value = item.partition("=")
        changes[name] = ast.literal_eval(value)
    try:
        changed = GreedySettings.from_mapping(changes)  # checked once: names and types
    except EngineError as exc:
        raise SystemExit(str(exc)) from None
    decks = args.deck or sorted(p.stem for p in SUITE.glob("*.toml"))
    print(f"greedy with {changes} against greedy, {args.deals} deals; command: python benchmarks/greedy_ab.py "
          + " ".join(sys.argv[1:] if argv is None else argv))
    all_gaps = []
    for deck in decks:
        tables = load_deck(SUITE / f"{deck}.toml")
        for setting in args.setting or list(SETTINGS):
            first, defends = SETTINGS[setting]
            a = kills(tables, GreedyPolicy(), args.deals, args.turns, first, defends, args.seed)
            b = kills(tables, GreedyPolicy(changed), args.deals, args.turns, first, defends, args.seed)
            gaps = [y - x for x, y in zip(a, b)]
            gap, half = mean_ci(gaps)
            all_gaps.append(gap)
            print(f"{deck:20} {setting:14} greedy {sum(a) / len(a):.3f}  changed {sum(b) / len(b):.3f}  "
                  f"gap {gap:+.3f} ± {half:.3f}")
            sys.stdout.flush()
    print(f"mean gap {sum(all_gaps) / len(all_gaps):+.4f} over {len(all_gaps)} rows")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
