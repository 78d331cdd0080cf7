"""What `tune()` returns: the path of accepted changes, the races, the final deck, and its checks.

The JSON (`to_json`, schema `schemas/tune.schema.json`) holds nothing that depends on the
machine, the executor or the number of workers: the same inputs and seed give the same bytes.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from sengoku.carddb.models import CardDatabase
from sengoku.decklist.model import Decklist
from sengoku.display import json_ready, printable
from sengoku.goldfish.options import PlayOptions
from sengoku.tune.deck import Change, Deck, deck_text
from sengoku.tune.race import Objective
from sengoku.version import __version__

SCHEMA_VERSION = 3  # 3: a check's ci95 is null without an interval, no_interval says why

STOP_BUDGET = "budget"
STOP_NO_IMPROVEMENT = "no-improvement"
STOP_MAX_CHANGES = "max-changes"
STOP_INTERRUPTED = "interrupted"
STOP_NO_CANDIDATE = "no-candidate"
STOPS = {
    STOP_BUDGET: "the budget of games is spent",
    STOP_NO_IMPROVEMENT: "no candidate can improve on the last deck",
    STOP_MAX_CHANGES: "--max-changes changes were accepted",
    STOP_INTERRUPTED: "interrupted (Ctrl-C, SIGTERM or SIGHUP): the best deck so far",
    STOP_NO_CANDIDATE: "no legal one-card change exists",
}
STAGES = {"screen": "screening", "confirm": "confirmation"}  # a race look's stage, in words
METHOD = ("paired race on common random numbers, in two stages on fresh run indices each: screening plays every "
          "candidate on the incumbent's runs (50, 100, 200, ... runs; doubled each attempt) and keeps the best quarter "
          "by mean until at most 4 finalists are left; confirmation plays the finalists on new runs, looks after "
          "100, 200, 400, ... runs, and accepts one when the one-sided Student-t lower bound of its mean "
          "improvement at level error_rate * 6/(pi^2 a^2) / m * 6/(pi^2 j^2) (attempt a, m finalists, look j) is "
          "above 0 (Bonferroni over the finalists, spending sequences over looks and attempts; at most 3 "
          "attempts). In both stages a candidate is dropped when the upper end of its paired 95% interval is "
          "below min_gain or below the lower end of the leader's")


@dataclass(frozen=True)
class Step:
    """An accepted change, with the race that chose it (values in objective units)."""

    change: Change
    label: str
    before: float  # the incumbent's mean over the confirmation's runs
    after: float  # the new deck's mean over the same runs
    diff: float  # after - before
    ci95: tuple[float, float]  # paired 95% interval of diff
    bound: float  # the one-sided confidence bound of the improvement that accepted it (> 0)
    level: float  # its one-sided level
    look: int  # the confirmation look that accepted it
    runs: int  # runs the confirmation played (the runs that accepted it)
    run_start: int  # the confirmation's first run index
    games: int  # games the race played (every deck, every stage and attempt)
    candidates: int  # legal candidates that raced
    attempt: int  # the screen-and-confirm attempt that accepted it
    finalists: int  # candidates the screening sent to that confirmation (the Bonferroni count)


@dataclass(frozen=True)
class Race:
    """How one race went."""

    candidates: int
    refused: int  # changes whose deck the validator refused
    looks: tuple[tuple[str, int, int, int], ...]  # (stage, attempt, runs played in the stage, candidates left)
    games: int
    outcome: str  # "accepted", STOP_NO_IMPROVEMENT, "run-limit", STOP_BUDGET, STOP_INTERRUPTED
    run_start: int


@dataclass(frozen=True)
class Pairwise:
    """A paired comparison of the final deck against the start on fresh runs (values in objective units)."""

    policy: str
    runs: int
    run_start: int
    start: float
    final: float
    diff: float
    ci95: tuple[float, float] | None  # None: no interval (compare's rule), `no_interval` says why
    no_interval: str | None = None


def _r(x: float | None, digits: int = 6) -> float | None:
    return None if x is None or not math.isfinite(x) else round(x, digits)


def _ci(ci: tuple[float, float]) -> list[float | None]:
    return [_r(ci[0]), _r(ci[1])]


@dataclass(frozen=True)
class TuneResult:
    """A tune's outcome (see the module docstring)."""

    path: str
    objective: Objective
    options: PlayOptions  # what it was tuned with (the mode the one played)
    opponent: dict[str, Any]  # the opponent's deck and whether it defends (G4)
    budget: int
    max_changes: int | None
    error_rate: float
    min_gain: float
    pool_source: str
    pool: int
    card_db: CardDatabase
    like: Decklist
    names: dict[str, str]
    start: Deck
    final: Deck
    steps: tuple[Step, ...]
    races: tuple[Race, ...]
    games: int
    stopped: str
    start_value: float | None
    check: Pairwise | None
    verify: Pairwise | None

    @property
    def turns(self) -> int:
        return self.options.turns

    @property
    def seed(self) -> int:
        return self.options.seed

    @property
    def policy(self) -> str:
        return str(self.options.policy)

    @property
    def going(self) -> str:
        return self.options.going

    @property
    def mode(self) -> str:
        return str(self.options.mode)

    @property
    def play_on(self) -> bool:
        return self.options.play_on

    @property
    def interrupted(self) -> bool:
        return self.stopped == STOP_INTERRUPTED

    @property
    def notice(self) -> str | None:
        """What a reader must not take from a tune that accepted nothing: that the start deck is the best.

        Said when the budget ran out before the race decided anything (None otherwise).
        """
        if self.steps or self.stopped != STOP_BUDGET or not self.races:
            return None
        looks = self.races[-1].looks
        where = (f" ({looks[-1][3]:,} of {self.races[-1].candidates:,} candidates still racing after "
                 f"{looks[-1][2]:,} runs of {STAGES[looks[-1][0]]})" if looks else "")
        return (f"the budget ran out before the race could decide{where}: no change was accepted, but none was "
                "ruled out either, so the start deck is not shown to be the best; a larger --budget races on")

    def decklist_text(self, db: Any = None) -> str:
        """Return the final deck as decklist TOML in canonical form (as `sengoku fmt` writes it)."""
        source = printable(self.path)
        comments = [f"Tuned by `sengoku tune` from {source}: {len(self.steps)} change(s), objective "
                    f"{self.objective}, policy {self.policy}, going {self.going}, {self.turns} turns, seed {self.seed}."]
        comments += [f"{k}. {s.label}" for k, s in enumerate(self.steps, start=1)]
        return deck_text(self.final, self.like, self.card_db, comments, db=db)

    def _card(self, cid: str | None) -> dict[str, Any] | None:
        if cid is None:
            return None
        card = self.card_db.by_id()[cid]
        return {"id": cid, "name": card.name, "level": card.level, "epithet": card.epithet}

    def _pairwise(self, p: Pairwise | None) -> dict[str, Any] | None:
        if p is None:
            return None
        return {"policy": p.policy, "runs": p.runs, "run_start": p.run_start, "start": _r(p.start),
                "final": _r(p.final), "diff": _r(p.diff), "ci95": None if p.ci95 is None else _ci(p.ci95),
                "no_interval": p.no_interval}

    def to_dict(self) -> dict[str, Any]:
        db = self.card_db
        return {
            "schema_version": SCHEMA_VERSION,
            "sengoku_version": __version__,
            "deck": self.path,
            "objective": {"name": self.objective.name, "turn": self.objective.turn,
                          "lower_is_better": self.objective.lower_is_better, "description": self.objective.describe()},
            "tuned_for": {"policy": self.options.policy.to_json(), "going": self.going, "turns": self.turns,
                          "mode": self.mode, "opponent": self.opponent, "play_on": self.play_on},
            "seed": self.seed,
            "budget": self.budget,
            "max_changes": self.max_changes,
            "error_rate": self.error_rate,
            "min_gain": self.min_gain,
            "method": METHOD,
            "pool": {"source": self.pool_source, "cards": self.pool},
            "card_db": {"name": db.meta.name, "version": db.meta.version, "sha256": db.content_hash},
            "games": self.games,
            "stopped": self.stopped,
            "stopped_because": STOPS[self.stopped],
            "notice": self.notice,
            "start_value": _r(self.start_value),
            "changes": [{
                "step": k, "section": s.change.section, "out": self._card(s.change.out),
                "in": self._card(s.change.into), "label": s.label, "before": _r(s.before), "after": _r(s.after),
                "diff": _r(s.diff), "ci95": _ci(s.ci95), "bound": _r(s.bound), "level": s.level, "look": s.look,
                "runs": s.runs, "run_start": s.run_start, "games": s.games, "candidates": s.candidates,
                "attempt": s.attempt, "finalists": s.finalists,
            } for k, s in enumerate(self.steps, start=1)],
            "races": [{"candidates": r.candidates, "refused": r.refused, "run_start": r.run_start,
                       "looks": [{"stage": stage, "attempt": a, "runs": n, "racing": left}
                                 for stage, a, n, left in r.looks], "games": r.games,
                       "outcome": r.outcome} for r in self.races],
            "check": self._pairwise(self.check),
            "verify": self._pairwise(self.verify),
            "decklist": self.decklist_text(),
        }

    def to_json(self, indent: int | None = 2) -> str:
        """Return the JSON text (same inputs and seed give the same bytes, for any executor)."""
        return json.dumps(json_ready(self.to_dict()), indent=indent, ensure_ascii=False) + "\n"
