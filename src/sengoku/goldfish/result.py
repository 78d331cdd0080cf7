"""What a goldfish simulation returns, and its JSON form (byte-identical for the same inputs)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from sengoku.display import json_ready
from sengoku.version import __version__

# 2: curve entries count only the games still being played (`games`; a measure is null on a turn
# no game played), first_level3/4 gain `won_before`, and `kill_turn` and `play_on` are new.
# 3: opening-hand events are checked by the exact binomial tail (`tail`, `hits`; `opening_hand.check`)
# instead of a z-score (`z` is gone); an interval that cannot be computed (fewer than two games, or
# no spread) is null with `no_interval` saying why.
# 4: `check_player` (with `--check-player N`): the paired kill-turn gap between the policy and a search.
SCHEMA_VERSION = 4


@dataclass(frozen=True)
class GoldfishResult:
    """The statistics of `runs` goldfish games of one deck (SPEC G1-G3).

    `curve` holds one object per turn (numbered from 1) with `turn`, `games` (the games still
    being played that turn: a won game stops at its win unless `play_on`) and, for every engine
    measure, `{mean, p10, p50, p90}` over those games (None when there are none);
    `opening_hand["probabilities"]` each hold `event`, `exact`, `simulated`, `hits`, `ci95`,
    `tail` (the exact two-sided binomial tail of the hits under the exact probability) and `ok`
    (False: the tail is below `opening_hand["check"]["threshold"]`, a bug in the simulation). `kill_turn` says on which turn the games
    were won (G5; see `goldfish.kill_turn.kill_turn_summary`).
    """

    runs: int
    turns: int
    seed: int
    going: str
    policy: str
    mode: str
    commander: dict[str, Any]
    deck: dict[str, Any]
    card_db: dict[str, Any]
    opening_hand: dict[str, Any]
    curve: list[dict[str, Any]]
    first_level3: dict[str, Any]
    first_level4: dict[str, Any]
    skipped_abilities: dict[str, Any]
    kill_turn: dict[str, Any]
    play_on: bool
    measures: tuple[str, ...] = field(default=())
    precision: dict[str, Any] | None = None  # with --precision: target, half_width, reached, rounds
    # Asked for with `goldfish(kill_turns=True)`: run i's kill turn at index i (0: not won). Not in the JSON.
    run_kill_turns: Any = field(default=None, repr=False, compare=False)
    # The options record it was played with (its mode the one played). Its fields above are what the JSON prints.
    options: Any = field(default=None, repr=False, compare=False)
    # Asked for with `goldfish(traces=...)`: those runs played again with their events (`goldfish.play.traced`).
    traced: tuple[Any, ...] = field(default=(), repr=False, compare=False)
    # Asked for with `goldfish(check_player=N)`: a `goldfish.player_check.PlayerCheck`, in the JSON as `check_player`.
    check_player: Any = field(default=None, repr=False, compare=False)

    @property
    def errors(self) -> list[dict[str, Any]]:
        """Return the opening-hand events whose simulated count fails the exact binomial check (a bug)."""
        return [p for p in self.opening_hand["probabilities"] if not p["ok"]]

    @property
    def ok(self) -> bool:
        return not self.errors

    def to_dict(self) -> dict[str, Any]:
        """Return the result as plain JSON-ready data."""
        return {
            "schema_version": SCHEMA_VERSION,
            "sengoku_version": __version__,  # which games a seed gives may change between versions
            "runs": self.runs,
            "turns": self.turns,
            "seed": self.seed,
            "going": self.going,
            "policy": self.policy,
            "mode": self.mode,
            "play_on": self.play_on,
            **({"precision": self.precision} if self.precision is not None else {}),
            "commander": self.commander,
            "deck": self.deck,
            "card_db": self.card_db,
            "opening_hand": self.opening_hand,
            "kill_turn": self.kill_turn,
            "curve": self.curve,
            "first_level3": self.first_level3,
            "first_level4": self.first_level4,
            "skipped_abilities": self.skipped_abilities,
            **({"check_player": self.check_player.to_dict()} if self.check_player is not None else {}),
            "errors": [error_message(p, self.runs, self.opening_hand["check"]) for p in self.errors],
        }

    def to_json(self, indent: int | None = 2) -> str:
        """Return the JSON text (same inputs and seed give the same bytes)."""
        return json.dumps(json_ready(self.to_dict()), indent=indent, ensure_ascii=False, allow_nan=False) + "\n"


def error_message(event: dict[str, Any], runs: int, check: dict[str, Any]) -> str:
    """Return why an opening-hand event failed its check, in one line."""
    return (f"{event['event']}: {event['hits']} of {runs} simulated hands, where the exact probability is "
            f"{event['exact']}: two-sided binomial tail {event['tail']:.3g}, below the alarm threshold "
            f"{check['threshold']:.3g}")
