"""Builders for hand-worked engine positions: a tiny card database made in code, the bundled board.

Cards are made with just the fields a test cares about; every test states its own position so a
reader can check the arithmetic by hand against SPEC.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import random
import sys
import tomllib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

import pytest

import sengoku
from sengoku.carddb.board import load_board
from sengoku.carddb.models import CardDatabase
from sengoku.engine import GameState, compile_deck
from sengoku.engine.policies.greedy import GreedyPolicy, GreedySettings
from sengoku.engine.state import MAIN_PHASE
from sengoku.paths import data_dir
from sengoku.validate.api import validate_file

META = {"game": "sengoku-yugi", "name": "engine test cards", "version": "0"}


def char(cid: str, name: str, level: int, cost: int, charge: int, *, kind: str = "main",
         gender: str = "male", weapon: str = "longsword", atk: int = 3, mat: int = 1,
         boost: tuple[tuple[int, ...], tuple[int, ...]] | None = None, rng: tuple[str, ...] = (),
         abilities: tuple[dict[str, Any], ...] = (), epithet: str | None = None) -> dict[str, Any]:
    """Return a Character card as the database stores it."""
    if boost is None:
        n = {1: 0, 2: 0, 3: 1, 4: 2}[level]
        boost = (tuple([2] * n), tuple([1] * n))
    return {
        "id": cid, "name": name, "epithet": epithet or ("Nameless " + name if kind == "nameless" else name),
        "kind": kind, "level": level, "charge_value": charge, "attribute": "fire", "atk": atk, "mat": mat,
        "def": 2, "mdf": 2, "boost": {"physical": list(boost[0]), "magic": list(boost[1])},
        "abilities": list(abilities), "gender": gender, "weapon": weapon, "deployment_cost": cost,
        "range": list(rng),
    }


def fam(cid: str, name: str, level: int, cost: int, charge: int, *, evolves_from: str | None = None,
        egg: bool = False, atk: int = 2, mat: int = 1) -> dict[str, Any]:
    """Return a Familiar card as the database stores it."""
    return {
        "id": cid, "name": name, "epithet": "Familiar Egg" if egg else name, "kind": "familiar",
        "level": level, "charge_value": charge, "attribute": "water", "atk": atk, "mat": mat, "def": 1,
        "mdf": 1, "boost": {"physical": [] if egg else [1], "magic": [] if egg else [1]}, "abilities": [],
        "contract_cost": cost, "evolves_from": evolves_from, "is_egg": egg, "ability_cost": 1, "arrows": [],
    }


def make_db(cards: list[dict[str, Any]]) -> CardDatabase:
    return CardDatabase.model_validate({"meta": META, "cards": cards})


# A small standard deck: Soma climbs 1-4, Oichi 1-3 (female bow), Benkei 1-2 (warhammer), and two
# Nameless (a male longsword like Soma, a female bow like Oichi).
BASIC = [
    char("S1", "Soma", 1, 3, 3), char("S2", "Soma", 2, 4, 2), char("S3", "Soma", 3, 7, 2, atk=7),
    char("S4", "Soma", 4, 9, 1, atk=9),
    char("O1", "Oichi", 1, 3, 3, gender="female", weapon="bow"),
    char("O2", "Oichi", 2, 4, 2, gender="female", weapon="bow"),
    char("O3", "Oichi", 3, 7, 2, gender="female", weapon="bow"),
    char("B1", "Benkei", 1, 2, 2, weapon="warhammer"), char("B2", "Benkei", 2, 5, 3, weapon="warhammer"),
    char("N1", "Ronin", 1, 2, 1, kind="nameless"),
    char("N2", "Miko", 1, 3, 1, kind="nameless", gender="female", weapon="bow"),
]
BASIC_DECK = {
    "main": {"S1": 3, "S2": 3, "S3": 3, "S4": 2, "O1": 3, "O2": 3, "O3": 2, "B1": 3, "B2": 3},
    "nameless": {"N1": 1, "N2": 1},
}


@pytest.fixture(scope="session")
def board():
    return load_board()


@pytest.fixture(scope="session")
def basic(board):
    """The BASIC deck compiled for Standard Mode."""
    return compile_deck(make_db(BASIC), BASIC_DECK, "standard", board=board)


def idx(tables, card_id: str) -> int:
    return tables.index_of(card_id)


def position(tables, *, hand=(), stronghold=None, standby=(), ap=0, turn=1, phase=MAIN_PHASE,
             going_first=True, seed=0) -> GameState:
    """Return a game set up normally, then with the given zones (card ids) and phase (a hand-worked position)."""
    s = GameState(tables, random.Random(seed), going_first=going_first)
    s.hand = [idx(tables, c) for c in hand]
    if stronghold is not None:
        s.stronghold = [idx(tables, c) for c in stronghold]
    s.standby = [idx(tables, c) for c in standby]
    s.ap = ap
    s.turn = turn
    s.phase = phase
    return s


def ally_at(state: GameState, space: int):
    return state.occupant[space]


def space(state: GameState, row: int, col: int) -> int:
    return state.t.board.space(row, col)


__all__ = ["ally_at", "char", "fam", "idx", "make_db", "position", "space"]


def bundled_sections(db: CardDatabase, name: str) -> tuple[dict[str, dict[str, int]], str]:
    """Resolve a bundled decklist by (name, level) to card ids (lowest id wins), for engine tests.

    The validator owns real resolution; this keeps the engine tests independent of it.
    """
    data = tomllib.loads((data_dir("decklists") / name).read_text(encoding="utf-8"))
    out: dict[str, dict[str, int]] = {}
    for section in ("main", "nameless", "familiars"):
        for e in data.get(section, []):
            cands = sorted(
                (c for c in db.cards if c.name == e["name"] and e.get("level", c.level) == c.level
                 and (c.kind == "nameless") == (section == "nameless")
                 and (c.kind == "familiar") == (section == "familiars")),
                key=lambda c: c.id)
            assert cands, e
            sec = out.setdefault(section, {})
            sec[cands[0].id] = sec.get(cands[0].id, 0) + e.get("count", 1)
    return out, data.get("mode", "standard")

def play_out(s: GameState, policy, turns: int = 8) -> GameState:
    """Play the rest of the game from a position in the Charge Phase."""
    policy.charge_phase(s)
    s.end_charge_phase()
    policy.main_phase(s)
    s.end_turn()
    while s.won_turn is None and s.turn < turns:
        s.begin_turn()
        policy.charge_phase(s)
        s.end_charge_phase()
        policy.main_phase(s)
        s.end_turn()
    return s


def kill_turn(s: GameState, policy, turns: int = 12) -> int:
    """Play the rest of the game from a position in the Charge Phase; its kill turn, or turns + 1 if not won."""
    won = play_out(s, policy, turns).won_turn
    return turns + 1 if won is None else won


def suite_tables(deck: str):
    """A suite deck (decklists/suite/), validated and compiled for the engine."""
    result = validate_file(Path(__file__).resolve().parents[2] / "decklists" / "suite" / f"{deck}.toml")
    assert result.valid
    return compile_deck(sengoku.load_card_db(), result.sections, result.mode)


def suite_state(deck: str, seed: int, going_first: bool, defends: bool = False) -> GameState:
    """Turn 1 of a suite deck (decklists/suite/) set up from `seed`, at the start of the Charge Phase."""
    s = GameState(suite_tables(deck), random.Random(seed), going_first, opponent_defends=defends)
    s.begin_turn()
    return s


def with_hand(s: GameState, ids: list[str]) -> None:
    """Give the hand these cards (by id), trading them with the Stronghold's (no card made or lost)."""
    t = s.t
    s.stronghold += s.hand
    s.hand = []
    for cid in ids:
        c = t.index_of(cid)
        s.stronghold.remove(c)
        s.hand.append(c)


def suite_hand(deck: str, card_ids: tuple[str, ...], going_first: bool) -> GameState:
    """Turn 1 of a suite deck (decklists/suite/) with these cards in hand, the rest in the
    Stronghold (set up from seed 0), at the start of the Charge Phase."""
    s = GameState(suite_tables(deck), random.Random(0), going_first)
    with_hand(s, list(card_ids))
    s.begin_turn()
    return s


BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@contextmanager
def benchmark_script(name: str) -> Iterator[Any]:
    """Import a script of benchmarks/ (they import each other by name) for a test module's fixture."""
    sys.path.insert(0, str(BENCHMARKS))
    try:
        yield importlib.import_module(name)
    finally:
        sys.path.remove(str(BENCHMARKS))


@contextmanager
def fit_script(name: str) -> Iterator[Any]:
    """`benchmark_script` for a script that fits weights with numpy (the optional fit extra): skipped
    without numpy, failed instead when CI requires it (SENGOKU_REQUIRE_FIT=1, so that a numpy that failed
    to install fails here instead of skipping)."""
    try:
        import numpy  # noqa: F401
    except ImportError:
        if os.environ.get("SENGOKU_REQUIRE_FIT") == "1":
            pytest.fail("SENGOKU_REQUIRE_FIT=1 but numpy is not installed (pip install 'sengoku[fit]')")
        pytest.skip("numpy is not installed (the optional fit extra)")
    with benchmark_script(name) as script:
        yield script


def load_module(path: Path) -> Any:
    """Import the Python file at `path` (a module of weights a fit script wrote) under a name of its own."""
    spec = importlib.util.spec_from_file_location("fitted", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# Greedy's script alone, without the look-ahead that chooses its first turns' first steps: the hand-worked
# positions check the script's rules (the look-ahead has tests of its own, test_lookahead.py).
SCRIPT = GreedySettings(lookahead_turns=0)


def greedy_with(**changes: Any) -> Callable[[], GreedyPolicy]:
    """A maker of greedy's script (`SCRIPT`) with these settings changed (checked: an unknown name fails)."""
    return partial(GreedyPolicy, GreedySettings.from_mapping(changes, SCRIPT))
