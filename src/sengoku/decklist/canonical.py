"""The canonical order of a decklist: which entries are one card, and how entries sort.

Entries naming the same card (same keys after name folding) are merged and their counts
summed, as the validator would count them (D3), unless the sum would pass the game's
largest count, which the validator refuses. Entries sort by kind (from the card database),
level, name, epithet, id. `meaning` gives a deck's content independent of order, so a
rewrite can be checked to have changed nothing the deck says.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from sengoku.carddb.index import CardIndex, same_epithet
from sengoku.carddb.names import fold
from sengoku.decklist.model import GAME_DEFAULT
from sengoku.decklist.tomldoc import Entry, Key, is_section_value
from sengoku.games import DEFAULT_MAX_COUNT

# SENGOKU YUGI's sections and kinds, used when no game rule file says otherwise.
DEFAULT_SECTIONS = ("main", "nameless", "familiars")
KIND_ORDER = {"main": 0, "support": 1, "nameless": 2, "familiar": 3}
TOP_KEY_ORDER = ("name", "game", "mode", "format")
ENTRY_KEY_ORDER = ("id", "name", "level", "epithet", "count")

_UNPLACED = 99  # sort rank for what the card database cannot place



def _identity(entry: Entry) -> tuple | None:
    """Return what makes two entries the same card, or None when the entry must not be merged."""
    count = entry.get("count", 1)
    if type(count) is not int or count < 0:
        return None
    parts = []
    for k in entry.keys:
        if k.key == "count":
            continue
        value = fold(k.value) if isinstance(k.value, str) else canon(k.value)
        parts.append((k.key, value))
    return (entry.section, tuple(sorted(parts)))


def merge(entries: list[Entry], max_count: int = DEFAULT_MAX_COUNT) -> tuple[list[Entry], list[str]]:
    """Merge entries naming the same card, summing counts; keep apart what would pass `max_count`.

    The validator refuses an entry whose count passes the game's largest (a `syntax` error),
    but counts two entries of one card together: merging past it would turn a deck the
    validator reads into one it rejects.
    """
    out: list[Entry] = []
    notes: list[str] = []
    first: dict[tuple, Entry] = {}
    for entry in entries:
        ident = _identity(entry)
        into = first.get(ident) if ident is not None else None
        if into is None:
            if ident is not None:
                first[ident] = entry
            out.append(entry)
            continue
        total = into.get("count", 1) + entry.get("count", 1)
        if total > max_count:
            notes.append(f"kept {_label(entry)} in [[{entry.section}]] as a separate entry: merged, its "
                         f"count would be {total}, over the {max_count} one entry may hold")
            first[ident] = entry  # later entries may still merge into this one
            out.append(entry)
            continue
        for k in into.keys:
            if k.key == "count":
                k.value = total
                break
        else:
            into.keys.append(Key("count", total))
        # The merged entry's comments go above the entry it joins: moved, never dropped.
        moved = list(entry.leading) + ([entry.header_comment] if entry.header_comment else [])
        for k in entry.keys:
            moved += k.leading + ([k.trailing] if k.trailing else [])
        into.leading.extend(moved + entry.tail)
        into.merged += 1
    for entry in out:
        if entry.merged > 1:
            notes.append(f"merged {entry.merged} entries of {_label(entry)} in [[{entry.section}]] "
                         f"into one (count {entry.get('count')})")
    return out, notes


def _label(entry: Entry) -> str:
    name = entry.get("name", entry.get("id", "?"))
    level = entry.get("level")
    return f"{name} Lv{level}" if level is not None else str(name)


class CardOrder:
    """What the sort needs from a card database: the kind and level of a named card."""

    def __init__(self, cards: Iterable[Mapping[str, Any]] | None, game: str):
        self.index = CardIndex(cards or ())
        kinds: dict[str, int] = dict(KIND_ORDER) if game == GAME_DEFAULT else {}
        for card in self.index.cards:
            kind = card.get("kind")
            if isinstance(kind, str) and kind not in kinds:
                kinds[kind] = len(kinds)  # another game: kinds in the order its database lists them
        self.kinds = kinds

    def sort_key(self, entry: Entry) -> tuple[int, int, str, str, str]:
        cid, name, level, epithet = (entry.get(k) for k in ("id", "name", "level", "epithet"))
        candidates: list[Mapping[str, Any]] = []
        by_id = self.index.with_id(cid) if isinstance(cid, str) else None
        if by_id is not None:
            candidates = [by_id]
        elif isinstance(name, str):
            candidates = [c for c in self.index.named(name)
                          if (type(level) is not int or c.get("level") == level)
                          and (not isinstance(epithet, str) or same_epithet(c, epithet))]
        ranks = [self.kinds.get(c.get("kind"), _UNPLACED) for c in candidates]
        kind_rank = min(ranks) if ranks else _UNPLACED
        if type(level) is not int:
            levels = {c.get("level") for c in candidates}
            level = levels.pop() if len(levels) == 1 else None
            if type(level) is not int:
                level = 999
        if not isinstance(name, str):
            name = candidates[0].get("name", "") if len(candidates) == 1 else ""
        return (kind_rank, level, fold(str(name)), fold(str(epithet or "")), fold(str(cid or "")))



def canon(value: Any) -> Any:
    """Return a hashable, order-independent form of a TOML value (tables compare by content)."""
    if isinstance(value, dict):
        return ("table", tuple(sorted((k, canon(v)) for k, v in value.items())))
    if isinstance(value, list):
        return ("array", tuple(canon(v) for v in value))
    return (type(value).__name__, repr(value))


def meaning(data: Mapping[str, Any]) -> tuple:
    """Return the deck's content independent of order: top-level values and summed counts per card."""
    top = canon({k: v for k, v in data.items() if not is_section_value(v)})
    counts: Counter = Counter()
    for key, value in data.items():
        if not is_section_value(value):
            continue
        for table in value:
            e = Entry(section=key, keys=[Key(k, v) for k, v in table.items()])
            ident = _identity(e)
            if ident is None:
                counts[(key, canon(table))] += 1
            else:
                counts[ident] += e.get("count", 1)
    return top, counts



def ordered(keys: list[Key], order: Sequence[str]) -> list[Key]:
    rank = {name: i for i, name in enumerate(order)}
    return sorted(keys, key=lambda k: rank.get(k.key, len(rank)))  # stable: the rest as found

