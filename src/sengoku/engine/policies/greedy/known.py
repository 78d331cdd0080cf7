"""What the default policy knows of a game: its settings, and what it works out once per deck.

Every decision module of `greedy` reads this one object (`Known`): the spaces from which each
card reaches the opponent's Stronghold (K4), and the Last Guard's odds (filled in by `odds`).
"""

from __future__ import annotations

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
        self.next_to = tuple(mask(ns) for ns in board.neighbours)
        self.next_from = tuple(mask([s for s in range(board.n_spaces) if d in board.neighbours[s]])
                               for d in range(board.n_spaces))
        self.perimeter_mask = mask(board.perimeter)
        self.guards_of = None
        self.charge_terms = {}


def mask(spaces: tuple[int, ...] | list[int]) -> int:
    """The set of `spaces` as an int: bit s for space s."""
    m = 0
    for s in spaces:
        m |= 1 << s
    return m
