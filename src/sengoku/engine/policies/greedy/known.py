"""What the default policy knows of a game: its settings, and what it works out once per deck.

Every decision module of `greedy` reads this one object (`Known`): the spaces from which each
card reaches the opponent's Stronghold (K4), and the Last Guard's odds (filled in by `odds`).
"""

from __future__ import annotations

from sengoku.engine.board import Geometry
from sengoku.engine.policies.greedy.settings import GreedySettings
from sengoku.engine.tables import DeckTables


class Known:
    """The settings and per-deck facts `greedy`'s decisions read."""

    def __init__(self, settings: GreedySettings) -> None:
        self.settings = settings
        # Per card: the spaces from which it reaches the opponent's Stronghold, furthest ahead first.
        self.spots: tuple[tuple[int, ...], ...] = ()
        # The same as a lookup by space (a.space >= 0 and reaches[a.top][a.space]: ally a is in range).
        self.reaches: tuple[tuple[bool, ...], ...] = ()
        # The same as a set of spaces (bit s: space s), and the board's as sets, for the walks (`walks`):
        # per space its neighbours, and the spaces it is a neighbour of; the Stronghold Perimeter.
        self.spot_mask: tuple[int, ...] = ()
        self.next_to: tuple[int, ...] = ()
        self.next_from: tuple[int, ...] = ()
        # The same by the byte: at 256j + v, for the set v of spaces 8j to 8j+7 (a byte), the union
        # of their sets (`walks.around`: a layer's neighbours in a lookup a byte, not a step a space).
        self.next_to_bytes: tuple[int, ...] = ()
        self.next_from_bytes: tuple[int, ...] = ()
        self.perimeter_mask = 0
        # The Last Guard's odds (`odds.prepare_guards`), for the opponent's deck `guards_of`.
        self.hit_atk: tuple[float, ...] = ()
        self.hit_mat: tuple[float, ...] = ()
        self.plans: tuple[tuple[tuple[float, bool, int], ...], ...] = ()
        self.guards_of: DeckTables | None = None
        self.guards_defend = False
        # The charge rule's weights and each card's own terms, per setting (`charges.card_terms`).
        self.charge_terms: dict[int, tuple[list[float], list[float]]] = {}
        # The size terms of the charge rule, per setting (`charges.size_terms`).
        self.size_terms: dict[int, tuple[list[float], list[float]]] = {}
        # The Focus rule's weights, per setting (`deploy.focus_value`; the same for every deck).
        self.focus_terms: dict[int, list[float]] = {}

    def prepare_deck(self, t: DeckTables) -> None:
        """Work out where each card of deck `t` reaches the Stronghold from (K4)."""
        board = t.board
        # Furthest ahead first: they leave the spaces behind free for the allies that follow.
        ahead = sorted(range(board.n_spaces), key=lambda s: (-board.coords[s][0], s))
        self.spots = tuple(tuple(s for s in ahead if board.reaches_enemy_stronghold(s, t.corners[c]))
                           for c in range(t.n))
        self.reaches = tuple(tuple(s in spots for s in range(board.n_spaces)) for spots in self.spots)
        self.spot_mask = tuple(mask(spots) for spots in self.spots)
        self.prepare_board(board)
        self.guards_of = None
        self.charge_terms = {}

    def prepare_board(self, board: Geometry) -> None:
        """Work out the board's sets of spaces that the walks read (`walks`)."""
        self.next_to = tuple(mask(ns) for ns in board.neighbours)
        self.next_from = tuple(mask([s for s in range(board.n_spaces) if d in board.neighbours[s]])
                               for d in range(board.n_spaces))
        self.perimeter_mask = mask(board.perimeter)
        self.next_to_bytes = byte_tables(self.next_to)
        self.next_from_bytes = byte_tables(self.next_from)


def mask(spaces: tuple[int, ...] | list[int]) -> int:
    """The set of `spaces` as an int: bit s for space s."""
    m = 0
    for s in spaces:
        m |= 1 << s
    return m


def byte_tables(sets: tuple[int, ...]) -> tuple[int, ...]:
    """At 256j + v, for byte j of a set of spaces (spaces 8j to 8j+7) holding v, the union of
    `sets[s]` over the spaces s in v."""
    table: list[int] = []
    for first in range(0, len(sets), 8):
        row = [0] * 256
        for v in range(1, 256):
            low = v & -v  # the lowest space of v, whose set joins the union of the rest's
            s = first + low.bit_length() - 1
            row[v] = row[v ^ low] | (sets[s] if s < len(sets) else 0)
        table += row
    return tuple(table)
