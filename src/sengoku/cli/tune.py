"""`sengoku tune`: find a better deck, one legal card change at a time, on one machine or on a Dask cluster."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from sengoku.cli import app
from sengoku.cli.goldfish import POLICY_HELP, play_inputs, refuse_invalid
from sengoku.cli.play_options import DB, OPPONENT_DEFENDS, PLAY_ON, POLICY_SETTING, SEED, policy_choice
from sengoku.cli.races import check_where, note_jobs, progress_line, run_race
from sengoku.cli.streams import write_document
from sengoku.goldfish.options import DEFAULT_POLICY, DEFAULT_TURNS
from sengoku.writes import Input, check_outputs, write_atomically

HELP = " ".join("""
Tune a SENGOKU YUGI deck: find a better one, one legal card change at a time, each change won in a
paired race on common random numbers.
""".split()) + "\n\n" + " ".join("""
Every candidate (one copy out
and one card of the pool in, or one copy added or removed; each checked by the validator, tournament format
included) plays the current deck's runs (common random numbers), in two stages on fresh runs each. Screening
plays every candidate on shared runs and keeps the best quarter by mean (runs doubling) until at most 4
finalists are left; it accepts nothing. Confirmation plays the finalists on runs the screening never saw,
look after look: a finalist is accepted when its one-sided lower bound is above 0 at --error-rate corrected
for the finalists (Bonferroni) and for the looks and attempts (spending sequences); the next step starts
from it. In both stages a candidate is dropped when its paired 95% interval rules out a gain of --min-gain.
A confirmation that accepts nothing starts another attempt (screening on twice the runs), at most 3.
""".split()) + "\n\n" + " ".join("""
It stops when --budget games are played, when no candidate can improve, or after --max-changes; Ctrl-C,
SIGTERM and SIGHUP stop it too, within a second or two: it writes the best deck so far and exits 128 + the
signal (130, 143, 129). The result is optimal for the --policy, --going,
--turns and opponent it was tuned with. The same inputs and seed give the same path and final deck for any
--jobs and any number of cluster workers.
""".split()) + "\n\n" + " ".join("""
Output: the path of accepted changes (each with its paired difference, interval and games), the final
decklist in canonical form (as `sengoku fmt` writes it; to -o FILE, else printed), --json, --html. Exit 0
on success, 1 when the deck is not valid, 2 on unusable input or options, 130 on Ctrl-C (143 SIGTERM, 129
SIGHUP).
""".split())


@app.command("tune", help=HELP)
def tune_command(
    deck: Path = typer.Argument(..., readable=False, metavar="DECK", help="The decklist (TOML) to start from.",
                                show_default=False),
    pool: Optional[Path] = typer.Option(
        None, "--pool", readable=False, metavar="FILE", help="The cards that may go in: a decklist (.toml) or a "
        "plain-text list as `sengoku import` reads it. Default: every card of the database the deck's mode "
        "allows (the validator then applies its format).", show_default=False),
    objective: str = typer.Option("kill-turn", "--objective", metavar="kill-turn|won-by:T", help="What to improve: "
                                  "the mean kill turn (a run not won counting as turns + 1), or the share of runs "
                                  "won by the end of turn T."),
    budget: int = typer.Option(1_000_000, "--budget", metavar="GAMES", help="Most games to play in the races "
                               "(every deck's games count)."),
    max_changes: Optional[int] = typer.Option(None, "--max-changes", metavar="N", help="Stop after N accepted "
                                              "changes. Default: no limit.", show_default=False),
    error_rate: float = typer.Option(0.05, "--error-rate", metavar="ALPHA", help="One-sided error rate of each "
                                     "accepted change: the chance that it is no improvement, at most."),
    min_gain: Optional[float] = typer.Option(
        None, "--min-gain", metavar="X", help="Smallest gain worth racing for (kill-turn: turns, default 0.02; "
        "won-by: a share, default 0.005).", show_default=False),
    check: int = typer.Option(10_000, "--check", metavar="N", help="Play the final deck against the start on N "
                              "fresh runs with the tuned policy (0: do not; at most 10,000,000)."),
    verify: int = typer.Option(0, "--verify", metavar="N", help="Also play the final deck against the start with "
                               "--policy search on N fresh runs (slow; at most 10,000,000).", show_default=False),
    seed: int = SEED,
    turns: int = typer.Option(DEFAULT_TURNS, "--turns", "-t", help="Turns played in each game (1 to 200)."),
    going: str = typer.Option("first", "--going", help="Play first or second (S7, S8)."),
    policy: str = typer.Option(DEFAULT_POLICY, "--policy", help=POLICY_HELP),
    policy_setting: list[str] = POLICY_SETTING,
    mode: Optional[str] = typer.Option(None, "--mode", help="standard or ultimate. Default: the "
                                       "decklist's own mode.", show_default=False),
    opponent: Optional[Path] = typer.Option(
        None, "--opponent", readable=False, metavar="DECK", help="The opponent's decklist (G4) for every candidate. "
        "Default: the start deck.", show_default=False),
    opponent_defends: bool = OPPONENT_DEFENDS,
    play_on: bool = PLAY_ON,
    jobs: Optional[int] = typer.Option(
        None, "--jobs", "-j", help="Parallel processes, started once for the whole tune. Default: all cores. The "
        "path and final deck are identical to --jobs 1; at most one process per 1,000 games the tune may play "
        "(--budget, plus two for each --check and --verify run).", show_default=False),
    cluster: Optional[str] = typer.Option(
        None, "--cluster", metavar="ADDRESS", help="Play on a Dask cluster: tcp://HOST:PORT for a running "
        "scheduler, or local:N for a LocalCluster of N worker processes (at most one a core, as --jobs). Needs the optional cluster extra: "
        "pip install 'sengoku[cluster]'.", show_default=False),
    output: Optional[Path] = typer.Option(None, "--output", "-o", metavar="OUT.toml", help="Write the final deck "
                                          "here (never over a file the tune reads).", show_default=False),
    force: bool = typer.Option(False, "--force", help="Replace the -o or --html file if it exists."),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON (schemas/tune.schema.json)."),
    html: Optional[Path] = typer.Option(
        None, "--html", metavar="FILE", help="Also write the tune as one self-contained HTML page (the path as a "
        "chart and a table).", show_default=False),
    db: Optional[Path] = DB,
) -> None:
    """Tune a deck (see HELP)."""
    going, policy = going.strip().lower(), policy.strip().lower()
    mode = mode.strip().lower() if mode is not None else None
    # deferred: start-up time of the other commands (the tune imports the rules engine)
    from sengoku.goldfish.api import InvalidDeckError
    from sengoku.goldfish.options import PlayOptions
    from sengoku.tune.tuner import Tuner

    check_where(jobs, cluster)
    # every output checked before the tune, not after it: against the run's inputs and each other
    inputs = play_inputs([deck], opponent, db) + ([Input("the --pool file", pool)] if pool is not None else [])
    check_outputs({"--output": output, "--html": html}, inputs, replace=force)
    spec = policy_choice(policy, policy_setting)  # the policy and its settings: one PolicySpec
    options = PlayOptions.given(seed=seed, turns=turns, policy=spec, going=going, mode=mode, opponent=opponent,
                                opponent_defends=opponent_defends, play_on=play_on, jobs=jobs)
    note_jobs(options)
    line = progress_line(lambda p: f"tune: change {p.step}, {p.look} · {p.candidates:,} candidates left · "
                                   f"{p.games:,}/{budget:,} games"
                                   + ("" if p.value != p.value else f" · incumbent {p.value:.3f}"))
    try:
        tuner = Tuner(deck, db, options=options, objective=objective, budget=budget, max_changes=max_changes,
                      pool=pool, error_rate=error_rate, min_gain=min_gain, check_runs=check, verify_runs=verify,
                      progress=line)
    except InvalidDeckError as exc:
        refuse_invalid(exc)
        raise SystemExit(1) from None
    # Ctrl-C, SIGTERM and SIGHUP alike: the best deck so far is written
    run_race(tuner, cluster, line, lambda result, executor, seconds: _write(result, executor, seconds, output, html,
                                                                            db, force, as_json))


def _write(result, executor, seconds, output, html, db, force, as_json) -> None:  # type: ignore[no-untyped-def]
    """Write what the tune found: the deck (-o, else in the report), the report (text or --json), --html."""
    text = result.decklist_text(db)
    if output is not None:
        write_atomically(output, text, replace=force)
    if as_json:
        write_document(result.to_json(), "json")
    else:
        # deferred: only the text report needs it
        from sengoku.tune.report import render_text

        typer.echo(render_text(result, str(output) if output is not None else None), nl=False)
    if html is not None:
        # deferred: only --html needs it
        from sengoku.tune.html_report import render_tune_html, reproduce_command

        command = reproduce_command(result, db=db, output=output, html=html)
        write_atomically(html, render_tune_html(result, command, str(output) if output else None), replace=force)
    typer.echo(f"{len(result.steps)} change(s) accepted, {result.games:,} games in {seconds:.1f} s "
               f"({result.games / max(seconds, 1e-9):,.0f} games/s on {executor.describe})"
               + (f"; deck written to {output}" if output else "") + (f"; HTML report written to {html}" if html else ""),
               err=True)
