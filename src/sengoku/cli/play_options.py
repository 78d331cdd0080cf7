"""Options that `goldfish` and `compare` share: one declaration each, so that both commands
read and explain them alike."""

from __future__ import annotations

import typer

SEED = typer.Option(0, "--seed", help="Master seed. Run i (of every deck) takes its own seeds, one per purpose, from "
                    "(seed, i), so the same inputs and seed give byte-identical JSON for any --jobs.")
JOBS = typer.Option(None, "--jobs", "-j", help="Parallel processes. Default: all cores. Results are identical "
                    "to --jobs 1; at most one process per 1,000 runs (fewer runs stay in one process).", show_default=False)
OPPONENT_DEFENDS = typer.Option(
    False, "--opponent-defends", help="The opponent adds its Commander's ATK and self-boosts from its hand "
    "when it can (G4). Default: it makes no optional choice.")
PLAY_ON = typer.Option(
    False, "--play-on", help="Go on playing after a win, up to --turns. Default: a game stops at the end of "
    "the turn it is won, and later turns count only the games still being played.")
FORCE = typer.Option(False, "--force", help="Replace the --plot or --html file if it exists.")
DB = typer.Option(None, "--db", readable=False, help="Card database folder or file. Default: $SENGOKU_DB, else "
                  "the bundled sample set.", show_default=False)
