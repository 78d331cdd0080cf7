"""What `tune` and `impact` share on the command line: a race played where the options say, until it ends or a
stop signal comes.

Both commands race decks on tune's executors (`--jobs` local processes, or a Dask `--cluster`),
rewrite a progress line on a terminal, and on Ctrl-C, SIGTERM or SIGHUP keep what was measured:
the race stops, its executor closes without a word of Dask's, the line is cleared, and the result
so far is written whole (later signals are only noted) before the command exits 128 + the first
signal (130, 143, 129). The race is the library's (`Tuner`, `ImpactRace`): this only drives it.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any, Optional, Protocol

import typer

from sengoku.cli.streams import EXIT_INTERRUPTED, ProgressLine, StopSignals
from sengoku.errors import DataError

INTERRUPTED = "interrupted"  # a race result's `stopped` after a stop signal (tune's and impact's STOP_INTERRUPTED)


class Race(Protocol):
    """A race the library plays: where (`open_executor`), the whole of it (`run`), and what it has so far (`result`)."""

    def open_executor(self, cluster: Optional[str] = None) -> Any: ...

    def run(self) -> Any: ...

    def result(self, stopped: Optional[str] = None) -> Any: ...


def check_where(jobs: Optional[int], cluster: Optional[str]) -> None:
    """Refuse --jobs with --cluster (before any work): the cluster's workers do the playing."""
    if cluster is not None and jobs is not None:
        raise DataError(None, "--jobs and --cluster exclude each other: the cluster's workers do the playing")


def note_jobs(options: Any) -> None:
    """Say on stderr when --jobs asked for more processes than this machine gives (the options' note)."""
    note = options.jobs_note("--jobs")
    if note:
        typer.echo(f"note: {note}", err=True)


def progress_line(describe: Callable[[Any], str]) -> Optional[ProgressLine]:
    """A progress line on stderr, rewritten in place, when stderr is a terminal; else None (nothing shown)."""
    return ProgressLine(describe) if sys.stderr.isatty() else None


def run_race(race: Race, cluster: Optional[str], line: Optional[ProgressLine],
             write: Callable[[Any, Any, float], None]) -> None:
    """Open the race's executor (`cluster`, else its options' --jobs), play the race until it ends or a stop signal
    comes, close the executor, then `write(result, executor, seconds)` with stop signals only noted.

    Exits 128 + the first stop signal after one came (the result written first), 130 when the race was
    interrupted by a KeyboardInterrupt raised otherwise.
    """
    started = time.perf_counter()
    with StopSignals() as stop:  # Ctrl-C, SIGTERM and SIGHUP alike: what was found so far is written
        executor = race.open_executor(cluster)
        if getattr(executor, "note", None):
            typer.echo(f"note: {executor.note}", err=True)
        try:
            stop.start()
            result = race.run()
        except KeyboardInterrupt:
            result = race.result(INTERRUPTED)
        finally:
            stop.running = False
            executor.close(quietly=stop.signum is not None)
            if line is not None:
                line.clear()
        write(result, executor, time.perf_counter() - started)
    if stop.exit_code is not None:
        raise SystemExit(stop.exit_code)
    if result.stopped == INTERRUPTED:
        raise SystemExit(EXIT_INTERRUPTED)
