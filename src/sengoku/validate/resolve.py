"""Resolve decklist entries to card ids: by id, or by name (+ level, + epithet).

Kept in code, not in the rule vocabulary: it is a lookup with tolerant matching and
suggestions, not a count over cards. Rule ids: `unknown-card`, `ambiguous-card` (errors) and
`duplicate-entry` (warning: the same card listed twice in a section is summed).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field

from sengoku.carddb.index import same_epithet
from sengoku.carddb.names import fold
from sengoku.decklist.model import DeckEntry, Decklist
from sengoku.carddb.catalog import Catalog
from sengoku.problems import Problem

UNKNOWN = "unknown-card"
AMBIGUOUS = "ambiguous-card"
DUPLICATE = "duplicate-entry"


@dataclass
class Resolution:
    """Every entry that found its card, the per-section counts, and what did not resolve."""

    resolved: list[tuple[DeckEntry, str]] = field(default_factory=list)
    sections: dict[str, dict[str, int]] = field(default_factory=dict)  # section -> card id -> count
    unresolved: dict[str, int] = field(default_factory=dict)  # section -> copies not resolved
    first_entry: dict[tuple[str, str], DeckEntry] = field(default_factory=dict)  # (section, id) -> entry
    violations: list[Problem] = field(default_factory=list)


def _entry_label(entry: DeckEntry) -> str:
    if entry.id is not None and entry.name is None:
        return f"id {entry.id!r}"
    label = repr(entry.name)
    if entry.level is not None:
        label += f" Level {entry.level}"
    if entry.epithet is not None:
        label += f" {entry.epithet!r}"
    return label


def _violation(rule: str, message: str, entry: DeckEntry, cards: tuple[str, ...], severity: str = "error") -> Problem:
    return Problem(rule=rule, severity=severity, message=f"[[{entry.section}]] {message}",
                     line=entry.line, column=entry.column, cards=cards)


def _suggestions(name: str, catalog: Catalog) -> str:
    names = [same_name[0]["name"] for same_name in catalog.index.close_names(name)]
    return f"; did you mean {' or '.join(repr(n) for n in names)}?" if names else ""


def resolve_entry(entry: DeckEntry, catalog: Catalog) -> tuple[str | None, Problem | None]:
    """Return the card id an entry names, or the violation saying why it names none or several."""
    cards = catalog.cards
    if entry.id is not None:
        by_id = catalog.index.with_id(str(entry.id))
        card_id = entry.id if entry.id in cards else by_id["id"] if by_id is not None else None
        if card_id is None:
            close = difflib.get_close_matches(entry.id, list(cards), n=3, cutoff=0.6)
            hint = f"; did you mean {' or '.join(close)}?" if close else ""
            return None, _violation(UNKNOWN, f"no card has id {entry.id!r}{hint}", entry, (entry.id,))
        card = cards[card_id]
        # A name given beside the id must agree with it, or the list says two different things.
        if entry.name is not None and fold(entry.name) != fold(str(card.get("name", ""))):
            return None, _violation(AMBIGUOUS, f"id {card_id!r} is {catalog.show(card_id)}, but the entry's "
                                    f"name says {entry.name!r}", entry, (card_id,))
        return card_id, None
    if not isinstance(entry.name, str):  # only a Decklist built in code can get here
        return None, _violation(UNKNOWN, "the entry names no card (no `name`, no `id`)", entry, ())
    named = [card["id"] for card in catalog.index.named(entry.name)]
    if not named:
        return None, _violation(UNKNOWN, f"no card is named {entry.name!r}{_suggestions(entry.name, catalog)}",
                                entry, (entry.name,))
    found = named
    if entry.level is not None:
        found = [c for c in found if cards[c].get("level") == entry.level]
    if entry.epithet is not None:
        found = [c for c in found if same_epithet(cards[c], entry.epithet)]
    if len(found) == 1:
        return found[0], None
    if not found:
        options = ", ".join(_option(catalog, c) for c in named)
        return None, _violation(UNKNOWN, f"no card matches {_entry_label(entry)}; {entry.name!r} is: {options}",
                                entry, tuple(named))
    options = ", ".join(_option(catalog, c) for c in found)
    need = "`level`" if entry.level is None and len({cards[c].get("level") for c in found}) > 1 else "`epithet`"
    return None, _violation(AMBIGUOUS, f"{_entry_label(entry)} matches {len(found)} cards ({options}); "
                            f"give {need} or `id`", entry, tuple(found))


def _option(catalog: Catalog, card_id: str) -> str:
    card = catalog.cards[card_id]
    parts = []
    if "level" in card:
        parts.append(f"Level {card['level']}")
    if card.get("epithet"):
        parts.append(repr(card["epithet"]))
    return f"{' '.join(parts)} [{card_id}]".strip()


def resolve(deck: Decklist, catalog: Catalog) -> Resolution:
    """Resolve every entry of a deck; sum repeated cards per section (and warn about them)."""
    out = Resolution()
    for entry in deck.entries:
        card_id, problem = resolve_entry(entry, catalog)
        counts = out.sections.setdefault(entry.section, {})
        if card_id is None:
            assert problem is not None
            out.violations.append(problem)
            out.unresolved[entry.section] = out.unresolved.get(entry.section, 0) + entry.count
            continue
        out.resolved.append((entry, card_id))
        if card_id in counts:
            first = out.first_entry[(entry.section, card_id)]
            out.violations.append(_violation(
                DUPLICATE, f"{catalog.show(card_id)} is listed again (first at line {first.line}); "
                f"the counts are added up ({counts[card_id]} + {entry.count})", entry, (card_id,), "warning"))
            counts[card_id] += entry.count
        else:
            counts[card_id] = entry.count
            out.first_entry[(entry.section, card_id)] = entry
    out.sections = {s: c for s, c in out.sections.items() if c}
    return out
