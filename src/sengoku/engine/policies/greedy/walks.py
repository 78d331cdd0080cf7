"""The default policy's walks (M4): the shortest run of Moves through empty spaces to a goal, on bit masks.

A set of spaces is an int whose bit s stands for space s: the free spaces of a board (`free_mask`),
each space's neighbours (`Known.next_to`), the spaces from which a card reaches the Stronghold
(`Known.spot_mask`). A walk is searched breadth first, a layer of spaces a Move, each layer one
int: `walk_length` when only the number of Moves matters (a walk compared with another), and
`walk_path` for the spaces themselves, which are the walk a breadth-first search over the
board's lists would find: of the shortest walks to the first goal reached (in `goals`' order),
the one whose first step comes first in the list of first steps (the Stronghold Perimeter's
order from the Command Zone, else the space's neighbours), then each next step first among the
neighbours of the last.
"""

from __future__ import annotations

from sengoku.engine.ally import Ally
from sengoku.engine.board import COMMAND_ZONE, Geometry
from sengoku.engine.policies.greedy.known import Known


def free_mask(occ: list[Ally | None]) -> int:
    """The spaces of a board whose occupants are `occ` that nothing stands on."""
    free = 0
    bit = 1
    for o in occ:
        if o is None:
            free |= bit
        bit <<= 1
    return free


def around(table: tuple[int, ...], spaces: int) -> int:
    """The union of the sets of `spaces` (`Known.next_to_bytes` or `next_from_bytes`: a lookup a byte)."""
    out = 0
    j = 0
    while spaces:
        out |= table[j | (spaces & 255)]
        spaces >>= 8
        j += 256
    return out


def first_steps(k: Known, a: Ally) -> int:
    """The spaces of ally `a`'s first Move: the Stronghold Perimeter from the Command Zone (M1), else its neighbours."""
    return k.perimeter_mask if a.space == COMMAND_ZONE else k.next_to[a.space]


def walk_length(k: Known, a: Ally, goals: int, free: int, budget: int) -> int:
    """The Moves of ally `a`'s shortest walk through the `free` spaces to one of `goals` (masks),
    within `budget` Moves; 0 if there is none."""
    next_to = k.next_to_bytes
    layer = first_steps(k, a) & free
    seen = layer
    steps = 1
    while layer and steps <= budget:
        if layer & goals:
            return steps
        layer = around(next_to, layer) & free & ~seen
        seen |= layer
        steps += 1
    return 0


def walk_path(k: Known, board: Geometry, a: Ally, goals: tuple[int, ...], goal_mask: int, free: int,
              budget: int) -> list[int]:
    """The spaces of ally `a`'s shortest walk through the `free` spaces to the first of `goals` it
    reaches (`goal_mask`: the same spaces), within `budget` Moves, or [] (see the module's
    docstring for which walk of that length)."""
    next_to = k.next_to_bytes
    layer = first_steps(k, a) & free
    seen = layer
    layers: list[int] = []
    steps = 1
    while layer and steps <= budget:
        hit = layer & goal_mask
        if hit:
            return path_back(k, board, a, goals, hit, layers)
        layers.append(layer)
        layer = around(next_to, layer) & free & ~seen
        seen |= layer
        steps += 1
    return []


def path_back(k: Known, board: Geometry, a: Ally, goals: tuple[int, ...], hit: int, layers: list[int]) -> list[int]:
    """The walk to the first of `goals` in `hit` (the goals of the last layer), through `layers`
    (the earlier layers, first Move first; each left holding only its spaces that lead on to the
    goal): from the goal back, the spaces of each layer one Move from those kept of the next;
    then from the first Move on, the first of them in list order."""
    goal = -1
    for g in goals:
        if hit >> g & 1:
            goal = g
            break
    want = 1 << goal
    back = k.next_from_bytes
    for i in range(len(layers) - 1, -1, -1):
        want = layers[i] & around(back, want)
        layers[i] = want
    path: list[int] = []
    options = board.perimeter if a.space == COMMAND_ZONE else board.neighbours[a.space]
    for want in layers:
        for d in options:
            if want >> d & 1:
                path.append(d)
                options = board.neighbours[d]
                break
    path.append(goal)
    return path
