"""A candidate deck built where it plays: from the deck it changes (compiled once) and the change.

A step races hundreds to tens of thousands of one-card changes of one deck. Compiling each on
the client and sending its compiled tables (about 40 KB each) made the client's share of a
step grow with the pool. Instead the client compiles the deck being changed once (`Base`: its
engine plan, its card counts, its cards' rows and those of the pool, pickled once a tune), sends
it once to each worker process, and sends each candidate as its change alone (`Group`): a
section and two card ids. The worker compiles the candidate from those (`candidate_plan`): the
same `compile_deck` of the same rows, so the same tables and the same games as compiling it on
the client.

A worker keeps the last few bases and groups it was sent (by content), so the tasks of one
group that reach the same worker compile it once.

`candidate_plan(base, change)` is the one path from a deck and a one-card change to the plan
that plays it: `tune` races with it, and `impact` plays each card's one-copy-fewer deck with it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import pickle
import shutil
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sengoku.carddb.models import CardDatabase
from sengoku.engine import choose_commander, compile_deck
from sengoku.files import read_input
from sengoku.goldfish.options import PolicySpec
from sengoku.goldfish.play.pairs import PairPlan
from sengoku.goldfish.play.simulate import Plan
from sengoku.tune.deck import Change, Deck

Row = Mapping[str, Any]  # a card as the engine compiles it: the database's plain row (`engine.tables.Row`)
KEPT = 2  # bases, and groups, a worker process keeps built


def card_rows(card_db: CardDatabase | Mapping[str, Any], ids: Iterable[str]) -> dict[str, Row]:
    """Return the rows `compile_deck` reads for these cards of a loaded database (or its cards by id):
    the models' own dump."""
    by_id = card_db.by_id() if isinstance(card_db, CardDatabase) else card_db
    return {cid: by_id[cid].model_dump(mode="json", by_alias=True) for cid in ids}


class CardRows:
    """The rows of a database's cards, each dumped once (`rows`); `pickled` gives some of them as one pickle."""

    def __init__(self, card_db: CardDatabase) -> None:
        self._db = card_db
        self._by_id: dict[str, Any] | None = None
        self._rows: dict[str, Row] = {}

    def rows(self, ids: Iterable[str]) -> dict[str, Row]:
        wanted = list(dict.fromkeys(ids))
        missing = [cid for cid in wanted if cid not in self._rows]
        if missing:
            if self._by_id is None:
                self._by_id = self._db.by_id()
            self._rows.update(card_rows(self._by_id, missing))
        return {cid: self._rows[cid] for cid in wanted}

    def pickled(self, ids: Iterable[str]) -> bytes:
        """Return the rows of these cards (card id -> row) pickled, as `Base.make` takes a pool's."""
        return pickle.dumps(self.rows(ids), protocol=pickle.HIGHEST_PROTOCOL)


@dataclass(frozen=True)
class _Rows:
    """The card database as `compile_deck` reads it: rows by card id (nothing else is looked up)."""

    cards: Mapping[str, Row]
    path: None = None


@dataclass(frozen=True)
class Base:
    """A deck compiled once, to change one card at a time: its plan, counts, its cards' rows and the pool's,
    pickled once.

    Pickling a `Base` copies `blob`, so sending it to every task costs a copy of bytes, and a
    worker unpickles it once (`opened`, keyed by `token`, a digest of the bytes).
    """

    token: str
    blob: bytes
    path: str | None = None  # or the file that holds the bytes, on this machine (`BaseFiles`)
    size: int = 0  # the bytes in that file: all the reader takes from it

    def __reduce__(self) -> tuple[Any, ...]:  # pickled with every task: as its fields, not a record's state
        return Base, (self.token, self.blob, self.path, self.size)

    @staticmethod
    def make(plan: Plan, deck: Deck, rows: Mapping[str, Row], pool: bytes = b"") -> Base:
        """Return the base of `deck` (compiled as `plan`), with the rows of (at least) its cards, and `pool`:
        the rows of the cards its changes may bring in, pickled once a tune (`CardRows.pickled`)."""
        blob = pickle.dumps((plan, deck, dict(rows), pool), protocol=pickle.HIGHEST_PROTOCOL)
        return Base(hashlib.sha256(blob).hexdigest(), blob)

    def opened(self) -> tuple[Plan, Deck, Mapping[str, Row]]:
        """Return (plan, deck, rows: its cards' and the pool's), unpickled once per process."""
        def load() -> tuple[Plan, Deck, Mapping[str, Row]]:
            plan, deck, rows, pool = pickle.loads(self.blob if self.path is None else
                                                  read_input(self.path, self.size, regular=True))
            return plan, deck, {**pickle.loads(pool), **rows} if pool else rows

        return _kept(_BASES, self.token, load)


class BaseFiles:
    """Bases sent to local worker processes through a private folder: each written once, and a task
    carries its path instead of its bytes (a process pool pickles every task it sends)."""

    def __init__(self) -> None:
        self._folder: Path | None = None
        self._sent: list[Base] = []

    def ship(self, base: Base) -> Base:
        """Return `base` as a task carries it: its file's path, written the first time."""
        if self._sent and self._sent[-1].token == base.token:
            return self._sent[-1]
        if self._folder is None:
            self._folder = Path(tempfile.mkdtemp(prefix="sengoku-tune-"))
        path = self._folder / f"{base.token}.base"
        path.write_bytes(base.blob)
        self._sent.append(Base(base.token, b"", str(path), len(base.blob)))
        while len(self._sent) > KEPT:  # a step's tasks are all played before the next step's base is sent
            Path(self._sent.pop(0).path or "").unlink(missing_ok=True)
        return self._sent[-1]

    def close(self) -> None:
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)
            self._folder, self._sent = None, []


@dataclass(frozen=True)
class Group:
    """Up to a task's worth of candidates: changes of one base (the rows of the cards they bring in are the base's)."""

    changes: tuple[tuple[str, str | None, str | None], ...]  # each change's (section, out, into): plain tuples pickle fast
    policy: PolicySpec | None = None
    # (a `race.Objective`, turns): the worker sends each candidate's gain sums, not its kill-turn counts
    objective: tuple[Any, int] | None = None

    def __reduce__(self) -> tuple[Any, ...]:  # pickled as its fields: about twice as fast as a record's state
        return Group, (self.changes, self.policy, self.objective)


def candidate_plan(base: Base, change: Change, policy: PolicySpec | None = None) -> Plan:
    """Return the plan of the base's deck after `change`: its own compiled tables and Commander (S1),
    facing the base's opponent with the base's options (`policy` replaced, when given).

    The card going in is one of the base's rows (its deck's or its pool's); the opening-hand
    fields stay empty (a race reports no opening hands).
    """
    plan, deck, known = base.opened()
    tables = compile_deck(_Rows(known), deck.apply(change).sections(), mode=plan.options.mode,
                          board=plan.tables.board)
    made = dataclasses.replace(plan, tables=tables, commander=choose_commander(tables),
                               packed=(0,) * len(tables.card_id))
    return made.with_options(policy=policy) if policy is not None else made


def group_plan(incumbent: Plan, candidates: list[Plan]) -> PairPlan:
    """Return the paired plan of the incumbent (the baseline) and a group of candidates."""
    return PairPlan([incumbent, *candidates], [], [[] for _ in range(len(candidates) + 1)])


def built_group(base: Base, group: Group) -> PairPlan:
    """Return the paired plan of a group: the base's deck (the baseline) and each change, compiled here once."""
    def build() -> PairPlan:
        incumbent = base.opened()[0]
        if group.policy is not None:
            incumbent = incumbent.with_options(policy=group.policy)
        return group_plan(incumbent, [candidate_plan(base, Change(*c), group.policy) for c in group.changes])

    return _kept(_GROUPS, (base.token, group.changes, group.policy), build)


_BASES: OrderedDict[Any, Any] = OrderedDict()
_GROUPS: OrderedDict[Any, Any] = OrderedDict()
_LOCK = threading.Lock()  # a Dask worker may run tasks on several threads


def _kept(store: OrderedDict[Any, Any], key: Any, make: Any) -> Any:
    """Return store[key], made (and the oldest dropped past KEPT) when missing."""
    with _LOCK:
        if key in store:
            store.move_to_end(key)
            return store[key]
    made = make()
    with _LOCK:
        store[key] = made
        while len(store) > KEPT:
            store.popitem(last=False)
    return made
