"""The rows a settings benchmark plays greedy on: a deck set's decks in the four settings, and the fit-set guard.

A row is a deck of a set (`sengoku.generate.deckset`, built into a folder) in one setting (going
first or second, against a passive or a defending opponent: policy_bench.SETTINGS). Each row's
plan is made once (`goldfish.api.plan_of`: validated and compiled as `sengoku goldfish` does) and
its deals are played by the library's own run path (`goldfish.play.simulate.play_runs`), deal i
from run i's seeds, so two settings records meet the same deals: their kill turns pair up deal by
deal (common random numbers). A game not won within the turns counts as turns + 1.

`fit_only` refuses a set that shares a deck or a generated card database with the test set
(`benchmarks/decksets/test.toml`): what chooses a setting or fits a rule never grades it (SPEC G6).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from policy_bench import SETTINGS, in_processes  # noqa: E402  (the benchmarks' own helpers)

ROOT = Path(__file__).resolve().parents[1]
FIT_SET = ROOT / "benchmarks" / "decksets" / "fit.toml"
TEST_SET = ROOT / "benchmarks" / "decksets" / "test.toml"
_PLANS: dict[tuple[str, str], Any] = {}  # (deck, setting) -> its Plan, made before the workers fork
_TURNS = [12]


def build_set(manifest: Path, folder: Path | str):
    """Read a deck set's manifest and build it into `folder`; return (manifest, built set)."""
    from sengoku.errors import DataError
    from sengoku.generate.deckset import build_deckset, load_deckset

    try:
        deckset = load_deckset(manifest)
        return deckset, build_deckset(deckset, folder)
    except DataError as exc:  # a manifest that is not there, or not a deck set: its message names file and key
        print(exc, file=sys.stderr)
        raise SystemExit(2) from None


def overlap(built, test_built) -> list[str]:
    """What a set shares with the test set: its decks (by deck hash) and generated card databases (by hash)."""
    test_decks = {d.deck_hash: d.name for d in test_built.decks}
    shared = [f"deck {d.name} (the test set's {test_decks[d.deck_hash]})" for d in built.decks
              if d.deck_hash in test_decks]
    bundled = test_built.database_hashes.get("bundled")
    test_dbs = {h: n for n, h in test_built.database_hashes.items() if h != bundled}
    shared += [f"card database {n} (the test set's {test_dbs[h]})" for n, h in built.database_hashes.items()
               if h in test_dbs]
    return shared


def fit_only(built, folder: Path | str) -> None:
    """Stop (exit 2, saying what) when `built` shares a deck or a generated card database with the test set."""
    _, test_built = build_set(TEST_SET, Path(folder) / "test-set")
    shared = overlap(built, test_built)
    if shared:
        print(f"a setting is chosen on the fit set only, and this set shares with the test set: {'; '.join(shared)}",
              file=sys.stderr)
        raise SystemExit(2)


def make_rows(built, settings: list[str], turns: int, seed: int, decks: list[str] | None = None) -> list[tuple[str, str]]:
    """Make the plan of every row (deck x setting) of a built set; return the rows, in order."""
    from sengoku.goldfish.api import plan_of
    from sengoku.goldfish.options import PlayOptions

    _TURNS[0] = turns
    rows = []
    for d in built.decks:
        if decks and d.name not in decks:
            continue
        for setting in settings:
            going_first, defends = SETTINGS[setting]
            options = PlayOptions(turns=turns, seed=seed, going="first" if going_first else "second",
                                  opponent_defends=defends)
            _PLANS[(d.name, setting)] = plan_of(d.decklist, d.db, options)
            rows.append((d.name, setting))
    return rows


def play(task: tuple) -> tuple[tuple, list[int]]:
    """Play deals start..stop-1 of one row with greedy under a settings record; return the task and kill turns."""
    from sengoku.engine.policies.greedy import GreedyPolicy
    from sengoku.goldfish.play.simulate import play_runs

    row, settings, start, stop = task
    turns = _TURNS[0]
    games = play_runs(_PLANS[row], start, stop, policy=GreedyPolicy(settings))
    return task, [turns + 1 if g.won_turn is None else g.won_turn for g in games]


def play_all(tasks: list[tuple], jobs: int):
    """Yield (task, kill turns) for each (row, settings, start, stop) task, in order, in `jobs` processes."""
    yield from in_processes(play, tasks, jobs)
