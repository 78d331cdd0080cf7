"""Goldfish simulation (SPEC G1-G3): many seeded solitaire games on the rules engine, summarised.

`goldfish()` (in `api`) validates a deck, compiles it for `sengoku.engine`, and then the data
flows through three subpackages, one way:

- `play`: each run's seeds (`seeds`, G7), playing runs in chunks over processes (`simulate`),
  several decks on the same runs (`pairs`), `--precision` rounds (`rounds`);
- `statistics`: integer histograms (`stats`), exact opening-hand probabilities and the
  simulation check (`probability`, `hand`), intervals (`paired`), the kill turn (`kill_turn`),
  `compare`'s differences (`differences`);
- `reports`: the text report and its charts, the HTML pages and SVG, plots.

`compare()` (in `compare`) plays several decks on the same deals. Results (`result`,
`compare_result`) are built from integer tallies. Names are imported lazily so that importing
a submodule stays cheap.
"""

from __future__ import annotations

from sengoku._lazy import callable_package, lazy_exports

_NAMES = {
    "goldfish": "sengoku.goldfish.api",
    "GoldfishError": "sengoku.goldfish.api",
    "InvalidDeckError": "sengoku.goldfish.api",
    "GoldfishResult": "sengoku.goldfish.result",
    "CompareResult": "sengoku.goldfish.compare_result",
}
__all__ = list(_NAMES)

# goldfish's public API for the rest of sengoku (trace, tune, the command line, `import sengoku`):
# the names above, and these modules' names that do not start with "_". The other modules are
# goldfish's own (tests/test_layers.py checks that nothing outside goldfish imports them).
API_MODULES = (
    "api", "compare", "compare_result", "errors", "options", "other_games", "player_check", "result",
    "play.pairs", "play.seeds", "play.simulate",  # the one way a run is played, for trace and tune
    "play.traced", "play.pool",  # a run played again with its events (trace); the one process pool (tune)
    "statistics.kill_turn", "statistics.paired",  # the kill turn and the paired sums tune races on
    "reports.command", "reports.compare_html", "reports.compare_report", "reports.html_report", "reports.plot",
    "reports.report",
    "reports.svg",
)


__getattr__ = lazy_exports(__name__, _NAMES)


callable_package(__name__, "goldfish")  # sengoku.goldfish(...) is goldfish() (see sengoku._lazy.callable_package)
