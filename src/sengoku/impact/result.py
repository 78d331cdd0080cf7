"""`ImpactResult`: each card's effect (G9), its words, and the association columns beside it.

The effect of a card is the mean, over the runs played, of the card's deck's value minus the
full deck's on the same run: for the kill turn, turns (> 0: the deck is slower with one copy
fewer, so the card pulls its weight); for won by turn T, a share (> 0: the deck wins more
often without it, so it is dead weight). The words come from the corrected interval (see
`impact.race`): each says which side of 0 the effect is on, or that this precision cannot tell.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sengoku.display import json_ready
from sengoku.goldfish.options import PlayOptions
from sengoku.goldfish.statistics.paired import Sums, welch_interval
from sengoku.impact.cards import Subject
from sengoku.tune.race import Objective
from sengoku.version import __version__

SCHEMA_VERSION = 1  # schemas/impact.schema.json
PULLS = "pulls its weight"
DEAD = "dead weight"
UNTOLD = "cannot be told apart from nothing at this precision"
UNMEASURED = "cannot be measured"
WORDS = (PULLS, DEAD, UNTOLD, UNMEASURED)  # the order the answer lists them in

STOP_PRECISE = "precise"  # its 95% interval is at most ±precision wide (or every run alike)
STOP_DECIDED = "decided"  # its corrected interval leaves 0 out
STOP_BUDGET = "budget"  # the budget ran out while it raced
STOP_INTERRUPTED = "interrupted"
STOPS = {STOP_PRECISE: "precise enough", STOP_DECIDED: "decided", STOP_BUDGET: "budget spent",
         STOP_INTERRUPTED: "interrupted"}

CORRECTION = ("Bonferroni over the {m} card(s) measured, with a spending sequence over the looks (level "
              "{alpha} · 6/(π² j²) / {m} at look j)")


def association_of(sums: Sequence[tuple[Sums, Sums, Sums]], index: int | None, section: str) -> dict[str, Any] | None:
    """Return a card's association columns from the full deck's games; None for a card never in the Stronghold
    (a Nameless, S2; a familiar, S4; a card the Commander's copy is the only one of)."""
    if index is None or section != "main":
        return None
    opening, drawn, never = sums[index]
    if not (opening.n or drawn.n):
        return None
    between = welch_interval(never, drawn)

    def column(s: Sums) -> dict[str, Any]:
        return {"runs": s.n, "value": None if not s.n else round(s.mean, 4)}

    return {"opening_hand": column(opening), "drawn": column(drawn), "not_drawn": column(never),
            "drawn_minus_not_drawn": None if not (drawn.n and never.n) else round(drawn.mean - never.mean, 4),
            "ci95": None if between is None else [round(between[0], 4), round(between[1], 4)]}


@dataclass(frozen=True)
class CardImpact:
    """One card's row: its subject, the sums of its effect (None: not measured), intervals and associations."""

    subject: Subject
    sums: Sums | None
    ci95: tuple[float, float] | None  # the paired 95% interval (compare's)
    corrected: tuple[float, float] | None  # the interval the words come from
    level: float | None  # its two-sided level
    stop: str | None  # STOPS
    association: dict[str, Any] | None

    def verdict(self, objective: Objective) -> str:
        if self.sums is None:
            return UNMEASURED
        if self.corrected is None:
            return UNTOLD
        lo, hi = self.corrected
        slower = lo > 0
        faster = hi < 0
        if not (slower or faster):
            return UNTOLD
        # kill turn: slower without it -> it helps; won-by: winning less without it -> it helps
        helps = slower if objective.lower_is_better else faster
        return PULLS if helps else DEAD

    @property
    def effect(self) -> float | None:
        return None if self.sums is None else self.sums.mean

    def worth(self, objective: Objective) -> float:
        """The effect in the direction of 'pulls its weight' (larger: worth more); -inf when not measured."""
        if self.sums is None:
            return -math.inf
        return self.sums.mean if objective.lower_is_better else -self.sums.mean


@dataclass(frozen=True)
class ImpactResult:
    """What `impact()` found (see the module's docstring)."""

    path: str
    deck_name: str | None
    objective: Objective
    options: PlayOptions
    opponent: dict[str, Any]
    commander: dict[str, Any]
    precision: float
    budget: int
    error_rate: float
    drawn_by: int
    fillers: tuple[str, ...]
    only: tuple[str, ...]  # the cards --card asked for (card ids; empty: every card)
    names: Mapping[str, str]
    cards: tuple[CardImpact, ...]  # in the deck's order
    measured: int
    games: int
    runs: int  # the full deck's runs
    full_value: float
    looks: tuple[tuple[int, int], ...]  # (runs so far, cards racing) after each look
    stopped: str  # "done", STOP_BUDGET or STOP_INTERRUPTED

    def ranked(self) -> list[CardImpact]:
        """The cards by their words (in `WORDS` order), then by worth (most first), then by name."""
        return sorted(self.cards, key=lambda c: (WORDS.index(c.verdict(self.objective)), -c.worth(self.objective),
                                                 c.subject.label))

    def correction(self) -> str:
        return CORRECTION.format(m=self.measured, alpha=self.error_rate)

    @property
    def unit(self) -> str:
        return "turns" if self.objective.lower_is_better else "share"

    def to_json(self, indent: int | None = 2) -> str:
        """Return the JSON text (schemas/impact.schema.json; same inputs and seed, same bytes, for any executor)."""
        return json.dumps(json_ready(self.to_dict()), indent=indent, ensure_ascii=False) + "\n"

    def to_dict(self) -> dict[str, Any]:
        """The result as JSON values (schemas/impact.schema.json)."""

        def r(x: float | None) -> float | None:
            return None if x is None or not math.isfinite(x) else round(x, 4)

        def pair(ci: tuple[float, float] | None) -> list[float] | None:
            return None if ci is None else [round(ci[0], 4), round(ci[1], 4)]

        cards = []
        for rank, c in enumerate(self.ranked(), start=1):
            s = c.subject
            card = {"rank": rank, "id": s.card_id, "label": s.label, "section": s.section, "copies": s.copies,
                    "verdict": c.verdict(self.objective), "change": s.change_words(self.names),
                    "filler": s.filler, "reason": s.reason}
            if c.sums is not None:
                card.update({"runs": c.sums.n, "effect": r(c.sums.mean), "ci95": pair(c.ci95),
                             "no_interval": c.sums.no_interval(), "corrected": pair(c.corrected),
                             "corrected_level": c.level, "stopped": c.stop})
            else:
                card.update({"runs": 0, "effect": None, "ci95": None, "no_interval": None, "corrected": None,
                             "corrected_level": None, "stopped": None})
            card["association"] = c.association
            cards.append(card)
        return {
            "schema_version": SCHEMA_VERSION,
            "sengoku_version": __version__,
            "deck": self.path,
            "name": self.deck_name,
            "objective": {"name": self.objective.name, "turn": self.objective.turn,
                          "describe": self.objective.describe()},
            "options": self.options.to_dict(),
            "opponent": self.opponent,
            "commander": self.commander,
            "precision": self.precision,
            "budget": self.budget,
            "error_rate": self.error_rate,
            "correction": self.correction(),
            "drawn_by": self.drawn_by,
            "fillers": list(self.fillers),
            "games": self.games,
            "runs": self.runs,
            "full_deck": r(self.full_value),
            "looks": [{"runs": runs, "racing": racing} for runs, racing in self.looks],
            "stopped": self.stopped,
            "cards": cards,
        }
