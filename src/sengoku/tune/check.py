"""Whether a one-card change keeps a legal deck legal: the validator's verdict, worked out from the counts it touches.

The validator checks a whole decklist: it resolves every entry, sums every rule's cards and
groups, and applies the tournament format. A tune asks that question of every one-card change
of one deck, about 1,200 times a step with the sample set's pool and tens of thousands with a
database of thousands of cards. Here the deck is checked whole once (`ChangeCheck`), and each
rule's sums are kept; a change (one copy out of a section, one in) then moves only the sums
that hold the two cards:

- a `count` rule (D1 deck size, D2 Nameless, D4 Commander, D5, D6): its total, by the cards'
  matches, against its bounds;
- a `copies` rule (D3 copy limit, D5 singleton): the groups of the two cards (their `per`
  fields), against the limit of the group's first card as the checker reads it;
- a `forbid` rule (D8 wrong section): the card that goes in;
- the tournament format's list in force: the card that goes in (banned, its set), and its
  copies over every section (restricted, limited).

Rules of warning severity never make a deck illegal, so they are not followed. A game whose
code checks (`validate.code_checks`) can report errors, or a deck that is not legal to begin
with, is checked whole for every change instead: the verdict is the validator's either way
(the tests compare the two on every change of several decks and pools).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sengoku.decklist.model import Decklist
from sengoku.tune.deck import Change, Deck, decklist
from sengoku.validate.api import Validator
from sengoku.validate.deck_check import bound

ERROR = "error"


class _Copies:
    """A `copies` rule's groups in the deck: group key -> {(place of the section in the rule, card id): copies}."""

    def __init__(self, plan: Any, counts: Mapping[str, Mapping[str, int]]) -> None:
        self.plan = plan
        self.sections = plan.rule.sections
        self.fixed = plan.rule.limit_by is None  # one limit for every group (D3's 3): only growth matters
        self.groups: dict[tuple[Any, ...], dict[tuple[int, str], int]] = {}
        for place, section in enumerate(self.sections):
            for card_id, n in counts.get(section, {}).items():
                if plan.matches(card_id):
                    self.groups.setdefault(plan.key(card_id), {})[(place, card_id)] = n
        self.totals = {key: sum(members.values()) for key, members in self.groups.items()}
        self._keys: dict[str | None, Any] = {}
        self._fits: dict[str | None, bool] = {}

    def _key(self, card: str | None) -> tuple[Any, ...] | None:
        """Return the group of a card the rule counts (None: it counts no such card), remembered."""
        found = self._keys.get(card, False)
        if found is False:
            plan = self.plan
            found = self._keys[card] = plan.key(card) if card is not None and plan.matches(card) else None
        return found  # type: ignore[return-value]

    def allows(self, section: str, out: str | None, into: str | None) -> bool:
        if section not in self.sections:
            return True
        plan = self.plan
        key_out, key_in = self._key(out), self._key(into)
        if key_in is None and (self.fixed or key_out is None):
            return True  # a group only shrinks, under a limit that cannot move
        if self.fixed:  # one limit for all: only the group of the card going in can break it, by growing
            if key_in == key_out:
                return True
            fits = self._fits.get(into)
            if fits is None:
                limit = plan.limit(into)  # type: ignore[arg-type]
                fits = self._fits[into] = limit is None or self.totals.get(key_in, 0) + 1 <= limit  # type: ignore[arg-type]
            return fits
        place = self.sections.index(section)
        for key in {k for k in (key_out, key_in) if k is not None}:
            members = dict(self.groups.get(key, {}))
            if key == key_out:
                members[(place, out)] = members.get((place, out), 0) - 1  # type: ignore[index]
            if key == key_in:
                members[(place, into)] = members.get((place, into), 0) + 1  # type: ignore[index]
            members = {m: n for m, n in members.items() if n > 0}
            if not members:
                continue
            limit = plan.limit(min(members)[1])  # the checker's: the first card of the group, in its order
            if limit is not None and sum(members.values()) > limit:
                return False
        return True


class ChangeCheck:
    """Tell whether one-card changes of a deck are legal decks (`legal(change)`), as the validator would.

    Built once per deck (one full check); each `legal()` then looks up a few sums.
    """

    def __init__(self, validator: Validator, deck: Deck, like: Decklist) -> None:
        self.deck, self.like, self.validator = deck, like, validator
        listed = decklist(deck, like)
        whole = validator.validate_deck(listed)
        checker = validator.checker(listed.game)
        self._cards = checker.catalog.cards
        # Checked whole for every change: a deck that is not legal itself (its own errors could
        # stay), or code checks that may report errors (they join cards in ways no sum follows).
        self.whole = not whole.valid or any(c.severity == ERROR for c in checker.checks)
        settings = listed.settings()
        counts = deck.sections()
        self._counts: list[tuple[Any, tuple[str, ...], int | None, int | None, int]] = []
        self._copies: list[_Copies] = []
        self._forbid: list[Any] = []
        for plan in checker.plans:
            rule = plan.rule
            if rule.severity != ERROR or (rule.when is not None and not rule.when(settings)):
                continue
            if rule.type == "count":
                total = sum(n for s in rule.sections for cid, n in counts.get(s, {}).items() if plan.matches(cid))
                self._counts.append((plan, rule.sections, bound(rule.min, settings), bound(rule.max, settings),
                                     total))
            elif rule.type == "copies":
                self._copies.append(_Copies(plan, counts))
            else:
                self._forbid.append(plan)
        self._format = None if self.whole else validator.format_list(listed)
        # remembered per (section, card): what a copy going in or coming out does; and per pair of those,
        # whether the count rules still hold
        self._in: dict[tuple[str, str | None], tuple[int, ...] | bool] = {}
        self._out: dict[tuple[str, str | None], tuple[int, ...]] = {}
        self._counted: dict[tuple[Any, ...], bool] = {}
        self._copies_by_id: dict[str, int] = {}
        for cards in counts.values():
            for card_id, n in cards.items():
                self._copies_by_id[card_id] = self._copies_by_id.get(card_id, 0) + n

    def legal(self, change: Change) -> bool:
        """Tell whether the deck after `change` passes the validator (errors only; warnings allowed)."""
        if self.whole:
            return self.validator.validate_deck(decklist(self.deck.apply(change), self.like)).valid
        section, out, into = change.section, change.out, change.into
        going_in = self._in.get((section, into))
        if going_in is None:
            going_in = self._in[(section, into)] = self._going_in(section, into)
        if going_in is False:
            return False
        coming_out = self._out.get((section, out))
        if coming_out is None:
            coming_out = self._out[(section, out)] = self._matches(section, out)
        counted = self._counted.get((going_in, coming_out))
        if counted is None:
            counted = self._counted[(going_in, coming_out)] = all(
                (lo is None or total + a - b >= lo) and (hi is None or total + a - b <= hi)
                for (_, _, lo, hi, total), a, b in zip(self._counts, going_in, coming_out))
        if not counted:
            return False
        for copies in self._copies:
            if not copies.allows(section, out, into):
                return False
        return True

    def _matches(self, section: str, card: str | None) -> tuple[int, ...]:
        """Return, per count rule, 1 when a copy of `card` in `section` counts for it."""
        return tuple(int(card is not None and section in sections and plan.matches(card))
                     for plan, sections, _, _, _ in self._counts)

    def _going_in(self, section: str, into: str | None) -> tuple[int, ...] | bool:
        """Return False when a copy of `into` can never join `section` (an unknown card, a forbidden one, one
        the format refuses), else its `_matches`."""
        if into is not None:
            if into not in self._cards:
                return False  # unknown-card
            if any(section in plan.rule.sections and plan.matches(into) for plan in self._forbid):
                return False
            listed = self._format
            if listed is not None:
                if into in listed.banned:
                    return False
                if listed.sets is not None and self._cards[into].get("set") not in listed.sets:
                    return False
                limit = listed.limit(into)
                if limit is not None and self._copies_by_id.get(into, 0) + 1 > limit:
                    return False
        return self._matches(section, into)
