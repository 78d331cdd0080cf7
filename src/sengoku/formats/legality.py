"""A resolved deck against the format list in force: banned, restricted/limited, and allowed sets.

Rule ids (stable, shown in every output):
- `banned`: an entry names a card the list bans (one violation per entry, at its line);
- `restricted`: more copies of a card than the list allows -- 1 for a restricted card, N for a
  limited one (one rule id for both: each is "copies above the format's limit"). Copies are
  summed over every entry of the same card id; the violation points at the card's first entry;
- `not-legal`: the card's set is not among the list's `sets`. **Decision:** when the list names
  sets, a card without a `set` field is not legal either, since nothing shows it belongs to one.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from typing import Any

from sengoku.decklist.model import DeckEntry
from sengoku.formats.model import Format
from sengoku.problems import Problem


def card_label(card_id: str, card: Mapping[str, Any] | None) -> str:
    """Return 'Soma Lv2 "Wandering Blade" (SMP-004)' for messages; just the id when the card is unknown."""
    if not card:
        return card_id
    label = str(card.get("name", card_id))
    if card.get("level") is not None:
        label += f" Lv{card['level']}"
    if card.get("epithet"):
        label += f' "{card["epithet"]}"'
    return f"{label} ({card_id})"


def format_violations(
    tournament_format: Format,
    resolved: Iterable[tuple[DeckEntry, str]],
    cards: Mapping[str, Mapping[str, Any]],
    as_of: dt.date | str | None = None,
) -> list[Problem]:
    """Return the format violations of a deck whose entries are resolved to card ids.

    `cards` maps card id to the card's database fields (`set`, `name`, `level`, ...). Raises
    FormatError when no list of the format is in force on `as_of` (default today).
    """
    lst = tournament_format.in_force(as_of)
    where = f"{tournament_format.title} (list of {lst.effective.isoformat()})"
    out: list[Problem] = []
    copies: dict[str, int] = {}
    entries: dict[str, list[DeckEntry]] = {}
    for entry, card_id in resolved:
        card = cards.get(card_id)
        label = card_label(card_id, card)
        if card_id in lst.banned:
            out.append(Problem("banned", "error", f"{label} is banned in {where}",
                                 entry.line, entry.column, (card_id,)))
        if lst.sets is not None:
            card_set = card.get("set") if card else None
            if card_set not in lst.sets:
                why = f"its set {card_set!r} is" if card_set else "it carries no set code, so it is"
                out.append(Problem("not-legal", "error",
                                     f"{label} is not legal in {where}: {why} not among the allowed sets "
                                     f"({', '.join(sorted(lst.sets))})", entry.line, entry.column, (card_id,)))
        copies[card_id] = copies.get(card_id, 0) + entry.count
        entries.setdefault(card_id, []).append(entry)

    for card_id, count in copies.items():
        if card_id in lst.banned:
            continue  # already reported entry by entry
        limit = lst.limit(card_id)
        if limit is None or count <= limit:
            continue
        kind = "restricted to 1 copy" if card_id in lst.restricted else f"limited to {limit} copies"
        first = entries[card_id][0]
        lines = [e.line for e in entries[card_id] if e.line is not None]
        at = f" (entries at lines {', '.join(map(str, lines))})" if len(lines) > 1 else ""
        out.append(Problem("restricted", "error",
                             f"{card_label(card_id, cards.get(card_id))} is {kind} in {where}; "
                             f"the deck holds {count}{at}", first.line, first.column, (card_id,)))
    out.sort(key=lambda v: (v.line is None, v.line or 0))
    return out
