"""The default policy's walks on bit masks (`greedy.walks`) against a breadth-first search over lists.

The reference below is the search greedy ran before its walks became masks: a queue of spaces
in the order they are found, each space remembering the one it was found from. Both must give
the same walk (the same spaces, not only as many) on any board, or greedy's games change.
"""

from __future__ import annotations

import json
import random

import pytest

import sengoku
from sengoku.engine import compile_deck
from sengoku.engine.ally import Ally
from sengoku.engine.board import COMMAND_ZONE, compile_geometry
from sengoku.engine.policies.greedy.known import Known, mask
from sengoku.engine.policies.greedy.settings import GreedySettings
from sengoku.engine.policies.greedy.walks import free_mask, walk_length, walk_path
from sengoku.paths import data_dir
from sengoku.validate.api import validate_file


@pytest.fixture(scope="module")
def known():
    result = validate_file(data_dir("decklists") / "default.toml")
    assert result.valid
    t = compile_deck(sengoku.load_card_db(), result.sections, result.mode)
    k = Known(GreedySettings())
    k.prepare_deck(t)
    return k, t.board


def reference_walk(board, start: int, goals, occ, budget: int) -> list[int]:
    """The shortest walk from `start` (a space, or the Command Zone) through empty spaces to the
    first of `goals` found, within `budget` Moves: a queue over lists, each space's origin kept."""
    came = {}
    frontier = []
    for s in board.perimeter if start == COMMAND_ZONE else board.neighbours[start]:
        if occ[s] is None:
            came[s] = None
            frontier.append(s)
    steps = 1
    while frontier and steps <= budget:
        for goal in goals:
            if goal in came:
                path = [goal]
                while came[path[-1]] is not None:
                    path.append(came[path[-1]])
                return path[::-1]
        nxt = []
        for s in frontier:
            for d in board.neighbours[s]:
                if d not in came and occ[d] is None:
                    came[d] = s
                    nxt.append(d)
        frontier = nxt
        steps += 1
    return []


def board_with(board, ally_space: int, taken) -> tuple[Ally, list]:
    occ = [None] * board.n_spaces
    for s in taken:
        occ[s] = Ally(0, 1, s, 0)
    a = Ally(0, 1, ally_space, 0)
    if ally_space >= 0:
        occ[ally_space] = a
    return a, occ


@pytest.mark.parametrize("start, taken, goals, walk", [
    # the default board: rows 0-2, space 5 is (1, 1), 12 is (2, 3); the shortest walks of 3 Moves
    # from 5 to 12 go through (2, 1) first, whose first neighbour on the way is (2, 2)
    (5, (), (12,), [10, 11, 12]),
    (5, (11,), (12,), [6, 7, 12]),  # (2, 2) taken: through (1, 2) and (1, 3)
    (5, (11, 7), (12,), []),  # no way through
    (COMMAND_ZONE, (), (12,), [7, 12]),  # onto the Perimeter at (1, 3), then one Move
    (COMMAND_ZONE, (), (3, 12), [2, 3]),  # two goals two Moves away: the first listed
])
def test_hand_worked_walks(known, start, taken, goals, walk):
    k, board = known
    a, occ = board_with(board, start, taken)
    free = free_mask(occ)
    assert walk_path(k, board, a, goals, mask(goals), free, 9) == walk
    assert walk_length(k, a, mask(goals), free, 9) == len(walk)
    assert walk_path(k, board, a, goals, mask(goals), free, len(walk) - 1) == []  # over budget
    assert walk_length(k, a, mask(goals), free, len(walk) - 1) == 0


def big_board():
    """A board of the schema's largest size: 12 columns, 8 rows a side, the whole opponent's half
    open but its Stronghold (190 spaces: sets far beyond a machine word, looked up a byte at a time)."""
    data = json.loads((data_dir("card_db") / "sengoku" / "board.json").read_text())
    data.update(columns=12, rows=["backline"] + ["frontline"] * 7, stronghold={"row": 0, "column": 6},
                invasion_zone={"enemy_rows": list(range(8))},
                stronghold_perimeter=[{"row": 0, "column": 5}, {"row": 0, "column": 7}, {"row": 1, "column": 5},
                                      {"row": 1, "column": 6}, {"row": 1, "column": 7}])
    board = compile_geometry(data)
    k = Known(GreedySettings())
    k.prepare_board(board)
    return k, board


@pytest.mark.parametrize("board_of", ["default", "big"])
def test_the_same_walks_as_a_search_over_lists(known, board_of):
    k, board = known if board_of == "default" else big_board()
    rng = random.Random(36)
    n = board.n_spaces
    found = 0
    for _ in range(4000):
        start = rng.choice([COMMAND_ZONE, *range(n)])
        taken = rng.sample(range(n), rng.randint(0, n // 2))
        a, occ = board_with(board, start, [s for s in taken if s != start])
        goals = tuple(rng.sample(range(n), rng.randint(1, 4)))
        budget = rng.randint(0, 8 if n < 20 else 30)
        want = reference_walk(board, start, goals, occ, budget)
        found += bool(want)
        assert walk_path(k, board, a, goals, mask(goals), free_mask(occ), budget) == want, (start, taken, goals)
        assert walk_length(k, a, mask(goals), free_mask(occ), budget) == len(want)
    assert found > 1000  # (most draws have a walk: the comparison is not between empty lists)
    assert n == (14 if board_of == "default" else 190)
