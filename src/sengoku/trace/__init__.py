"""See one game: a turn-by-turn trace of any goldfish run (G8).

    from sengoku.trace import trace_run
    trace = trace_run("decklists/default.toml", run="median", runs=1000)
    print(trace.text())          # the game in the game's own words, the board as a grid
    trace.events                 # the same game as JSON-ready events (schemas/trace.schema.json)
    trace.jsonl()                # ... as JSON Lines, what `sengoku goldfish --trace RUN --json` prints

The engine records the events as its own checked actions play them (`GameState.record`): a trace
is never a second copy of the rules. `trace_run` replays the run through the simulation's own
`play_run`, so it is the very game the simulation counted (same opening hand, same kill turn).
`pick_run` picks the fastest, median or slowest of a simulation's runs from their kill turns.
"""

from __future__ import annotations

from sengoku.trace.events import SCHEMA_VERSION, trace_events
from sengoku.trace.jsonl import render_jsonl
from sengoku.trace.replay import CHOICES, Trace, parse_run, pick_run, trace_run
from sengoku.trace.text import render_text

__all__ = ["CHOICES", "SCHEMA_VERSION", "Trace", "parse_run", "pick_run", "render_jsonl", "render_text",
           "trace_events", "trace_run"]
