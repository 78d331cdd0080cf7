"""Every deck of a tune meets the opponent the tune names (G4): the --opponent deck, else the start deck, for the
incumbent and every candidate, at every step.

The candidates are compiled where they play, from the incumbent's base (`tune.build`); the
opponent travels in that base's plan. This checks the plans the workers build, not the client's.
"""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

from sengoku.carddb.playable import load_models
from sengoku.goldfish.api import prepare_engine, read_deck
from sengoku.goldfish.options import PlayOptions
from sengoku.tune import build
from sengoku.tune.tuner import Tuner

ROOT = Path(__file__).resolve().parents[2]
WEAKENED = ROOT / "decklists" / "tune" / "no-level4.toml"
DEFAULT = ROOT / "decklists" / "default.toml"


def _compiled(path: Path) -> bytes:
    """The deck's tables as goldfish compiles them (no opponent: nothing paired)."""
    deck, syntax = read_deck(path)
    return pickle.dumps(prepare_engine(deck, syntax, load_models(None), PlayOptions.given(None)).plan.tables)


def _opponents(tuner: Tuner) -> list[Any]:
    """The opponent of the incumbent and of a few candidates of each kind, as a worker builds their plans."""
    incumbent = tuner.incumbent_of(tuner.incumbent)
    candidates, _ = tuner.candidates()
    chosen = candidates[:2] + candidates[len(candidates) // 2:][:2] + candidates[-2:]  # swaps, adds, removes
    group, base = tuner._group(incumbent, [(c.change.section, c.change.out, c.change.into) for c in chosen])
    return [pickle.dumps(plan.opponent) for plan in build.built_group(base, group).plans]


def test_every_deck_meets_the_opponent_deck_at_every_step(level4_pool: Path) -> None:
    opponent, start = _compiled(DEFAULT), _compiled(WEAKENED)
    assert opponent != start
    tuner = Tuner(WEAKENED, pool=level4_pool, opponent=DEFAULT, budget=1)
    assert set(_opponents(tuner)) == {opponent}
    tuner.incumbent = tuner.candidates()[0][0].deck  # a later step: the incumbent changed
    assert set(_opponents(tuner)) == {opponent}


def test_without_an_opponent_every_deck_meets_the_start_deck_at_every_step(level4_pool: Path) -> None:
    start = _compiled(WEAKENED)
    tuner = Tuner(WEAKENED, pool=level4_pool, budget=1)
    assert set(_opponents(tuner)) == {start}
    tuner.incumbent = tuner.candidates()[0][0].deck  # not the changed deck: the start deck still
    assert set(_opponents(tuner)) == {start}
