"""The board geometry (B1) compiled into int tables: spaces are small ints, not (row, column) pairs.

The geometry itself is data (`board.json` in the card DB folder, read by
`sengoku.carddb.board.load_board`); this module only turns it into lookups the engine can use
in its inner loop.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from mypy_extensions import mypyc_attr  # read by mypyc when the engine is compiled

from sengoku.carddb.board import Board
from sengoku.engine.errors import EngineError

COMMAND_ZONE: Final = -1  # the Command Zone is not a space of the field (M1, M4)
OFF_OUR_BOARD: Final = -2  # an enemy's space where none of our allies can go (the opponent's Backline)
CORNERS = ("near_left", "near_right", "far_left", "far_right")


def corner_mask(corners: tuple[str, ...] | list[str]) -> int:
    """Return a bit mask of corner gems/arrows (bit i = CORNERS[i])."""
    mask = 0
    for c in corners:
        mask |= 1 << CORNERS.index(c)
    return mask


@mypyc_attr(serializable=True)  # pickled for --jobs where workers are spawned, not forked
class Geometry:
    """Spaces numbered 0..n_spaces-1 (our half first, then the Invasion Zone).

    `coords[s]` its (row, column); `neighbours[s]` spaces one orthogonal step away that an ally
    may stand on (M4, M5); `surroundings[s]` the spaces one step away in all eight directions (A4); `perimeter` the Stronghold Perimeter spaces in file order (M1, S2);
    `is_perimeter[s]`, `is_frontline[s]`; `reach_common[s]` whether the common attack range from
    `s` holds the opponent's Stronghold and `reach_corners[s]` the corner mask that would (K4).
    """

    def __init__(self, board: Any):
        self.board = board
        self.coords = tuple(board.spaces)
        index = {sp: i for i, sp in enumerate(self.coords)}
        self.index = index
        self.n_spaces = len(self.coords)
        self.neighbours = tuple(tuple(index[n] for n in board.neighbours(sp)) for sp in self.coords)
        # A4: a character's surroundings are the spaces one step away in all eight directions,
        # diagonals included (Quick Start Guide I, Q&A), among the spaces an ally may stand on.
        self.surroundings = tuple(
            tuple(index[(r + dr, c + dc)] for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                  if (dr or dc) and (r + dr, c + dc) in index)
            for r, c in self.coords)
        self.perimeter = tuple(index[sp] for sp in board.perimeter)
        per = set(self.perimeter)
        self.is_perimeter = tuple(i in per for i in range(self.n_spaces))
        self.is_frontline = tuple(board.line(sp) == "frontline" for sp in self.coords)
        # Neighbours sorted furthest ahead first (ties: board order), for policies that advance.
        self.ahead_first = tuple(tuple(sorted(ns, key=lambda d: -self.coords[d][0])) for ns in self.neighbours)
        # The opponent's Stronghold Perimeter in its board file order (G4: its Nameless, then a
        # Commander that joins combat, stand there), as our space numbers: the mirror image of
        # ours across the centre line, OFF_OUR_BOARD where none of our allies can go.
        depth, columns = len(board.rows), board.columns
        self.enemy_perimeter = tuple(index.get((2 * depth - 1 - r, columns - 1 - c), OFF_OUR_BOARD)
                                     for r, c in board.perimeter)
        target = board.enemy_stronghold
        self.reach_common = tuple(target in board.attack_range(sp, ()) for sp in self.coords)
        self.reach_corners = tuple(
            sum(1 << k for k, c in enumerate(CORNERS) if target in board.attack_range(sp, (c,)))
            for sp in self.coords
        )

    def space(self, row: int, column: int) -> int:
        """Return the space number of (row, column)."""
        try:
            return self.index[(row, column)]
        except KeyError:
            raise EngineError(f"no space at row {row}, column {column} on this board") from None

    def reaches_enemy_stronghold(self, space: int, corners: int) -> bool:
        """Check if an ally on `space` with corner mask `corners` has the opponent's Stronghold in range."""
        return self.reach_common[space] or bool(self.reach_corners[space] & corners)


def _board_from_mapping(data: Mapping[str, Any]) -> Any:
    try:
        return Board.from_mapping(dict(data))
    except (KeyError, TypeError, IndexError) as exc:
        raise EngineError(f"board mapping is missing or has a bad field: {exc}") from None


def compile_geometry(board: Any) -> Geometry:
    """Compile a `sengoku.carddb.board.Board` (or a mapping shaped like board.json) for the engine."""
    if isinstance(board, Mapping):
        board = _board_from_mapping(board)
    return Geometry(board)
