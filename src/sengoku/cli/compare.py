"""`sengoku compare`: which of several decklists is better, and by how much, on the same deals."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Optional

import typer

from sengoku.cli import app
from sengoku.cli.goldfish import POLICY_HELP, PROGRESS_MIN_GAME_TURNS, play_inputs, refuse_invalid, with_progress
from sengoku.cli.play_options import DB, FORCE, JOBS, OPPONENT_DEFENDS, PLAY_ON, POLICY_SETTING, SEED, policy_choice
from sengoku.cli.streams import write_document
from sengoku.goldfish.options import DEFAULT_POLICY, DEFAULT_TURNS, PlayOptions
from sengoku.writes import check_outputs, write_atomically

HELP = " ".join("""
Compare SENGOKU YUGI decks on the same deals: every deck plays the same runs with the same seed, policy,
opponent, going and turns, run i of every deck from the same seeds (common random numbers), so
the paired differences are far less noisy than two separate goldfish runs. The first deck is the baseline.
""".split()) + "\n\n" + " ".join("""
The report starts with a verdict per deck: better, worse, or no difference detectable at this precision,
for the kill turn and for P(won by the last turn); an interval needs two runs or more, and for a mean some
spread between them, and without one there is no verdict. Then, per deck and as deck - baseline with a 95%
interval: the mean kill turn over every run (a run not won within --turns counts as turns + 1; paired t
interval, next to the unpaired one it saves on), P(won by the end of turn t) for every t (Newcombe's paired
interval), ap_main and allies per turn (paired t), and the shared opening-hand events (exact difference,
and the simulated one).
""".split()) + "\n\n" + " ".join("""
Exit 0 on success; 1 when a deck is not valid (the validator's report is shown) or a simulated
opening-hand probability strays from its exact value (a bug); 2 for decks of different games or modes
and other unusable input or options.
""".split())


@app.command("compare", help=HELP)
def compare_command(
    decks: list[Path] = typer.Argument(..., readable=False, metavar="DECK_A DECK_B [DECK_C ...]",
                                       help="Decklists (TOML); the first is the baseline.", show_default=False),
    runs: int = typer.Option(10_000, "--runs", "-n", help="Runs per deck (1 to 10,000,000); with --precision, "
                             "the most to play."),
    precision: Optional[float] = typer.Option(
        None, "--precision", metavar="TURNS", help="Play in rounds until every deck's 95% interval of its mean "
        "kill-turn difference is at most ±TURNS, or --runs are played. Same inputs give the same runs and "
        "the same JSON for any --jobs.", show_default=False),
    turns: int = typer.Option(DEFAULT_TURNS, "--turns", "-t", help="Turns played in each game (1 to 200)."),
    seed: int = SEED,
    going: str = typer.Option("first", "--going", help="Play first or second (S7, S8)."),
    policy: str = typer.Option(DEFAULT_POLICY, "--policy", help=POLICY_HELP),
    policy_setting: list[str] = POLICY_SETTING,
    mode: Optional[str] = typer.Option(
        None, "--mode", help="Play every deck under standard or ultimate. Default: the decklists' own "
        "mode, which must be the same.", show_default=False),
    jobs: Optional[int] = JOBS,
    opponent: Optional[Path] = typer.Option(
        None, "--opponent", readable=False, metavar="DECK", help="The opponent's decklist (G4) for every deck. "
        "Default: the baseline deck.", show_default=False),
    opponent_defends: bool = OPPONENT_DEFENDS,
    play_on: bool = PLAY_ON,
    want: list[str] = typer.Option([], "--want", metavar="NAME[:N]", help="An opening-hand event to compare "
                                   "(as goldfish's --want: split at the last ':' only when a number follows).", show_default=False),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON: decks (deck, runs, kill_turn, "
                                 "curve, …), differences (measure, turn, deck, baseline, value, diff, ci95, "
                                 "no_interval, verdict), verdicts, opponent, opening_hand_check."),
    plot: Optional[Path] = typer.Option(
        None, "--plot", metavar="FILE", help="Also draw every deck's win curve on one chart to FILE (.png or .svg). "
        "Needs the optional plot extra: pip install 'sengoku\\[plot]'.", show_default=False),
    html: Optional[Path] = typer.Option(
        None, "--html", metavar="FILE", help="Also write the comparison as one self-contained HTML page (the decks "
        "side by side, the options and the command that reproduces it, every difference with its interval and "
        "verdict, the win curves on one chart; loads nothing from the network).", show_default=False),
    force: bool = FORCE,
    db: Optional[Path] = DB,
) -> None:
    """Compare decks (see HELP)."""
    going, policy = going.strip().lower(), policy.strip().lower()
    mode = mode.strip().lower() if mode is not None else None
    # deferred: start-up time of the other commands (the simulation imports the rules engine)
    from sengoku.errors import DataError
    from sengoku.goldfish.api import InvalidDeckError
    from sengoku.goldfish.compare import compare
    from sengoku.goldfish.other_games import MAX_RUNS

    if runs > MAX_RUNS:
        raise DataError(None, f"--runs must be from 1 to {MAX_RUNS:,}, not {runs}")
    # every output checked before the simulation, against the run's inputs and each other
    check_outputs({"--plot": plot, "--html": html}, play_inputs(decks, opponent, db), replace=force)
    if plot is not None:
        from sengoku.goldfish.reports.plot import check_plot_path  # deferred: only --plot needs it

        check_plot_path(plot, replace=force)
    # the options as one record, checked here once and passed whole
    spec = policy_choice(policy, policy_setting)  # the policy and its settings: one PolicySpec
    options = PlayOptions.given(turns=turns, seed=seed, policy=spec, going=going, mode=mode, jobs=jobs,
                                opponent=opponent, opponent_defends=opponent_defends, play_on=play_on)
    note = options.jobs_note("--jobs")
    if note:
        typer.echo(f"note: {note}", err=True)
    total = runs * len(decks)
    show_progress = not as_json and total * turns >= PROGRESS_MIN_GAME_TURNS and sys.stderr.isatty()
    started = time.perf_counter()

    def run(progress=None):  # type: ignore[no-untyped-def]
        return compare(decks, db, runs=runs, options=options, precision=precision, wants=want, progress=progress)

    try:
        result = with_progress(runs, run, "compare") if show_progress else run()
    except InvalidDeckError as exc:
        refuse_invalid(exc)
        raise SystemExit(1) from None
    elapsed = time.perf_counter() - started

    if as_json:
        write_document(result.to_json(), "json")
    else:
        from sengoku.goldfish.reports.compare_report import render_text  # deferred: only the text report needs it

        typer.echo(render_text(result), nl=False)
    if plot is not None:
        from sengoku.goldfish.reports.plot import save_compare_plot  # deferred: only --plot needs it

        save_compare_plot(result, plot, replace=force)
    if html is not None:
        # deferred: only --html needs it
        from sengoku.goldfish.reports.compare_html import render_compare_html, reproduce_command

        write_atomically(html, render_compare_html(result, reproduce_command(result, db=db, html=html)),
                         replace=force)
    typer.echo(f"{len(decks)} decks × {result.runs} runs × {turns} turns in {elapsed:.2f} s"
               + (f"; plot written to {plot}" if plot else "")
               + (f"; HTML report written to {html}" if html else ""), err=True)
    if not result.ok:
        for message in result.to_dict()["errors"]:
            typer.echo(f"error: {message}", err=True)
        typer.echo("error: a simulated opening-hand probability is far from exact, which a correct simulation "
                   "shows in fewer than one run in a million: a bug in the simulation, please report it", err=True)
        raise SystemExit(1)
