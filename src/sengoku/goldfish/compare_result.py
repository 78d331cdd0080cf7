"""What `compare()` returns: every deck's own `GoldfishResult` and the differences against the baseline."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sengoku.display import json_ready
from sengoku.goldfish.statistics.differences import KILL_TURN_MEAN, WON_BY_TURN
from sengoku.goldfish.statistics.kill_turn import MIRROR
from sengoku.goldfish.statistics.probability import FALSE_ALARM, alarm_threshold
from sengoku.goldfish.result import GoldfishResult, error_message
from sengoku.version import __version__

# 2: `opening_hand_check` (the exact binomial check over every deck's events, and the events that
# failed it) replaces the z-scores; each deck's `opening_hand` is goldfish's own (schema 3); an
# undefined interval is null with `no_interval` saying why, and its verdict is "no verdict".
# (Since then, added without breaking: `opponent`, who every deck played against.)
SCHEMA_VERSION = 2


@dataclass(frozen=True)
class CompareResult:
    """Decks compared on the same runs; `decks[0]` (at `paths[0]`) is the baseline.

    `decks` are the decks' own results (as `goldfish()` gives them, played on the same runs);
    `differences` the rows of `goldfish.differences` (measure, turn, deck, baseline, value,
    base_value, diff, ci95, verdict, …) of every other deck against the baseline; `precision`
    how a `precision` target went (None without one).
    """

    decks: tuple[GoldfishResult, ...]
    paths: tuple[str, ...]
    differences: tuple[dict[str, Any], ...]
    precision: dict[str, Any] | None = None

    @property
    def baseline(self) -> GoldfishResult:
        return self.decks[0]

    @property
    def runs(self) -> int:
        return self.baseline.runs

    @property
    def turns(self) -> int:
        return self.baseline.turns

    @property
    def opponent(self) -> dict[str, Any]:
        """Who every deck played against (G4): the baseline deck (`baseline` true) unless an opponent was given.

        Each deck's own `kill_turn["opponent"]` says the same from its side: the baseline's is "mirror".
        """
        own = self.baseline.kill_turn["opponent"]
        if own["deck"] == MIRROR:
            return {"deck": self.paths[0], "name": own["name"], "defends": own["defends"], "baseline": True}
        return {**own, "baseline": False}

    def rows(self, measure: str, deck: str | None = None) -> list[dict[str, Any]]:
        """Return the difference rows of one measure (and one deck's only, given its path)."""
        return [r for r in self.differences if r["measure"] == measure and deck in (None, r["deck"])]

    def verdicts(self) -> list[dict[str, Any]]:
        """Return per deck after the baseline its verdict on the mean kill turn and on P(won by the last turn)."""
        out = []
        for path in self.paths[1:]:
            kill = self.rows(KILL_TURN_MEAN, path)[0]
            last = [r for r in self.rows(WON_BY_TURN, path) if r["turn"] == self.turns][0]
            out.append({"deck": path, "kill_turn": kill["verdict"], "won_by_last_turn": last["verdict"]})
        return out

    @property
    def check(self) -> dict[str, Any]:
        """The opening-hand check of the whole comparison: one run checks every deck's events.

        The false-alarm chance is split over all of them (Bonferroni), so the threshold is lower
        than each deck's alone; each deck's own result keeps the one `goldfish` would give it.
        """
        events = sum(len(d.opening_hand["probabilities"]) for d in self.decks)
        return {"method": "exact binomial tail, two-sided", "false_alarm": FALSE_ALARM, "events": events,
                "threshold": alarm_threshold(events)}

    def failures(self) -> list[tuple[str, dict[str, Any]]]:
        """Return (deck path, event) of every opening-hand event whose tail is below the comparison's threshold."""
        threshold = self.check["threshold"]
        return [(path, p) for path, d in zip(self.paths, self.decks)
                for p in d.opening_hand["probabilities"] if p["tail"] < threshold]

    @property
    def ok(self) -> bool:
        """False when a deck's simulated opening hands stray from the exact values (a bug)."""
        return not self.failures()

    def to_dict(self) -> dict[str, Any]:
        base = self.baseline
        check = self.check
        return {
            "schema_version": SCHEMA_VERSION,
            "sengoku_version": __version__,
            "runs": self.runs,
            "turns": self.turns,
            "seed": base.seed,
            "going": base.going,
            "policy": base.policy,
            "mode": base.mode,
            "play_on": base.play_on,
            "baseline": self.paths[0],
            "opponent": self.opponent,
            "kill_turn_never_counts_as": self.turns + 1,
            **({"precision": self.precision} if self.precision is not None else {}),
            # the comparison's own check, over every deck's events; each deck's `opening_hand` is the
            # one `goldfish` gives it alone (the same games, the same bytes)
            "opening_hand_check": {**check, "failed": [{"deck": path, "event": p["event"], "tail": p["tail"]}
                                                       for path, p in self.failures()]},
            "decks": [{"deck": path, "name": d.deck.get("name"), "runs": d.runs, "commander": d.commander,
                       "kill_turn": d.kill_turn, "curve": d.curve, "opening_hand": d.opening_hand}
                      for path, d in zip(self.paths, self.decks)],
            "differences": list(self.differences),
            "verdicts": self.verdicts(),
            "errors": [f"{path}: {error_message(p, self.runs, check)}" for path, p in self.failures()],
        }

    def to_json(self, indent: int | None = 2) -> str:
        """Return the JSON text (same inputs and seed give the same bytes, for any jobs)."""
        return json.dumps(json_ready(self.to_dict()), indent=indent, ensure_ascii=False, allow_nan=False) + "\n"

