"""Play one run of a goldfish simulation again, recording its events (G8).

A run is a pure function of (deck, card DB, options, seed, run index): `trace_run` prepares the
deck exactly as `goldfish()` does and plays the run through the simulation's own `play_run`, so
the trace is the game the simulation counted. Asked for the fastest, median or slowest game, it
first plays all the runs (keeping each run's kill turn) and picks one.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sengoku.carddb.playable import load_cards
from sengoku.decklist.model import Decklist
from sengoku.goldfish.api import engine_options, goldfish_kind, prepare_engine, read_deck
from sengoku.goldfish.errors import GoldfishError
from sengoku.goldfish.options import DEFAULT_RUNS
from sengoku.goldfish.play.seeds import DEFAULT_SEED
from sengoku.goldfish.play.simulate import make_runner, play_all, play_run
from sengoku.trace.events import SCHEMA_VERSION, trace_events
from sengoku.trace.jsonl import render_jsonl
from sengoku.trace.text import render_text
from sengoku.version import __version__

if TYPE_CHECKING:
    from sengoku.carddb.catalog import Catalog
    from sengoku.carddb.models import CardDatabase

CHOICES = ("fastest", "median", "slowest")


@dataclass(frozen=True)
class Trace:
    """One traced game: run `run` of its simulation, and its events (`events[0]` the header)."""

    run: int
    chosen: str | None  # "fastest", "median" or "slowest" when picked by its kill turn
    won_turn: int | None
    events: list[dict[str, Any]]

    def text(self) -> str:
        """Return the trace as text, turn by turn."""
        return render_text(self.events)

    def jsonl(self) -> str:
        """Return the trace as JSON Lines (one event a line)."""
        return render_jsonl(self.events)


def pick_run(kill_turns: Sequence[int], which: str, turns: int) -> int:
    """Return the index of the fastest, median or slowest run; ties go to the lowest index.

    `kill_turns[i]` is run i's kill turn, 0 when it was not won; a game not won counts as
    `turns` + 1 (slower than any won one). The median is the lower median of the runs.
    """
    if which not in CHOICES:
        raise GoldfishError(f"a run to trace is an index or one of {', '.join(CHOICES)}, not {which!r}")
    if not kill_turns:
        raise GoldfishError("no run was played, so none can be traced")
    values = [k if k else turns + 1 for k in kill_turns]
    if which == "fastest":
        target = min(values)
    elif which == "slowest":
        target = max(values)
    else:
        target = sorted(values)[(len(values) - 1) // 2]
    return values.index(target)


def parse_run(run: int | str) -> int | str:
    """Return a run index (an int ≥ 0) or a choice word from what a user typed."""
    if isinstance(run, int) and not isinstance(run, bool):
        return run
    word = str(run).strip().lower()
    if word in CHOICES:
        return word
    try:
        return int(word)
    except ValueError:
        raise GoldfishError(f"a run to trace is an index from 0 or one of {', '.join(CHOICES)}, not {run!r}") from None


def trace_run(
    deck: Decklist | Path | str | None = None,
    db: CardDatabase | Catalog | Path | str | None = None,
    *,
    run: int | str = 0,
    runs: int = DEFAULT_RUNS,
    turns: int | None = None,
    seed: int = DEFAULT_SEED,
    policy: str | None = None,
    going: str | None = None,
    commander: str | None = None,
    mode: str | None = None,
    jobs: int | None = None,
    opponent: Decklist | Path | str | None = None,
    opponent_defends: bool | None = None,
    play_on: bool | None = None,
    kill_turns: Sequence[int] | None = None,
    progress: Callable[[int], None] | None = None,
) -> Trace:
    """Play run `run` of the simulation `goldfish()` would play with these options again, and trace it.

    `run` is a run index (0 to `runs` - 1) or "fastest", "median" or "slowest": then all `runs`
    are played first (in `jobs` processes; the pick is the same for any `jobs`) unless
    `kill_turns` (a `GoldfishResult.run_kill_turns` of the same options) says each run's kill turn.
    Every other option means what it means to `goldfish()`. Raise `GoldfishError` for an unusable
    run or option, `InvalidDeckError` for a deck breaking the rules.
    """
    decklist, syntax = read_deck(deck)
    if goldfish_kind(decklist.game) != "engine":
        raise GoldfishError(f"a trace plays SENGOKU YUGI's turn-by-turn engine; a {decklist.game} deck gets its "
                            "opening hand only")
    turns, policy, going, jobs = engine_options(runs, turns, policy, going, mode, jobs)
    setup = prepare_engine(decklist, syntax, load_cards(db), turns=turns, seed=seed, policy=policy, going=going,
                           commander=commander, mode=mode, wants=(), opponent=opponent,
                           opponent_defends=bool(opponent_defends), play_on=bool(play_on), kill_turns=True)
    plan = setup.plan
    which = parse_run(run)
    chosen: str | None = None
    if isinstance(which, str):
        chosen = which
        if kill_turns is None:
            kill_turns = play_all(plan, runs, jobs, progress).per_run
            assert kill_turns is not None
        if len(kill_turns) != runs:
            raise GoldfishError(f"{len(kill_turns)} kill turns given for {runs} runs")
        index = pick_run(kill_turns, which, turns)
    else:
        index = which
        if not 0 <= index < runs:
            raise GoldfishError(f"run {index} is not one of the {runs:,} runs (0 to {runs - 1})")
    record: list[dict[str, Any]] = []
    game = play_run(make_runner(dataclasses.replace(plan, kill_turns=False), record), plan.seed, index)
    geometry = plan.tables.board
    ours = geometry.board.stronghold
    header = {
        "event": "trace", "schema_version": SCHEMA_VERSION, "sengoku_version": __version__,
        "run": index, "chosen": chosen, "runs": runs, "seed": plan.seed, "turns": turns,
        "going": going, "policy": policy, "mode": setup.validation.mode, "play_on": plan.play_on,
        "deck": setup.decklist.name or setup.validation.path or "deck",
        "opponent": {"deck": setup.opponent["deck"], "defends": setup.opponent["defends"]},
        "board": {"rows": len(geometry.board.rows), "columns": geometry.board.columns,
                  "stronghold": {"row": ours[0], "column": ours[1]}},
    }
    end = {"event": "end", "turn": len(game.turns), "won_turn": game.won_turn, "turns": turns,
           "played_on": plan.play_on}
    events = [header, *trace_events(record, plan.tables, plan.opponent), end]
    return Trace(index, chosen, game.won_turn, events)
