"""The checker: one decklist against a game's compiled rules and a card catalog.

The checker knows nothing of output formats (reporters read its `ValidationResult`s) and
nothing of any one game: every game-specific fact comes from the rule file and the cards.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from sengoku.decklist.model import Decklist
from sengoku.carddb.catalog import Catalog
from sengoku.validate.code_checks import CODE_CHECKS, CheckContext
from sengoku.validate.deck_hash import deck_hash
from sengoku.validate.resolve import Resolution, resolve
from sengoku.validate.result import ValidationResult, Problem
from sengoku.validate.rules import Info, Rule, RuleBook, placeholders, render

FORMAT_UNKNOWN = "unknown-format"
SHOWN = ("name", "level", "epithet")  # what a report shows of a card beside its id


class _Plan:
    """A rule bound to one catalog: whether a card matches, its group key and copy limit.

    Each is worked out for a card the first time a deck names it, then kept: a run pays for the
    cards its decks hold, not for the whole database (one deck against 100,000 cards).
    """

    def __init__(self, rule: Rule, cards: Mapping[str, Mapping[str, Any]]):
        self.rule = rule
        self._cards = cards
        self._matches: dict[str, bool] = {}
        self._keys: dict[str, tuple[Any, ...]] = {}
        self._limits: dict[str, int | None] = {}
        # fields the message shows as {card.<field>}
        self.card_fields = tuple(p.split(".", 1)[1] for p in placeholders(rule.message) if p.startswith("card."))

    def matches(self, card_id: str) -> bool:
        """Tell whether the rule's `where` holds for the card (always, without one)."""
        where = self.rule.where
        if where is None:
            return True
        found = self._matches.get(card_id)
        if found is None:
            found = self._matches[card_id] = bool(where(self._cards[card_id]))
        return found

    def key(self, card_id: str) -> tuple[Any, ...]:
        """Return the card's group key for a `copies` rule (its values of the `per` fields)."""
        found = self._keys.get(card_id)
        if found is None:
            card = self._cards[card_id]
            found = self._keys[card_id] = tuple(card.get(f) for f in self.rule.per)
        return found

    def limit(self, card_id: str) -> int | None:
        """Return the card's copy limit for a `copies` rule (None: unlimited)."""
        if card_id not in self._limits:
            rule = self.rule
            if rule.limit_by is not None:
                self._limits[card_id] = rule.limits.get(self._cards[card_id].get(rule.limit_by))  # absent: unlimited
            else:
                self._limits[card_id] = rule.max if isinstance(rule.max, int) else None
        return self._limits[card_id]


class Checker:
    """Check decklists of one game against one card catalog; build once, check many decks."""

    def __init__(self, book: RuleBook, catalog: Catalog):
        self.book = book
        self.catalog = catalog
        self.plans = tuple(_Plan(rule, catalog.cards) for rule in book.rules)
        self.checks = tuple(CODE_CHECKS[name] for name in book.checks)

    def check(self, deck: Decklist, syntax: Iterable[Problem] = ()) -> ValidationResult:
        """Check one decklist; `syntax` are the problems found reading it (deck rules are then skipped)."""
        return self.check_resolved(deck, syntax)[0]

    def check_resolved(self, deck: Decklist, syntax: Iterable[Problem] = ()) -> tuple[ValidationResult, Resolution]:
        """Check one decklist; also return how its entries resolved (format checks need it)."""
        syntax = list(syntax)
        settings = deck.settings()
        if not syntax:  # a Decklist built in code skipped the reader's check of required keys
            syntax = [Problem("syntax", "error", f"a {self.book.game.title} decklist needs a top-level "
                                f"`{key}` ({spec.description or spec.type})")
                      for key, spec in self.book.game.keys.items() if spec.required and key not in settings]
        resolution = resolve(deck, self.catalog)
        violations = syntax + resolution.violations
        result = ValidationResult(path=deck.path, game=deck.game, mode=deck.mode, format=deck.format,
                                  sections=resolution.sections, db_name=self.catalog.name,
                                  db_version=self.catalog.version, db_hash=self.catalog.content_hash,
                                  name=deck.name if isinstance(deck.name, str) else None)
        for counts in resolution.sections.values():
            for card_id in counts:
                card = self.catalog.cards[card_id]
                result.cards[card_id] = {k: card[k] for k in SHOWN if k in card}
        if not syntax and not resolution.unresolved:  # every card known: the list can be named
            result.deck_hash = deck_hash(deck.game, deck.mode, resolution.sections, self.catalog.content_hash)
        for plan in self.plans:
            rule = plan.rule
            if rule.when is not None and not rule.when(settings):
                continue
            if rule.type == "forbid":
                violations.extend(self._forbid(plan, resolution))
            elif syntax:
                continue  # counts over a half-read deck would only add noise
            elif rule.type == "count":
                violations.extend(self._count(plan, deck, resolution, settings))
            else:
                violations.extend(self._copies(plan, resolution))
        for info in self.book.info:
            if info.when is None or info.when(settings):
                values = self._info(info, resolution, settings)
                if values:
                    result.info[info.id] = values
        if syntax:
            result.info["note"] = "deck-level rules were not checked: fix the syntax errors first"
        else:
            ctx = CheckContext(deck, self.catalog, resolution)
            for check in self.checks:
                violations.extend(check.run(ctx))
        violations.sort(key=lambda v: (v.line is None, v.line or 0, v.column or 0))
        result.violations = violations
        return result, resolution

    def _info(self, info: Info, res: Resolution, settings: Mapping[str, Any]) -> dict[str, Any]:
        """Return `card name -> base + card[add]` for the matching cards of an `[[info]]` table.

        Issue 5: champions reports each Champion's starting life (the table's base life plus the
        card's modifier); a report, not a check, so it never makes a deck invalid.
        """
        base = bound(info.base, settings) or 0
        out: dict[str, Any] = {}
        for section in info.sections:
            for card_id in res.sections.get(section, {}):
                card = self.catalog.cards[card_id]
                if info.where is not None and not info.where(card):
                    continue
                add = card.get(info.add)
                if _is_int(add):
                    out[str(card.get("name", card_id))] = base + add
        return out

    # --- rule types --------------------------------------------------------------------------

    def _card_values(self, plan: _Plan, card_id: str) -> dict[str, Any]:
        card = self.catalog.cards.get(card_id, {})
        values: dict[str, Any] = {"card": self.catalog.show(card_id)}
        for f in plan.card_fields:
            value = card.get(f)
            values[f"card.{f}"] = value.replace("_", " ") if isinstance(value, str) else value
        return values

    def _cards_shown(self, plan: _Plan, ids: list[str]) -> str:
        return ", ".join(self.catalog.show(i) for i in ids)

    def _count(self, plan: _Plan, deck: Decklist, res: Resolution, settings: Mapping[str, Any]) -> list[Problem]:
        rule = plan.rule
        total = 0
        ids: list[str] = []
        for section in rule.sections:
            for card_id, n in res.sections.get(section, {}).items():
                if plan.matches(card_id):
                    total += n
                    ids.append(card_id)
        lo, hi = bound(rule.min, settings), bound(rule.max, settings)
        if (lo is None or total >= lo) and (hi is None or total <= hi):
            return []
        values = {"count": total, "min": lo, "max": hi, "cards": self._cards_shown(plan, ids),
                  "sections": " and ".join(f"[[{s}]]" for s in rule.sections)}
        message = render(rule.message, values)
        missing = sum(res.unresolved.get(s, 0) for s in rule.sections)
        if missing:
            message += f" (not counting {missing} card(s) that could not be resolved)"
        pos = next((deck.positions[s] for s in rule.sections if s in deck.positions), (None, None))
        return [Problem(rule.id, rule.severity, message, pos[0], pos[1],
                          tuple(ids) if rule.show_cards else ())]

    def _copies(self, plan: _Plan, res: Resolution) -> list[Problem]:
        rule = plan.rule
        groups: dict[tuple[Any, ...], list[Any]] = {}  # key -> [count, [ids], first (section, id)]
        for section in rule.sections:
            for card_id, n in res.sections.get(section, {}).items():
                if not plan.matches(card_id):
                    continue
                group = groups.setdefault(plan.key(card_id), [0, [], (section, card_id)])
                group[0] += n
                group[1].append(card_id)
        out = []
        for key, (count, ids, first) in groups.items():
            limit = plan.limit(ids[0])
            if limit is None or count <= limit:
                continue
            entry = res.first_entry.get(first)
            values = {"count": count, "max": limit, "cards": self._cards_shown(plan, ids),
                      "sections": " and ".join(f"[[{s}]]" for s in rule.sections),
                      "key": " ".join(str(v) if f == "name" else f"{f} {v}" for f, v in zip(rule.per, key)),
                      **{f"key.{f}": v for f, v in zip(rule.per, key)}, **self._card_values(plan, ids[0])}
            out.append(Problem(rule.id, rule.severity, render(rule.message, values),
                                 entry.line if entry else None, entry.column if entry else None,
                                 tuple(ids) if rule.show_cards else ()))
        return out

    def _forbid(self, plan: _Plan, res: Resolution) -> list[Problem]:
        rule = plan.rule
        out = []
        for entry, card_id in res.resolved:
            if entry.section in rule.sections and plan.matches(card_id):
                values = {"section": entry.section, **self._card_values(plan, card_id)}
                out.append(Problem(rule.id, rule.severity, render(rule.message, values),
                                     entry.line, entry.column, (card_id,) if rule.show_cards else ()))
        return out


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def bound(given: int | str | None, settings: Mapping[str, Any]) -> int | None:
    """An integer bound, or the value of the top-level key it names (ignored when not a number)."""
    if isinstance(given, str):
        value = settings.get(given)
        return value if isinstance(value, int) and not isinstance(value, bool) else None
    return given
