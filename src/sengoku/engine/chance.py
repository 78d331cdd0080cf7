"""The chance of a game: one stream per purpose, and a Stronghold order keyed by card copy (G7).

Kept apart from the rules: the rule groups ask a `Chance` for what chance decides, and nothing
else draws random numbers. Four purposes, each from its own seed, so that one more draw for one
purpose never shifts another:

- shuffle: the Stronghold's order (S3), the Standby Zone shuffled into a new Stronghold (T3),
  and the order Troop puts cards on the bottom in (A4);
- opponent: the goldfish opponent's Stronghold order, hence its hand (S6) and Last Guards (K4);
- dice: the familiars' die rolls (A4);
- policy: `policy_rng()`, a `random.Random` for a policy's own choices (the random policy's
  picks, the search's rollout seeds); the rules never draw from it.

Common random numbers: every card copy of a deck gets a fixed 32-bit code from its card id and
copy number (`copy_code`, computed once per deck), and its key in a game is that code mixed with
the game's shuffle seed. The Stronghold is ordered by key and drawn from the top, so a card
copy's place among the copies of another deck does not depend on which other cards either deck
holds: two decks that share a card draw it alike in run i unless cards they do not share come
before it. (`DeckTables.pair_with` goes further for a deck played against another: the copies one
deck has instead of the other's take over their codes, hence their places.)

Run i of a simulation is prepared by `seed_run(chance, seed, i)`: the four seeds come from the
BLAKE2b digest of "sengoku-goldfish:<seed>:<i>". Everything else is integer mixing (`mix32`,
whose every product stays below 2**59), so the compiled and the pure-Python engine compute the
same numbers. A sort key is the top 24 bits of a copy's mixed code (for decks of up to 64
cards) above its position, which breaks the rare ties (about one game in 14,000 has one): below
2**30, so the sort compares machine words. The policy's Mersenne Twister is seeded only when a
policy asks for it (seeding one costs more than all the rest of the chance of a game).
"""

from __future__ import annotations

import random
import sys
from array import array
from collections.abc import Sequence
from hashlib import blake2b
from struct import Struct
from typing import Final

from mypy_extensions import i64, mypyc_attr  # read by mypyc when the engine is compiled

M32: Final = 0xFFFFFFFF
_MUL: Final = 0x45D9F3B  # the multiplier of a well-tested 32-bit integer hash (below 2**27)
_GOLDEN: Final = 0x9E3779B9  # 2**32 / golden ratio: the step between a stream's counters
DIE_FACES: Final = 6
# A sort key is below 2**30 (one CPython digit: the fastest sort): the top bits of the copy's
# mixed code, then its position in the list ordered, which only breaks ties.
_SORT_BITS: Final = 30
# Compiled with mypyc, a loop over native 64-bit ints is fastest; interpreted, one big integer
# holding every copy in a 64-bit lane is. Both compute the same keys (tests/engine/test_chance.py).
_COMPILED: Final = not __file__.endswith(".py")


def mix32(x: int) -> int:
    """Mix a 32-bit number into another (a bijection of 0..2**32-1)."""
    x = (((x >> 16) ^ x) * _MUL) & M32
    x = (((x >> 16) ^ x) * _MUL) & M32
    return (x >> 16) ^ x


def copy_code(card_id: str, copy: int) -> int:
    """Return the fixed 32-bit code of copy `copy` (0, 1, ...) of card `card_id` (the same in every deck)."""
    return int.from_bytes(blake2b(f"{card_id}#{copy}".encode(), digest_size=4).digest(), "little")


class Lanes:
    """The codes of a list of cards, ready for `keyed_order`: as a list, and packed one per 64-bit lane.

    Made with the list of cards itself (`cards`), sorted and each below 2**index_bits (a
    Stronghold before its shuffle, S3), the compiled engine keys each copy by its card instead of
    its position: the same order (copies tied on the top bits come in card order, which is their
    order in the list), and no card looked up after the sort.
    """

    __slots__ = ("n", "codes", "high", "low", "index_bits", "key_bits", "packed", "ones", "low32", "key_mask", "index",
                 "cards")

    def __init__(self, codes: Sequence[int] = (), cards: tuple[int, ...] = ()) -> None:
        # `codes` has a default because the compiled class's unpickling calls __init__ with no
        # argument before it restores the fields (decks travel to worker processes and Dask workers)
        n = self.n = len(codes)
        self.codes = list(codes)
        # (the compiled loops read each code as two 16-bit halves: a small int object converts to a
        # machine word at once, one of 30 bits or more through a slow general conversion)
        self.high = [c >> 16 for c in codes]
        self.low = [c & 0xFFFF for c in codes]
        self.index_bits = max(6, (n - 1).bit_length())
        self.key_bits = max(16, _SORT_BITS - self.index_bits)  # (a zone of over 16,384 cards: longer sort keys)
        self.packed = _pack(codes)
        self.ones = _pack([1] * n)
        self.low32 = self.ones * M32
        self.key_mask = self.ones * ((1 << self.key_bits) - 1)
        self.index = _pack(list(range(n)))
        keyed_by_card = (len(cards) == n and all(0 <= c < 1 << self.index_bits for c in cards)
                         and all(cards[j] <= cards[j + 1] for j in range(n - 1)))
        self.cards = cards if keyed_by_card else ()  # (a tuple: `keyed_order` checks it is the list ordered)


def _pack(values: Sequence[int]) -> int:
    return int.from_bytes(array("Q", values).tobytes(), sys.byteorder)


def keyed_order(cards: Sequence[int], lanes: Lanes, seed: int) -> list[int]:
    """Return `cards` ordered by key, the top (highest key) last: `lanes` holds their codes, in their order.

    A card's key is the top bits of mix32(code ^ seed), then its position (ties only).
    """
    return _keyed_order_native(cards, lanes, seed) if _COMPILED else _keyed_order_lanes(cards, lanes, seed)


def _keyed_order_native(cards: Sequence[int], lanes: Lanes, seed: int) -> list[int]:
    own = lanes.cards
    if own and own is cards:
        return _keyed_by_card(own, lanes, seed)
    high, low16 = lanes.high, lanes.low
    ib: i64 = lanes.index_bits
    drop: i64 = 32 - lanes.key_bits
    s: i64 = seed
    n: i64 = lanes.n
    keys: list[int] = [0] * n
    j: i64 = 0
    for j in range(n):
        x: i64 = (i64(high[j]) << 16 | i64(low16[j])) ^ s
        x = (((x >> 16) ^ x) * _MUL) & M32
        x = (((x >> 16) ^ x) * _MUL) & M32
        keys[j] = (((x >> 16) ^ x) >> drop) << ib | j
    keys.sort()
    low: int = (1 << lanes.index_bits) - 1
    return [cards[k & low] for k in keys]


def _keyed_by_card(cards: tuple[int, ...], lanes: Lanes, seed: int) -> list[int]:
    # `cards` sorted, each below 2**index_bits: the low bits of a key hold the card, and the
    # sorted keys become the cards in place
    high, low16 = lanes.high, lanes.low
    ib: i64 = lanes.index_bits
    drop: i64 = 32 - lanes.key_bits
    s: i64 = seed
    n: i64 = lanes.n
    keys: list[int] = [0] * n
    j: i64 = 0
    for j in range(n):
        x: i64 = (i64(high[j]) << 16 | i64(low16[j])) ^ s
        x = (((x >> 16) ^ x) * _MUL) & M32
        x = (((x >> 16) ^ x) * _MUL) & M32
        keys[j] = (((x >> 16) ^ x) >> drop) << ib | cards[j]
    keys.sort()
    low: i64 = (1 << ib) - 1
    for j in range(n):
        keys[j] = i64(keys[j]) & low
    return keys


def _keyed_order_lanes(cards: Sequence[int], lanes: Lanes, seed: int) -> list[int]:
    # every lane holds 32 bits times a 27-bit multiplier at most: no product leaves its lane
    m = lanes.low32
    x = lanes.packed ^ (seed * lanes.ones)
    x = ((((x >> 16) & m) ^ x) * _MUL) & m
    x = ((((x >> 16) & m) ^ x) * _MUL) & m
    x = (((((((x >> 16) & m) ^ x) >> (32 - lanes.key_bits)) & lanes.key_mask) << lanes.index_bits)
         | lanes.index)
    keys: list[int] = memoryview(x.to_bytes(lanes.n * 8, sys.byteorder)).cast("Q").tolist()
    keys.sort()
    low = (1 << lanes.index_bits) - 1
    return [cards[k & low] for k in keys]


# A keyed Stronghold is ordered a part at a time (compiled engine): about this many cards of the
# highest keys first, the next part when a game draws or reveals them all. The opponent's: a
# `greedy` game reveals about 14 of them (hand and Last Guards); our own: it draws 15 to 22 of
# its 50 cards (the opening hand and a Draw Phase a turn).
_PART: Final = 16
OWN_PART: Final = 24


class Unordered:
    """The cards of a keyed Stronghold not ordered yet: the `left` cards of `cards` keyed below `upper`.

    `keyed_part` takes the next highest-keyed part off it; `keyed_order` would have put every one of
    them below every card already taken, in the order `keyed_part` gives. The cards left are
    known by their keys alone (below `upper`, and none was taken), so no list of them is kept.
    """

    __slots__ = ("cards", "lanes", "seed", "left", "upper")

    def __init__(self, cards: tuple[int, ...] = (), lanes: Lanes | None = None, seed: int = 0) -> None:
        self.cards = cards
        self.lanes = lanes if lanes is not None else Lanes()
        self.seed = seed
        self.left = len(cards)
        self.upper = 1 << self.lanes.key_bits  # above every key


def keyed_part(u: Unordered, want: int, part: int = _PART) -> list[int]:
    """Take at least `want` cards (or all left) of the highest keys off `u`; return them in `keyed_order`'s order.

    The keys are gone through once for each part taken: the first part about `part` cards, each
    next twice as many, until `want` are taken; all in one pass when `want` is all that is left.
    """
    left: i64 = u.left
    if left <= 0:
        return []
    lanes = u.lanes
    high, low16 = lanes.high, lanes.low
    cards = u.cards
    by_card = len(lanes.cards) > 0
    ib: i64 = lanes.index_bits
    drop: i64 = 32 - lanes.key_bits
    s: i64 = u.seed
    upper: i64 = u.upper
    n: i64 = lanes.n
    span: i64 = max(1, (1 << lanes.key_bits) * part // max(1, n))  # about `part` cards' worth of keys
    if want >= left:
        span = upper  # all of them
    keys: list[int] = []
    while left > 0:
        lower: i64 = upper - span if upper > span else 0
        j: i64 = 0
        for j in range(n):  # (a card's key is worked out again: cheaper than keeping it)
            x: i64 = (i64(high[j]) << 16 | i64(low16[j])) ^ s
            x = (((x >> 16) ^ x) * _MUL) & M32
            x = (((x >> 16) ^ x) * _MUL) & M32
            p: i64 = ((x >> 16) ^ x) >> drop
            if lower <= p < upper:
                if by_card:  # (two branches: one expression of both would box the card and unbox it)
                    c: i64 = cards[j]
                    keys.append(p << ib | c)
                else:
                    keys.append(p << ib | j)
                left -= 1
        upper = lower
        if len(keys) >= want:
            break
        span *= 2
    u.left = left
    u.upper = upper
    keys.sort()
    low: i64 = (1 << ib) - 1
    if by_card:  # the sorted keys become the cards in place
        for j in range(len(keys)):
            keys[j] = i64(keys[j]) & low
        return keys
    return [cards[k & low] for k in keys]


def unordered_cards(u: Unordered) -> list[int]:
    """Return the cards left in `u`, in `keyed_order`'s order (top last), leaving `u` as it was."""
    whole = Unordered(u.cards, u.lanes, u.seed)
    whole.left, whole.upper = u.left, u.upper
    return keyed_part(whole, whole.left)


def copy_codes(cards: Sequence[int], codes: Sequence[Sequence[int]]) -> list[int]:
    """Return the code of each card of a zone: the k-th copy of a card in it takes copy code k.

    Copies of a card are alike, so which one is called the k-th does not change the order.
    `codes[card]` lists the codes of the card's copies in the deck.
    """
    seen: dict[int, int] = {}
    out = []
    for c in cards:
        k = seen.get(c, 0)
        seen[c] = k + 1
        own = codes[c]
        out.append(own[k] if k < len(own) else mix32(own[0] ^ ((k * _GOLDEN) & M32)))
    return out


@mypyc_attr(allow_interpreted_subclasses=True)  # tests plant die rolls in a subclass
class Chance:
    """The chance of one game: a seed per purpose (see the module docstring), reset by each setup.

    Made with a `random.Random` (`source`), each game draws its seeds from it; made without,
    the caller sets them before each game (`seed_run`). Replaying a game = the same seeds.
    """

    __slots__ = ("shuffle", "opponent", "dice", "policy", "source", "rounds", "rolls", "_policy_rng", "_policy_fresh")

    shuffle: int
    opponent: int
    dice: int
    policy: int
    source: random.Random | None
    rounds: int  # shuffles after the first (T3 reshuffles, Troop) this game
    rolls: int  # dice rolled this game
    _policy_rng: random.Random | None  # made on the first ask
    _policy_fresh: bool  # the policy's generator is seeded for this game

    def __init__(self, source: random.Random | None = None) -> None:
        self.source = source
        self.shuffle = self.opponent = self.dice = self.policy = 0
        self.rounds = self.rolls = 0
        self._policy_rng = None
        self._policy_fresh = False

    def copy(self) -> Chance:
        """Return a `Chance` that goes on as this one would: the same seeds and counts, no `source`
        (a copied game state's, `sengoku.engine.clone.copy_state`; the policy's generator made anew)."""
        c = Chance()
        c.shuffle, c.opponent, c.dice, c.policy = self.shuffle, self.opponent, self.dice, self.policy
        c.rounds, c.rolls = self.rounds, self.rolls
        return c

    def set_seeds(self, shuffle: int, opponent: int, dice: int, policy: int) -> None:
        """Set the seeds of the next game (32-bit shuffle, opponent and dice seeds; any policy seed)."""
        self.shuffle, self.opponent, self.dice, self.policy = shuffle & M32, opponent & M32, dice & M32, policy

    def new_game(self) -> None:
        """Start a game's chance (setup calls it): fresh seeds from `source`, if any; counters to zero."""
        src = self.source
        if src is not None:
            self.set_seeds(src.getrandbits(32), src.getrandbits(32), src.getrandbits(32), src.getrandbits(64))
        self.rounds = self.rolls = 0
        self._policy_fresh = False

    def stronghold(self, cards: tuple[int, ...], lanes: Lanes, want: int) -> tuple[list[int], Unordered | None]:
        """Return the Stronghold's order at setup (S3): `cards` with their codes in `lanes`; its top `want` cards at least.

        As `opponent_stronghold`: the compiled engine orders the highest-keyed part only (about
        `OWN_PART` cards), and returns the rest, to be ordered when a game draws past that part
        (`Zones._stronghold_top`); the interpreted one orders it whole (None), and so does the
        compiled one when `want` is every card.
        """
        if not _COMPILED or want >= len(cards):
            return keyed_order(cards, lanes, self.shuffle), None
        u = Unordered(cards, lanes, self.shuffle)
        return keyed_part(u, want, OWN_PART), u

    def opponent_stronghold(self, cards: tuple[int, ...], lanes: Lanes, want: int) -> tuple[list[int], Unordered | None]:
        """Return the goldfish opponent's Stronghold order (G4), from its own stream: its top `want` cards at least.

        The compiled engine orders the highest-keyed part only, and returns the rest, to be
        ordered by `keyed_part` when a game reveals that far (the same order, for less work);
        the interpreted one orders it whole (None).
        """
        if not _COMPILED:
            return keyed_order(cards, lanes, self.opponent), None
        u = Unordered(cards, lanes, self.opponent)
        return keyed_part(u, want), u

    def reshuffle(self, cards: Sequence[int], codes: Sequence[Sequence[int]]) -> list[int]:
        """Return `cards` in a new random order, the top last (T3's shuffle, Troop's bottom order).

        Keyed by copy code like the Stronghold, from the shuffle stream's next seed.
        """
        self.rounds += 1
        seed = mix32(self.shuffle ^ ((self.rounds * _GOLDEN) & M32))
        return keyed_order(cards, Lanes(copy_codes(cards, codes)), seed)

    def die(self, code: int = 0, turn: int = 0) -> int:
        """Roll one die (A4): 1-6, from the dice stream (the bias of 2**32 mod 6 is below 1e-9).

        The roll is keyed by what rolls it: `code`, the rolling familiar's copy code, and the
        `turn` (a familiar rolls at most once a turn, A2), so that a game which rolled other dice
        before rolls this one alike. Without a key (code 0, turn 0), roll k of the game is keyed
        by k alone.
        """
        self.rolls += 1
        key = mix32((code ^ ((turn * _GOLDEN) & M32)) & M32) if code or turn else self.rolls
        return ((mix32((self.dice + key * _GOLDEN) & M32) * DIE_FACES) >> 32) + 1

    def policy_rng(self) -> random.Random:
        """Return the policy's own generator, seeded for this game on the first ask."""
        rng = self._policy_rng
        if rng is None:
            rng = self._policy_rng = random.Random(self.policy)
        elif not self._policy_fresh:
            rng.seed(self.policy)
        self._policy_fresh = True
        return rng


def text_seed(text: str) -> int:
    """64 bits of a BLAKE2b digest of `text`, read little-endian: a seed keyed by what it is for (a
    look-ahead's copies, `search`'s), the same in every process, compiled or pure."""
    return int.from_bytes(blake2b(text.encode(), digest_size=8).digest(), "little")


# The 20-byte digest of a run, little-endian: bytes 0-3 the shuffle seed, 4-7 the opponent's, 8-11
# the dice's, 12-19 the policy's (the digest read as one number, cut at bits 32, 64 and 96).
_RUN_SEEDS: Final = Struct("<IIIQ")


def run_seeds(seed: int, run: int) -> tuple[int, int, int, int]:
    """Return the shuffle, opponent, dice and policy seeds of run `run` under master seed `seed`."""
    shuffle, opponent, dice, policy = _RUN_SEEDS.unpack(
        blake2b(f"sengoku-goldfish:{seed}:{run}".encode(), digest_size=20).digest())
    return shuffle, opponent, dice, policy


def seed_run(chance: Chance, seed: int, run: int) -> None:
    """Prepare the chance of run `run` of a simulation under master seed `seed` (G3, G7).

    Every deck's run `run` gets the same seeds, whatever process plays it: `goldfish`,
    `compare` and a replay of one run all call this before the run's setup.
    """
    shuffle, opponent, dice, policy = run_seeds(seed, run)
    chance.set_seeds(shuffle, opponent, dice, policy)  # (not *run_seeds(...): compiled, a generic call)
