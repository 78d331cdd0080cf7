"""Benchmark the policies' play: mean kill turn (G5) on the bundled decks, every policy on the same deals.

    .venv/bin/python benchmarks/killturn_bench.py [--games 1000] [--search-games 100] [--turns 12]
        [--going first|second] [--policy NAME ...] [--seed 0]

Game i of every policy is run i of `sengoku goldfish --seed SEED`, played through the library's
own run path (`goldfish.api.plan_of`, `goldfish.play.simulate.play_runs`), so the policies meet
the same opening hands and draws as far as their choices let the draws coincide. A game not won
within `--turns` counts as turn turns + 1 in the mean (shown with ">" when that happens). The
`search` policy is slow (a look-ahead), so it plays fewer games: compare it with the others on
its own first games (the "same deals" column).
"""

from __future__ import annotations

import argparse
import time


def plan(file: str, turns: int, going: str, seed: int, defends: bool):
    """The plan of one bundled decklist's games (validated and compiled as `goldfish` does)."""
    from sengoku.goldfish.api import plan_of
    from sengoku.goldfish.options import PlayOptions
    from sengoku.paths import data_dir

    options = PlayOptions(turns=turns, seed=seed, going=going, opponent_defends=defends)
    return plan_of(data_dir("decklists") / file, None, options)


def kill_turns(deck_plan, policy: str, games: int) -> list[int | None]:
    """Play runs 0..games-1 of the plan with `policy`; return each game's kill turn (None: not won)."""
    from sengoku.goldfish.play.simulate import play_runs

    return [game.won_turn for game in play_runs(deck_plan.with_options(policy=policy), 0, games)]


def mean(turns: list[int | None], cap: int) -> str:
    """The mean kill turn, a game not won counting as cap + 1 (then shown as a lower bound, '>')."""
    if not turns:
        return "-"
    lost = sum(1 for k in turns if k is None)
    value = sum(cap + 1 if k is None else k for k in turns) / len(turns)
    return f"{'>' if lost else ''}{value:.2f}"


def by_turn(turns: list[int | None], n: int) -> str:
    return f"{sum(1 for k in turns if k is not None and k <= n) / len(turns):.0%}" if turns else "-"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per policy and deck")
    parser.add_argument("--search-games", type=int, default=100, help="games for the slow search policy")
    parser.add_argument("--turns", type=int, default=12, help="turns a game may last")
    parser.add_argument("--going", choices=("first", "second"), default="first")
    parser.add_argument("--policy", action="append", help="policies to compare (default: all but idle)")
    parser.add_argument("--opponent-defends", action="store_true",
                        help="the mirror opponent adds its Commander and self-boosts its Last Guards (G4)")
    parser.add_argument("--seed", type=int, default=0, help="game i is run i of goldfish --seed SEED")
    args = parser.parse_args(argv)

    import sengoku
    from sengoku.engine import POLICIES

    policies = args.policy or [p for p in POLICIES if p != "idle"]
    print(f"sengoku {sengoku.__version__}, rules engine {sengoku.engine_build()}; going {args.going}, "
          f"up to {args.turns} turns, game i is run i of seed {args.seed}"
          + ("; the opponent defends" if args.opponent_defends else ""))
    for file, mode in (("default.toml", "standard"), ("ultimate.toml", "ultimate")):
        deck_plan = plan(file, args.turns, args.going, args.seed, args.opponent_defends)
        print(f"\n{file} ({mode}):")
        print(f"{'policy':>10} {'games':>6} {'mean kill turn':>15} {'same deals':>11} {'by turn 3':>10} "
              f"{'by turn 4':>10} {'by turn 6':>10} {'won':>6} {'seconds':>8}")
        few = min(args.search_games, args.games)
        for name in policies:
            games = few if name == "search" else args.games
            t0 = time.perf_counter()
            ks = kill_turns(deck_plan, name, games)
            took = time.perf_counter() - t0
            print(f"{name:>10} {games:>6} {mean(ks, args.turns):>15} {mean(ks[:few], args.turns):>11} "
                  f"{by_turn(ks, 3):>10} {by_turn(ks, 4):>10} {by_turn(ks, 6):>10} {by_turn(ks, args.turns):>6} "
                  f"{took:>8.1f}")
    print(f"\n'same deals': the mean over the first {args.search_games} games, those search plays.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
