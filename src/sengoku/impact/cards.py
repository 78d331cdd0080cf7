"""The cards `impact` measures: each distinct card of the deck and the legal deck without one copy of it (G9).

A distinct card is a card id: name, level and epithet (familiars too in Ultimate Mode). Its
deck is the full deck with one copy fewer (tune's one-card change, `tune.deck.Change`), when the
validator accepts that deck (tournament format included). When it does not (a 50-card deck,
the two Nameless, a lone Familiar Egg, ...), one copy is replaced instead by a `--filler` card of
the same section's kind, if one was given and that deck is legal; otherwise the card cannot be
measured, and `reason` says why in the validator's words.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from sengoku.carddb.models import CardDatabase
from sengoku.decklist.model import Decklist
from sengoku.display import printable
from sengoku.goldfish.errors import GoldfishError
from sengoku.tune.candidates import SECTION_KINDS
from sengoku.tune.deck import Change, Deck, decklist
from sengoku.validate.api import Validator

ONE_FEWER = "one copy fewer"
REPLACED = "one copy replaced"
NOT_MEASURED = "not measured"


class ImpactError(GoldfishError):
    """Options `impact` cannot run with (exit 2)."""


@dataclass(frozen=True)
class Subject:
    """One distinct card of the deck, and the deck its impact is measured with (None: it cannot be)."""

    card_id: str
    label: str  # 'Kagetora Lv4' (with the epithet where name and level are shared)
    section: str
    copies: int
    how: str  # ONE_FEWER, REPLACED or NOT_MEASURED
    filler: str | None = None  # the filler's card id (REPLACED)
    change: Change | None = None  # the one-card change of the full deck that makes the deck measured
    deck: Deck | None = None
    reason: str | None = None  # why one copy fewer is not the measure (REPLACED) or why none is (NOT_MEASURED)

    @property
    def measured(self) -> bool:
        return self.deck is not None

    def change_words(self, names: Mapping[str, str]) -> str:
        """Say what the measured deck changes: 'one copy fewer' or 'one copy replaced by Soma Lv1'."""
        if self.how == REPLACED and self.filler is not None:
            return f"{REPLACED} by {names.get(self.filler, self.filler)}"
        return self.how


def resolve_card(text: str, card_db: CardDatabase, names: Mapping[str, str], option: str) -> str:
    """Return the card id `text` names: a card id, a label such as 'Soma Lv1', or a name only one card has.

    An unknown or ambiguous name is an `ImpactError` naming `option` and what was meant.
    """
    wanted = " ".join(text.split()).casefold()
    cards = card_db.cards
    for matches in ([c.id for c in cards if c.id.casefold() == wanted],
                    [cid for cid, label in names.items() if label.casefold() == wanted
                     or label.replace("“", "").replace("”", "").casefold() == wanted],
                    [c.id for c in cards if c.name.casefold() == wanted]):
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            shown = ", ".join(printable(names[m]) for m in sorted(matches, key=lambda m: names[m])[:8])
            raise ImpactError(f"{option} {printable(text)!r} names {len(matches)} cards ({shown}): "
                              "add the level, as in 'Soma Lv1', or give the card id")
    raise ImpactError(f"{option} {printable(text)!r}: no card of the card database has that id, name or "
                      "'Name LvN' label")


def measured_cards(deck: Deck, mode: str, names: Mapping[str, str], only: Sequence[str]) -> list[tuple[str, str, int]]:
    """Return (section, card id, copies) of each distinct card to measure, in the deck's order.

    Standard Mode plays no Familiar Deck (D7): its familiars are not measured. `only` (card ids)
    keeps those cards alone; a card it names that the deck does not hold is an `ImpactError`.
    """
    found = [(section, cid, n) for section, cards in deck.counts if section != "familiars" or mode == "ultimate"
             for cid, n in cards]
    if only:
        held = {cid for _, cid, _ in found}
        missing = [names.get(cid, cid) for cid in only if cid not in held]
        if missing:
            raise ImpactError(f"--card {printable(missing[0])}: the deck holds no such card"
                              + (" (in this mode)" if mode != "ultimate" else ""))
        found = [row for row in found if row[1] in set(only)]
    return found


def subjects(deck: Deck, like: Decklist, mode: str, card_db: CardDatabase, validator: Validator,
             names: Mapping[str, str], fillers: Iterable[str] = (), only: Sequence[str] = ()) -> list[Subject]:
    """Return every card to measure and its deck: one copy fewer, else one replaced by a filler, else why not."""
    kinds = {c.id: c.kind for c in card_db.cards}
    filler_ids = list(fillers)
    out = []
    for section, cid, copies in measured_cards(deck, mode, names, only):
        label = names.get(cid, cid)
        fewer = deck.apply(Change(section, cid, None))
        why = _illegal(fewer, like, validator)
        if why is None:
            out.append(Subject(cid, label, section, copies, ONE_FEWER, change=Change(section, cid, None), deck=fewer))
            continue
        fits = [f for f in filler_ids if kinds.get(f) in SECTION_KINDS.get(section, ()) and f != cid]
        if not fits:
            hint = (f"give --filler a {' or '.join(SECTION_KINDS.get(section, (section,)))} card to replace one copy"
                    if not filler_ids or all(f == cid for f in filler_ids)
                    else f"no --filler card may stand in the {section} section")
            out.append(Subject(cid, label, section, copies, NOT_MEASURED, reason=f"one copy fewer: {why}; {hint}"))
            continue
        swap = Change(section, cid, fits[0])
        replaced = deck.apply(swap)
        why_not = _illegal(replaced, like, validator)
        if why_not is None:
            out.append(Subject(cid, label, section, copies, REPLACED, filler=fits[0], change=swap, deck=replaced,
                               reason=f"one copy fewer: {why}"))
        else:
            out.append(Subject(cid, label, section, copies, NOT_MEASURED,
                               reason=f"one copy fewer: {why}; one copy replaced by {names.get(fits[0], fits[0])}: "
                               f"{why_not}"))
    return out


def _illegal(deck: Deck, like: Decklist, validator: Validator) -> str | None:
    """Return the validator's first error for `deck` (with its rule), or None when the deck is legal."""
    result = validator.validate_deck(decklist(deck, like))
    if result.valid:
        return None
    first = result.errors[0] if result.errors else result.violations[0]
    return f"{first.message} ({first.rule})"
