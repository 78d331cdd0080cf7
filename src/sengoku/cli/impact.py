"""`sengoku impact`: which cards of a deck pull their weight, measured one copy fewer on the same deals (G9)."""

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
from sengoku.writes import check_outputs, write_atomically

HELP = " ".join("""
Measure what each card of a SENGOKU YUGI deck is worth: the effect on the kill turn of one copy fewer,
played against the full deck on the same deals (common random numbers, SPEC G9).
""".split()) + "\n\n" + " ".join("""
For every distinct card (name, level and epithet; familiars too in Ultimate Mode) the deck with one copy
fewer plays the full deck's runs; where that deck is illegal (a 50-card deck, the two Nameless, a lone
Familiar Egg), one copy is replaced by the --filler card instead, or the report says why the card cannot be
measured. Each card races until its paired 95% interval is within ±--precision, or its corrected interval
(Bonferroni over the cards measured, a spending sequence over the looks, --error-rate) leaves 0 out.
""".split()) + "\n\n" + " ".join("""
The answer comes first, in words: the cards that pull their weight, the dead weight, and those this
precision cannot tell apart from nothing. Beside each effect, the association columns card trackers show,
labelled as associations: the full deck's mean kill turn when a copy was in the opening hand, drawn by turn
T (--drawn-by), or not drawn. They carry the bias of game length: a long game draws more cards.
""".split()) + "\n\n" + " ".join("""
The same inputs and seed give the same report for any --jobs and any number of cluster workers. Output:
text, --json (schemas/impact.schema.json), --html (a chart of the effects and their intervals). Exit 0 on
success, 1 when the deck is not valid, 2 on unusable input or options, 130 on Ctrl-C (143 SIGTERM, 129
SIGHUP).
""".split())


@app.command("impact", help=HELP)
def impact_command(
    deck: Optional[Path] = typer.Argument(
        None, readable=False, metavar="DECK", help="The decklist (TOML) to measure. Default: the bundled default "
        "deck (decklists/default.toml).", show_default=False),
    objective: str = typer.Option("kill-turn", "--objective", metavar="kill-turn|won-by:T", help="What an effect "
                                  "is measured on: the mean kill turn (a run not won counting as turns + 1), or the "
                                  "share of runs won by the end of turn T."),
    precision: Optional[float] = typer.Option(
        None, "--precision", metavar="X", help="Each card races until its paired 95% interval is within ±X "
        "(kill-turn: turns, default 0.05; won-by: a share, default 0.02), or its words are decided.",
        show_default=False),
    budget: int = typer.Option(1_000_000, "--budget", metavar="GAMES", help="Most games to play (every deck's "
                               "games count)."),
    error_rate: float = typer.Option(0.05, "--error-rate", metavar="ALPHA", help="The chance that any of the "
                                     "words (pulls its weight, dead weight) is wrong, at most."),
    filler: list[str] = typer.Option(
        [], "--filler", metavar="CARD", help="Where one copy fewer is illegal, replace one copy by this card "
        "(a card id, 'Name LvN', or a name only one card has); repeat for a Nameless or familiar filler.",
        show_default=False),
    card: list[str] = typer.Option([], "--card", metavar="CARD", help="Measure only this card (repeat for "
                                   "several). Default: every card of the deck.", show_default=False),
    drawn_by: Optional[int] = typer.Option(
        None, "--drawn-by", metavar="T", help="The association's 'drawn': by the end of turn T. Default: --turns "
        "(drawn at any time in the game).", show_default=False),
    seed: int = SEED,
    turns: int = typer.Option(DEFAULT_TURNS, "--turns", "-t", help="Turns played in each game (1 to 200)."),
    going: str = typer.Option("first", "--going", help="Play first or second (S7, S8)."),
    policy: str = typer.Option(DEFAULT_POLICY, "--policy", help=POLICY_HELP),
    policy_setting: list[str] = POLICY_SETTING,
    commander: Optional[str] = typer.Option(
        None, "--commander", metavar="NAME", help="Pin the Commander to this Level 1 Main card name in every "
        "deck. Default: S1's choice, deck by deck.", show_default=False),
    mode: Optional[str] = typer.Option(None, "--mode", help="standard or ultimate. Default: the decklist's own "
                                       "mode.", show_default=False),
    opponent: Optional[Path] = typer.Option(
        None, "--opponent", readable=False, metavar="DECK", help="The opponent's decklist (G4) for every deck. "
        "Default: a mirror of the full deck.", show_default=False),
    opponent_defends: bool = OPPONENT_DEFENDS,
    play_on: bool = PLAY_ON,
    jobs: Optional[int] = typer.Option(
        None, "--jobs", "-j", help="Parallel processes, started once. Default: all cores. The report is identical "
        "to --jobs 1; at most one process per 1,000 games of the --budget.", show_default=False),
    cluster: Optional[str] = typer.Option(
        None, "--cluster", metavar="ADDRESS", help="Play on a Dask cluster: tcp://HOST:PORT for a running "
        "scheduler, or local:N for a LocalCluster of N worker processes. Needs the optional cluster extra: "
        "pip install 'sengoku[cluster]'.", show_default=False),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON (schemas/impact.schema.json)."),
    html: Optional[Path] = typer.Option(
        None, "--html", metavar="FILE", help="Also write the report as one self-contained HTML page (the answer, a "
        "chart of the effects with their intervals, the table, and the command that reproduces it).",
        show_default=False),
    force: bool = typer.Option(False, "--force", help="Replace the --html file if it exists."),
    db: Optional[Path] = DB,
) -> None:
    """Measure each card's impact (see HELP)."""
    going, policy = going.strip().lower(), policy.strip().lower()
    mode = mode.strip().lower() if mode is not None else None
    # deferred: start-up time of the other commands (the race imports the rules engine)
    from sengoku.goldfish.api import InvalidDeckError, default_decklist
    from sengoku.goldfish.options import PlayOptions
    from sengoku.impact.race import ImpactRace

    check_where(jobs, cluster)
    deck_path = deck if deck is not None else default_decklist()
    # the output checked before any game: against the run's inputs
    check_outputs({"--html": html}, play_inputs([deck_path], opponent, db), replace=force)
    spec = policy_choice(policy, policy_setting)  # the policy and its settings: one PolicySpec
    options = PlayOptions.given(None, turns=turns, seed=seed, going=going, policy=spec, commander=commander,
                                mode=mode, opponent=opponent, opponent_defends=opponent_defends, play_on=play_on,
                                jobs=jobs)
    note_jobs(options)
    line = progress_line(lambda p: f"impact: look {p.look} · {p.racing:,} card(s) racing · {p.runs:,} runs · "
                                   f"{p.games:,}/{budget:,} games")
    try:
        race = ImpactRace(deck_path, db, options=options, objective=objective, precision=precision, budget=budget,
                          error_rate=error_rate, filler=filler, cards=card, drawn_by=drawn_by, progress=line)
    except InvalidDeckError as exc:
        refuse_invalid(exc)
        raise SystemExit(1) from None
    # Ctrl-C, SIGTERM and SIGHUP alike: what was measured so far is reported
    run_race(race, cluster, line, lambda result, executor, seconds: _write(result, executor, seconds, as_json, html,
                                                                           force, db))


def _write(result, executor, seconds: float, as_json: bool, html: Optional[Path], force: bool,  # type: ignore[no-untyped-def]
           db: Optional[Path]) -> None:
    """Write the report (text or --json) and --html, then the closing line on stderr."""
    if as_json:
        write_document(result.to_json(), "json")
    else:
        # deferred: only the text report needs it
        from sengoku.impact.report import render_text

        typer.echo(render_text(result), nl=False)
    if html is not None:
        # deferred: only --html needs it
        from sengoku.impact.html_report import render_impact_html, reproduce_command

        command = reproduce_command(result, db=db, html=html)
        write_atomically(html, render_impact_html(result, command), replace=force)
    typer.echo(f"{result.measured} card(s) measured, {result.games:,} games in {seconds:.1f} s "
               f"({result.games / max(seconds, 1e-9):,.0f} games/s on {executor.describe})"
               + (f"; HTML report written to {html}" if html else ""), err=True)
