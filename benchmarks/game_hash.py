"""Fingerprint the games: one sha256 per policy and setting over every game of the suite and bundled decks.

    python benchmarks/game_hash.py [--deals 1000] [--policies greedy,develop:300,random:100,search:3]
        [--turns 12] [--seed 0] [--per-deck]

For each policy, each setting (going first or second, the opponent passive or defending, as in
benchmarks/policy_bench.py) and each deck of decklists/suite/ and the bundled decks
(decklists/default.toml, decklists/ultimate.toml), runs 0..deals-1 are played through the
library's own run path (`goldfish.api.plan_of` and `goldfish.play.simulate.play_runs`, as
`sengoku goldfish` plays them), and every game's kill turn, Commander, opening hand, per-turn
measures, first Level 3 and 4 turns and skipped abilities go into the digest. `NAME:N` plays
policy NAME on N deals only (the search is slow).

It prints a digest per policy and setting as each finishes, then per policy and the total: a
refactor that keeps every game the same prints the same digests before and after, and so do
the compiled and the pure-Python engine (the first line says which one runs). `--per-deck` also
prints each deck's digest, to find which deck a change touched.
"""

from __future__ import annotations

import argparse
import hashlib
import time
from pathlib import Path

from policy_bench import SETTINGS

ROOT = Path(__file__).resolve().parents[1]


def decks() -> list[Path]:
    """The suite's decks, then the bundled Standard and Ultimate decks."""
    return sorted((ROOT / "decklists" / "suite").glob("*.toml")) + [ROOT / "decklists" / "default.toml",
                                                                     ROOT / "decklists" / "ultimate.toml"]


def game_key(game) -> bytes:
    """What a game produced, as bytes the compiled and the pure engine write alike."""
    skipped = game.skipped_abilities
    if not isinstance(skipped, int):  # per ability, as a mapping
        skipped = sorted(dict(skipped).items())
    return repr((game.won_turn, game.commander, tuple(game.opening_hand), [tuple(row) for row in game.turns],
                 game.first_level3, game.first_level4, skipped)).encode()


def hash_games(path: Path, setting: str, policy: str, deals: int, turns: int, seed: int) -> bytes:
    """The sha256 digest of runs 0..deals-1 of one deck, setting and policy."""
    from sengoku.goldfish.api import plan_of
    from sengoku.goldfish.options import PlayOptions
    from sengoku.goldfish.play.simulate import play_runs

    going_first, defends = SETTINGS[setting]
    options = PlayOptions(turns=turns, seed=seed, going="first" if going_first else "second",
                          opponent_defends=defends, policy=policy)
    digest = hashlib.sha256()
    for game in play_runs(plan_of(path, None, options), 0, deals):
        digest.update(game_key(game))
    return digest.digest()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000, help="runs per deck, setting and policy")
    parser.add_argument("--policies", default="greedy,develop:300,random:100,search:3",
                        help="comma-separated policy names, NAME:N to play N deals only (default: %(default)s)")
    parser.add_argument("--turns", type=int, default=12, help="turns a game may last")
    parser.add_argument("--seed", type=int, default=0, help="the master seed (run i as `goldfish --seed` plays it)")
    parser.add_argument("--per-deck", action="store_true", help="also print each deck's digest")
    args = parser.parse_args(argv)

    import sengoku

    print(f"sengoku {sengoku.__version__}, rules engine {sengoku.engine_build()}; seed {args.seed}, "
          f"up to {args.turns} turns", flush=True)
    total = hashlib.sha256()
    for entry in args.policies.split(","):
        name, _, n = entry.partition(":")
        deals = int(n) if n else args.deals
        per_policy = hashlib.sha256()
        began = time.perf_counter()
        for setting in SETTINGS:
            per_setting = hashlib.sha256()
            for path in decks():
                digest = hash_games(path, setting, name, deals, args.turns, args.seed)
                per_setting.update(digest)
                if args.per_deck:
                    print(f"  {name} {setting} {path.stem}: {digest.hex()[:16]}", flush=True)
            print(f"{name:>7} {setting:<15} {deals:>5} deals x {len(decks())} decks: {per_setting.hexdigest()}",
                  flush=True)
            per_policy.update(per_setting.digest())
        print(f"{name:>7} every setting: {per_policy.hexdigest()}  ({time.perf_counter() - began:.0f} s)", flush=True)
        total.update(name.encode() + b":" + str(deals).encode() + per_policy.digest())
    print(f"total: {total.hexdigest()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
