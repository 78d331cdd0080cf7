"""Compiled deck tables travel to other processes (tune's pool, a Dask cluster) by pickle.

CI runs this folder on the compiled wheel too: a compiled class whose unpickling fails (mypyc calls
its `__init__` with no argument first) broke `sengoku tune --jobs 2` there while the pure build passed.
"""

from __future__ import annotations

import pickle

import sengoku
from sengoku.engine import GameRunner, compile_deck, make_policy
from sengoku.engine.chance import Chance, seed_run

from .conftest import bundled_sections


def _kill_turns(tables, runs: int = 200) -> list[int | None]:
    chance = Chance()
    runner = GameRunner(tables, make_policy("greedy"), chance, 8, True)
    out = []
    for i in range(runs):
        seed_run(chance, 0, i)
        out.append(runner.play().won_turn)
    return out


def test_deck_tables_survive_pickling_and_play_the_same_games() -> None:
    db = sengoku.load_card_db()
    for deck in ("default.toml", "ultimate.toml"):
        sections, mode = bundled_sections(db, deck)
        tables = compile_deck(db, sections, mode)
        again = pickle.loads(pickle.dumps(tables))
        assert again.stronghold_lanes.keys() == tables.stronghold_lanes.keys()
        for i, lanes in tables.stronghold_lanes.items():
            assert again.stronghold_lanes[i].codes == lanes.codes
        runs = 200 if deck == "default.toml" else 60  # (in Ultimate mode greedy looks ahead going first)
        assert _kill_turns(again, runs) == _kill_turns(tables, runs)
