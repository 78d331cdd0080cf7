"""Fit the value of a turn's end that the default policy's look-ahead reads (writes turn_weights.py).

    python benchmarks/fit_turn_weights.py [--deals 2000] [--seed 1] [--explore 0.5] [--turns 2]
        [--setting S ...] [--jobs 2] [--out src/sengoku/engine/policies/greedy/turn_weights.py]
        [--set benchmarks/decksets/fit.toml]

Needs numpy (`pip install -e '.[fit]'`). For deals 0..deals-1 of every deck of a deck set (the fit
set by default; a set that shares a deck or a generated card database with the test set is refused,
`set_rows.fit_only`) in each setting (going second with and without a defending opponent by
default), `greedy` without its look-ahead plays the game, but on one of the first `--turns` turns
(or none, each a third of the deals; chosen by the deal's policy seed) it first takes random
distinct legal steps, each with chance `--explore`, before its script plays the turn out: the
positions a look-ahead meets. At the end of that turn's Main Phase (of each of the first turns,
when none explored) the position's `greedy.lookahead.turn_end_features` are noted with the game's
kill turn (turns + 1 when not won), played on by greedy. The value of a turn's end, per turn and
setting, is the least-squares fit of the kill turn on the features; a fifth of each group, the last
deals, is held out first to print how much of the kill turn's variance the fit explains there, then
the fit is made on every position. The result is written as a Python module of weights: the same
arguments give the same file. Deal i is run i of `sengoku goldfish` at `--seed` (1 by default: other
deals than the benchmarks', seed 0).
"""

from __future__ import annotations

import argparse
import random
import tempfile
from pathlib import Path

import set_rows
from policy_bench import SETTINGS

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "src" / "sengoku" / "engine" / "policies" / "greedy" / "turn_weights.py"
FEATURES = ("one", "Stronghold HP left", "Stronghold HP left squared / 10", "Stronghold HP left / (hit rate + 0.5)",
            "hit chances in range", "hit chances a Move from range", "hit chances two Moves from range",
            "hit chances further", "allies", "HP on the board / 5", "cards in hand", "AP / 5", "Ultimate",
            "Ultimate x Stronghold HP left", "an ally out of range in the Command Zone",
            "the defender's Commander yet to join", "allies in range")
_EXPLORE = [0.5, 2]  # (chance of a random step, turns explored): set in the parent before the workers fork


def explorer():
    """A greedy (no look-ahead) that explores one of the first turns and notes each game's positions."""
    from sengoku.engine.policies.greedy import GreedyPolicy, GreedySettings
    from sengoku.engine.policies.greedy.lookahead import steps, turn_end_features

    chance, turns = _EXPLORE

    class Explorer(GreedyPolicy):
        def __init__(self) -> None:
            super().__init__(GreedySettings(lookahead_turns=0))
            self.games: list[list[tuple[int, list[float]]]] = []
            self.rng = random.Random(0)
            self.explored = 0

        def charge_phase(self, state) -> None:
            if state.turn == 1:  # a new game: its exploring turn from its own policy seed (never the game's streams)
                self.rng = random.Random(state.chance.policy ^ 0x7E57)
                self.explored = self.rng.randrange(turns + 1)
                self.games.append([])
            GreedyPolicy.charge_phase(self, state)

        def main_phase(self, state) -> None:
            turn = state.turn
            if turn == self.explored and state.won_turn is None:
                self._prepare_for(state)
                while state.won_turn is None and self.rng.random() < chance:
                    options = steps(state)
                    if not options:
                        break
                    state.apply(self.rng.choice(options))
            if state.won_turn is None:
                GreedyPolicy.main_phase(self, state)
            if turn <= turns and self.explored in (0, turn) and state.won_turn is None:
                self._prepare_for(state)
                self.games[-1].append((turn, turn_end_features(self.known, state)))

    return Explorer()


def positions(task: tuple) -> list[tuple[str, int, list[float], int]]:
    """Deals start..stop-1 of one row, explored: (setting, turn, features, kill turn) per noted position."""
    from sengoku.goldfish.play.simulate import play_runs

    row, start, stop = task
    player = explorer()
    games = list(play_runs(set_rows._PLANS[row], start, stop, policy=player))
    limit = set_rows._TURNS[0] + 1
    out = []
    for noted, game in zip(player.games, games):
        kill = limit if game.won_turn is None else game.won_turn
        out += [(row[1], turn, x, kill) for turn, x in noted]
    return out


def fit(noted: list[tuple[str, int, list[float], int]], settings: list[str], turns: int) -> dict[int, list[float]]:
    """Per group (`lookahead.group`'s index), the least-squares weights; prints each group's held-out fit."""
    import numpy as np

    weights: dict[int, list[float]] = {}
    for turn in range(1, turns + 1):
        for setting in settings:
            first, defends = SETTINGS[setting]
            rows = [(x, k) for s, t, x, k in noted if s == setting and t == turn]
            if len(rows) < 5 * len(FEATURES):
                raise SystemExit(f"turn {turn}, {setting}: {len(rows)} positions, too few to fit; give more --deals")
            xs = np.array([x for x, _ in rows])
            ys = np.array([k for _, k in rows], dtype=float)
            cut = len(ys) * 4 // 5
            w, *_ = np.linalg.lstsq(xs[:cut], ys[:cut], rcond=None)
            held = ys[cut:]
            r2 = 1.0 - float(((held - xs[cut:] @ w) ** 2).mean()) / float(held.var())
            w, *_ = np.linalg.lstsq(xs, ys, rcond=None)
            group = (turn - 1) * 4 + (2 if first else 0) + (1 if defends else 0)
            weights[group] = [round(float(v), 6) for v in w]
            print(f"turn {turn}, {setting}: {len(ys)} positions, mean kill turn {ys.mean():.3f}, "
                  f"held-out R^2 {r2:.3f}")
    return weights


def module(weights: dict[int, list[float]], turns: int, command: str, count: int) -> str:
    """The text of turn_weights.py."""
    rows = []
    for group in range(turns * 4):
        w = weights.get(group)
        rows.append(f"    ({', '.join(repr(v) for v in w)},)," if w else "    (),")
    return f'''"""The default policy's value of a turn's end, read by its look-ahead (`greedy.lookahead.turn_value`).

Written by `{command}` ({count:,} positions); do not edit by hand.
A position at the end of turn t's Main Phase is valued x . WEIGHTS[(t - 1) * 4 + 2 * going first +
defending opponent], x its features in the order of FEATURES (`greedy.lookahead.turn_end_features`):
the kill turn expected when greedy plays on (lower wins sooner). An empty entry: no rule fitted there,
and no look-ahead on that turn and setting.
"""

from typing import Final

FEATURES: Final = {FEATURES!r}

TURNS: Final = {turns}

WEIGHTS: Final[tuple[tuple[float, ...], ...]] = (
{chr(10).join(rows)}
)
'''


def command_of(args: argparse.Namespace) -> str:
    """The command that writes these weights (what changes them: not --out, not --jobs)."""
    words = ["python benchmarks/fit_turn_weights.py", f"--deals {args.deals}", f"--seed {args.seed}"]
    if args.explore != 0.5:
        words.append(f"--explore {args.explore}")
    if args.turns != 2:
        words.append(f"--turns {args.turns}")
    words += [f"--setting {s}" for s in args.setting or ()]
    if args.set.resolve() != set_rows.FIT_SET:
        words.append(f"--set {args.set.as_posix()}")
    return " ".join(words)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--explore", type=float, default=0.5, help="chance of each random step on the explored turn")
    parser.add_argument("--turns", type=int, default=2, help="the first turns a rule is fitted for")
    parser.add_argument("--setting", action="append", choices=list(SETTINGS))
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--set", type=Path, default=set_rows.FIT_SET)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    if not 0.0 <= args.explore < 1.0 or args.turns < 1 or args.deals < 1:
        parser.error("--explore is a chance below 1, --turns and --deals at least 1")
    settings = args.setting or ["second", "second-defends"]
    _EXPLORE[:] = [args.explore, args.turns]
    noted: list = []
    with tempfile.TemporaryDirectory() as folder:
        _, built = set_rows.build_set(args.set, folder)
        set_rows.fit_only(built, folder)
        rows = set_rows.make_rows(built, settings, 12, args.seed)
        chunk = 250
        tasks = [(row, start, min(start + chunk, args.deals)) for row in rows for start in range(0, args.deals, chunk)]
        for out in set_rows.in_processes(positions, tasks, args.jobs):
            noted += out
    print(f"{len(noted):,} positions from {len(rows)} rows of {args.deals} deals")
    weights = fit(noted, settings, args.turns)
    text = module(weights, args.turns, command_of(args), len(noted))
    tmp = args.out.with_suffix(".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(args.out)
    print(f"written {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
