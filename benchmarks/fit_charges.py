"""Fit the default policy's turn-1 Charge Phase rule to the search's rollouts (writes charge_weights.py).

    python benchmarks/fit_charges.py [--seed 1 --seed 2] [--deals 600] [--rollouts 24] [--jobs 2]
        [--out src/sengoku/engine/policies/greedy/charge_weights.py] [--positions FILE] [--set MANIFEST]

Needs numpy (`pip install -e '.[fit]'`). For deals 0..deals-1 of every suite deck
(decklists/suite/; with `--set`, every deck of a deck set, which must share no deck and no generated
card database with the test set: `benchmarks/refit.py` refits both rules on the fit set) and setting (going first or second, with and without a defending opponent),
at each `--seed`, it sets up the game and, at our first Charge Phase, scores every distinct set
of the cards the plan keeps (`greedy.charges.charge_features`) that could be sent as extra cards
for AP Charge (T2a): each set is played to the end of the game by `greedy` on `--rollouts` copies
(`SearchPolicy`'s rollouts, from the policy's own stream, the same copies for every set; played
by greedy as it plays, the turn-1 Focus rule `fitted_focus` with its committed weights too). The model: a set's mean kill turn, minus sending none, is the sum of its
cards' values plus a term for its size; a card's value is linear in its features, each weight with a part of its own going
second and in Ultimate mode; the size term has parts for going second, Ultimate mode, a
defending opponent and the AP. Least squares over every set of every hand. The result is
written as a Python module of weights; the same arguments give the same file (the deals, the
rollouts' seeds and the fit are all fixed). `--positions FILE` keeps the scored hands as JSON.
The committed weights come from the fit set (`python benchmarks/refit.py --only charges --seed 1 --deals 50
--jobs 2`: 8,000 hands, about 12 minutes on two busy cores compiled).
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from pathlib import Path

from policy_bench import SETTINGS, SUITE, in_processes

DECKS: dict[str, tuple[Path, Path | None]] = {}  # with --set: deck name -> (decklist, card database folder)

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "src" / "sengoku" / "engine" / "policies" / "greedy" / "charge_weights.py"
SIZES = 7  # the size term's levels: 1, 2, ... 6, and 7 or more
CARD_FEATURES = ("one", "level 1", "level 2", "level 3", "level 4", "charge value", "cost / 5", "support",
                 "nameless", "can grow or focus now", "copies of its name in hand (at most 2)",
                 "the Commander's name", "lowest level of its name in hand", "affordable this turn",
                 "a new name to deploy now", "the turn's AP / 10", "cards kept / 5")


def scorer(without: tuple[str, ...]):
    """A `SearchPolicy` class that plays `greedy`'s turn, for a fit script to override one hook of
    and score a choice there; it and its rollouts' `greedy` play without the rules `without`
    (settings set to False: the rules fitted after the weights being fitted)."""
    from sengoku.engine.policies.greedy import GreedyPolicy, GreedySettings
    from sengoku.engine.policies.search import SearchPolicy

    off = GreedySettings.from_mapping(dict.fromkeys(without, False))

    class Scorer(SearchPolicy):
        def __init__(self) -> None:
            super().__init__(off)  # (its rollouts' greedy too)

        def charge_phase(self, state) -> None:
            GreedyPolicy.charge_phase(self, state)

        def main_phase(self, state) -> None:
            GreedyPolicy.main_phase(self, state)
    return Scorer


def play_turn_1(deck: str, setting: str, policy, start: int, stop: int, seed: int) -> None:
    """Play turn 1 of deals start..stop-1 of one deck (of the suite, or of --set) and setting with `policy`, deal i
    as run i of `sengoku goldfish --seed SEED`, through the library's run path (`plan_of`, `play_runs`);
    `policy.deal` is i meanwhile."""
    from sengoku.goldfish.api import plan_of
    from sengoku.goldfish.options import PlayOptions
    from sengoku.goldfish.play.simulate import play_runs

    going_first, defends = SETTINGS[setting]
    path, db = DECKS.get(deck, (SUITE / f"{deck}.toml", None))  # a --set deck, else a suite deck
    options = PlayOptions(turns=1, seed=seed, going="first" if going_first else "second", opponent_defends=defends)
    games = play_runs(plan_of(path, db, options), start, stop, policy=policy)
    for i in range(start, stop):
        policy.deal = i
        next(games)  # plays deal i


def score_hands(task: tuple[str, str, int, int, int, int]) -> list[dict]:
    """Deals start..stop-1 of one deck and setting: each first Charge Phase's kept cards, and every
    distinct set of them sent, scored by `rollouts` shared copies."""
    from sengoku.engine.policies.develop import DevelopPolicy
    from sengoku.engine.policies.greedy.charges import charge_features

    deck, setting, start, stop, seed, rollouts = task
    out: list[dict] = []

    class Scorer(scorer(())):  # greedy as it plays, the turn-1 Focus rule too
        def charge_phase(self, state) -> None:
            self._prepare_for(state)
            hand = list(state.hand)
            base, ap = DevelopPolicy._plan_charges(self, state)
            kept = charge_features(state, base, ap)
            sets, seen = [], set()
            for r in range(len(kept) + 1):
                for combo in itertools.combinations([p for p, _ in kept], r):
                    key = tuple(sorted(hand[p] for p in combo))  # two copies of a card are one choice
                    if key not in seen:
                        seen.add(key)
                        sets.append(combo)
            seeds = [state.policy_rng.getrandbits(64) for _ in range(rollouts)]
            scores = [self._score(state, (tuple(sorted(base + list(s))), -1), seeds, True) for s in sets]
            out.append({"deck": deck, "setting": setting, "second": not state.going_first,
                        "ultimate": state.t.ultimate, "defends": state.opp_defends, "ap": ap,
                        "kept": [[p, x] for p, x in kept], "sets": [list(s) for s in sets], "scores": scores})

        def main_phase(self, state) -> None:  # one Charge Phase a deal is all that is scored
            pass

    play_turn_1(deck, setting, Scorer(), start, stop, seed)
    return out


def size_row(h: dict, k: int) -> list[float]:
    one = [0.0] * SIZES
    one[min(k, SIZES) - 1] = 1.0
    row = list(one)
    for factor in (float(h["second"]), float(h["ultimate"]), float(h["defends"]), h["ap"] / 10):
        row += [factor * v for v in one]
    return row


def fit(hands: list[dict]):
    """Least squares: every non-empty set's score minus the empty set's (see the module's doc)."""
    import numpy as np

    n = len(CARD_FEATURES)
    rows, target = [], []
    for h in hands:
        features = {p: x for p, x in h["kept"]}
        factors = (1.0, float(h["second"]), float(h["ultimate"]))
        for s, score in zip(h["sets"][1:], h["scores"][1:]):
            row = [0.0] * (3 * n)
            for p in s:
                for j, f in enumerate(factors):
                    for i, v in enumerate(features[p]):
                        row[j * n + i] += f * v
            rows.append(row + size_row(h, len(s)))
            target.append(score - h["scores"][0])
    w, *_ = np.linalg.lstsq(np.array(rows), np.array(target), rcond=None)
    w = [round(float(v), 6) + 0.0 for v in w]
    card = tuple(tuple(w[j * n:(j + 1) * n]) for j in range(3))
    size = tuple(tuple(w[3 * n + j * SIZES:3 * n + (j + 1) * SIZES]) for j in range(5))
    return card, size, len(rows)


def render(card, size, hands: int, sets: int, command: str) -> str:
    def block(rows) -> str:
        return "(\n" + "".join(f"    {tuple(r)!r},\n" for r in rows) + ")"

    return f'''"""The default policy's turn-1 Charge Phase rule: weights fitted to the search's rollouts.

Written by `{command}` ({hands:,} turn-1 hands, {sets:,} sets of cards
sent); do not edit by hand. Used by `greedy.charges.charge_fitted` (`fitted_charges`).

A card the plan keeps is valued x . (CARD[0] + second * CARD[1] + ultimate * CARD[2]), with x its
features in the order of CARD_FEATURES (`greedy.charges.charge_features`); sending k of them adds
SIZE[0][k-1] + second * SIZE[1][k-1] + ultimate * SIZE[2][k-1] + defends * SIZE[3][k-1]
+ AP/10 * SIZE[4][k-1] (k of 7 or more: the last). Values are in turns: lower wins sooner.
"""

from typing import Final

CARD_FEATURES: Final = {CARD_FEATURES!r}

CARD: Final[tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]]] = {block(card)}

SIZE: Final[tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...], tuple[float, ...], tuple[float, ...]]] = {block(size)}
'''


def common_parser(doc: str, out: Path, deals: int, rollouts: int) -> argparse.ArgumentParser:
    """The options every fit script takes (this one and fit_focus.py)."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--seed", type=int, action="append")
    parser.add_argument("--deals", type=int, default=deals)
    parser.add_argument("--rollouts", type=int, default=rollouts)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--deck", action="append", help="only these decks (for a quick look; not for the committed weights)")
    parser.add_argument("--out", type=Path, default=out)
    parser.add_argument("--set", type=Path, metavar="MANIFEST",
                        help="the decks of a deck set (e.g. benchmarks/decksets/fit.toml) instead of the suite's")
    return parser


def score_all(work, args: argparse.Namespace, part: int) -> list[dict]:
    """Run `work` over every seed, suite deck, setting and `part` deals, in order (the same data for any --jobs)."""
    decks = args.deck or (list(DECKS) if args.set else sorted(p.stem for p in SUITE.glob("*.toml")))
    unknown = [d for d in decks if args.set and d not in DECKS]
    if unknown:
        raise SystemExit(f"no deck {', '.join(unknown)} in {args.set}")
    tasks = [(d, s, lo, min(args.deals, lo + part), seed, args.rollouts)
             for seed in args.seed for d in decks for s in SETTINGS for lo in range(0, args.deals, part)]
    scored: list[dict] = []
    for k, done in enumerate(in_processes(work, tasks, args.jobs), 1):
        scored += done
        print(f"\r{k}/{len(tasks)} parts scored", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return scored


def command_line(script: str, args: argparse.Namespace) -> str:
    """The command that writes the same weights, as the generated module names it."""
    return f"python benchmarks/{script} " + " ".join(f"--seed {s}" for s in args.seed) + \
        f" --deals {args.deals} --rollouts {args.rollouts}" + "".join(f" --deck {d}" for d in args.deck or []) + \
        (f" --set {shown_path(args.set)}" if args.set else "")


def shown_path(path: Path) -> str:
    """`path` as the generated module names it: relative to the checkout when inside it (refit.py passes
    an absolute path), so the same command writes the same file from any folder."""
    try:
        return path.resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return path.as_posix()


def fit_main(argv: list[str] | None, doc: str, out: Path, deals: int, rollouts: int, part: int,
             keep: tuple[str, str], work, write) -> int:
    """The command line of every fit script: its options and `keep` (an option that also writes the
    scored data as JSON, and its help), the data scored by `work` in parts of `part` deals, then
    `write(data, args)`, which fits and writes the weights and returns the line to print."""
    parser = common_parser(doc, out, deals, rollouts)
    parser.add_argument(keep[0], type=Path, dest="keep", metavar="FILE", help=keep[1])
    args = parser.parse_args(argv)
    args.seed = args.seed or [1, 2]
    if args.set:
        import tempfile

        import set_rows

        with tempfile.TemporaryDirectory() as folder:  # the set's decklists and databases, for this run
            _, built = set_rows.build_set(args.set, Path(folder) / "set")
            set_rows.fit_only(built, folder)  # a rule is fitted on decks the policy table never reports
            DECKS.update((d.name, (d.decklist, d.db)) for d in built.decks)
            data = score_all(work, args, part)
    else:
        data = score_all(work, args, part)
    if args.keep:
        args.keep.write_text(json.dumps(data), encoding="utf-8")
    print(write(data, args))
    return 0


def main(argv: list[str] | None = None) -> int:
    def write(hands: list[dict], args: argparse.Namespace) -> str:
        card, size, sets = fit(hands)
        args.out.write_text(render(card, size, len(hands), sets, command_line("fit_charges.py", args)), encoding="utf-8")
        return f"{len(hands)} hands, {sets} sets: weights written to {args.out}"

    return fit_main(argv, __doc__, OUT, 600, 24, 100, ("--positions", "also write the scored hands here (JSON)"),
                    score_hands, write)


if __name__ == "__main__":
    raise SystemExit(main())
