"""Play one run of a goldfish simulation again, recording its events (G8).

A run is a pure function of (deck, card DB, options, seed, run index): `trace_run` prepares the
deck exactly as `goldfish()` does and plays the run through the simulation's own `play_run`, so
the trace is the game the simulation counted. Asked for the fastest, median or slowest game, it
first plays all the runs (keeping each run's kill turn) and picks one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sengoku.carddb.playable import load_cards
from sengoku.decklist.model import Decklist
from sengoku.goldfish.api import check_runs, goldfish_kind, prepare_engine, read_deck
from sengoku.goldfish.errors import GoldfishError
from sengoku.goldfish.options import DEFAULT_RUNS, PlayOptions
from sengoku.goldfish.play.simulate import play_all
from sengoku.goldfish.play.traced import CHOICES, TracedRun, parse_run, pick_run, replay_run
from sengoku.trace.events import SCHEMA_VERSION, trace_events
from sengoku.trace.jsonl import render_jsonl
from sengoku.trace.text import render_text
from sengoku.version import __version__

if TYPE_CHECKING:
    from sengoku.carddb.catalog import Catalog
    from sengoku.carddb.models import CardDatabase

__all__ = ["CHOICES", "Trace", "parse_run", "pick_run", "trace_run"]


@dataclass(frozen=True)
class Trace:
    """One traced game: run `run` of its simulation, and its events (`events[0]` the header)."""

    run: int
    chosen: str | None  # "fastest", "median" or "slowest" when picked by its kill turn
    won_turn: int | None
    events: list[dict[str, Any]]

    @classmethod
    def of(cls, traced: TracedRun) -> Trace:
        """Return the trace of a run played again (`goldfish(traces=...)`, `trace_run`)."""
        o = traced.options
        geometry = traced.tables.board
        ours = geometry.board.stronghold
        header = {
            "event": "trace", "schema_version": SCHEMA_VERSION, "sengoku_version": __version__,
            "run": traced.run, "chosen": traced.chosen, "runs": traced.runs, "seed": o.seed, "turns": o.turns,
            "going": o.going, "policy": o.policy.to_json(), "mode": o.mode, "play_on": o.play_on,
            "deck": traced.deck,
            "opponent": {"deck": traced.opponent["deck"], "defends": traced.opponent["defends"]},
            "board": {"rows": len(geometry.board.rows), "columns": geometry.board.columns,
                      "stronghold": {"row": ours[0], "column": ours[1]}},
        }
        end = {"event": "end", "turn": traced.turns_played, "won_turn": traced.won_turn, "turns": o.turns,
               "played_on": o.play_on}
        events = [header, *trace_events(traced.record, traced.tables, traced.opponent_tables), end]
        return cls(traced.run, traced.chosen, traced.won_turn, events)

    def text(self) -> str:
        """Return the trace as text, turn by turn."""
        return render_text(self.events)

    def jsonl(self) -> str:
        """Return the trace as JSON Lines (one event a line)."""
        return render_jsonl(self.events)


def trace_run(
    deck: Decklist | Path | str | None = None,
    db: CardDatabase | Catalog | Path | str | None = None,
    *,
    run: int | str = 0,
    runs: int = DEFAULT_RUNS,
    options: PlayOptions | None = None,
    kill_turns: Sequence[int] | None = None,
    progress: Callable[[int], None] | None = None,
    **option_values: Any,
) -> Trace:
    """Play run `run` of the simulation `goldfish()` would play with these options again, and trace it.

    `run` is a run index (0 to `runs` - 1) or "fastest", "median" or "slowest": then all `runs`
    are played first (in `jobs` processes; the pick is the same for any `jobs`) unless
    `kill_turns` (a `GoldfishResult.run_kill_turns` of the same options) says each run's kill turn.
    `options` and the keyword options mean what they mean to `goldfish()`. Raise `GoldfishError`
    for an unusable run or option, `InvalidDeckError` for a deck breaking the rules.
    """
    PlayOptions.check_names(option_values)
    decklist, syntax = read_deck(deck)
    if goldfish_kind(decklist.game) != "engine":
        raise GoldfishError(f"a trace plays SENGOKU YUGI's turn-by-turn engine; a {decklist.game} deck gets its "
                            "opening hand only")
    played = PlayOptions.given(options, **option_values)
    check_runs(runs)
    which = parse_run(run)
    setup = prepare_engine(decklist, syntax, load_cards(db), played, kill_turns=True)
    if isinstance(which, str) and kill_turns is None:
        kill_turns = play_all(setup.plan, runs, played.workers, progress).per_run
    return Trace.of(replay_run(setup.plan, which, runs, setup.deck_label, setup.opponent, kill_turns))
