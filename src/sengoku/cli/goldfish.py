"""`sengoku goldfish`: simulate a deck's opening hands and its AP curve turn by turn."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Optional

import typer

from sengoku.build import engine_compiled
from sengoku.cli import app
from sengoku.cli.play_options import DB, FORCE, JOBS, OPPONENT_DEFENDS, PLAY_ON, POLICY_SETTING, SEED, policy_choice
from sengoku.cli.streams import write_document
from sengoku.errors import DataError
from sengoku.goldfish.options import DEFAULT_POLICY, DEFAULT_TURNS, PlayOptions
from sengoku.goldfish.player_check import NOT_WITHIN
from sengoku.paths import data_dir
from sengoku.writes import Input, check_outputs, database_inputs, write_atomically

DEFAULT_DECK = data_dir("decklists") / "default.toml"  # what goldfish plays when no deck is given

REPORT_TRACES = ("median", "slowest")  # the games the HTML report shows, turn by turn (G8)
# A progress bar only when a run lasts long enough to want one (~1 s and more).
PROGRESS_MIN_GAME_TURNS = 200_000

POLICY_HELP = (
    "Who makes the choices (SPEC G2): "
    "greedy (default) plays to win: grows and focuses, moves allies (the Commander too) into "
    "range and attacks the Stronghold with the kind likelier to beat the Last Guard, self-boosting when "
    "it helps, sends for AP Charge what it cannot play "
    "this turn; develop develops the board as fast as AP allows and never attacks; "
    "charge is develop, charging every card it cannot play this turn; "
    "search tries every Charge Phase plan and Main Phase step on copies of the game played on by greedy, in two stages (slow; a yardstick for greedy); "
    "random picks uniformly among the legal actions (for testing); "
    "idle never charges cards and never acts, so its AP is exactly start + 10 per turn (a baseline)."
)


HELP = " ".join("""
Goldfish a deck: play many solitaire games and report opening hands and the AP curve (SPEC G1-G3).
""".split()) + "\n\n" + " ".join("""
The report starts with a summary: the kill turn (mean and p50 over the games won, and the share won by
the end of each of the first turns), the opponent, and the opening-hand check. Then the details.
""".split()) + "\n\n" + " ".join("""
The opening hand (5 cards after the Commander leaves the deck, S1, S6) gets exact hypergeometric
probabilities next to simulated ones with 95% Wilson intervals: at least one card that can grow or
focus the Commander; at least one Level 1 card; at least one card deployable with the turn-1 AP
(starting AP, S7, plus the AP Charge's 10, T2a; a card sharing the Commander's or a Nameless's name
does not count, M1); and every --want. Then the kill turn (G5: on which turn the games were won,
and by each turn, with a chart of the win curve); per turn, each measure's mean and p10/p50/p90
(nearest rank) over the games still being played; and the turn a Level 3 and a Level 4 ally first
appear. A game stops at the end of the turn it is won, unless --play-on.
""".split()) + "\n\n" + " ".join("""
A deck of another game (its `game` key; see `sengoku games`) gets its opening hand only: for
Senjutsu and champions, exact and simulated probabilities of at least one card of each kind (and
Senjutsu rank), of every --want, and by round, using --runs, --seed, --want, --json and --db (the
engine's options are refused, exit 2). The Fire Emblem TCG and clan tactics deal no opening hand
from a shuffled deck: exit 2 with the reason.
""".split()) + "\n\n" + " ".join("""
The report goes to stdout, a one-line summary (and a progress bar on long runs in a terminal) to
stderr. Exit 0 on success; 1 when the deck is not valid (the validator's report is shown) or a
simulated probability fails its check against the exact value (an exact binomial tail below a
threshold a correct simulation crosses in fewer than one run in a million: a bug); 2 on unusable
input or options.
""".split())


@app.command("goldfish", help=HELP)
def goldfish_command(
    deck: Optional[Path] = typer.Argument(
        None, readable=False, metavar="DECK", help="The decklist (TOML) to simulate. Default: the bundled default deck "
        "(decklists/default.toml).", show_default=False),
    runs: int = typer.Option(10_000, "--runs", "-n", help="Number of games to play (1 to 10,000,000); with "
                             "--precision, the most to play."),
    precision: Optional[float] = typer.Option(
        None, "--precision", metavar="TURNS", help="Play in rounds until the 95% interval of the mean kill turn "
        "over every game (a game not won counting as turns + 1) is at most ±TURNS, or --runs are played. "
        "Same inputs give the same runs and the same JSON for any --jobs.", show_default=False),
    turns: Optional[int] = typer.Option(None, "--turns", "-t", help="Turns played in each game (1 to 200).",
                                        show_default=str(DEFAULT_TURNS)),
    seed: int = SEED,
    going: Optional[str] = typer.Option(None, "--going", help="Play first (start with 0 AP, no attack on "
                                        "turn 1) or second (start with 5 AP) (S7, S8).", show_default="first"),
    policy: Optional[str] = typer.Option(None, "--policy", help=POLICY_HELP, show_default=DEFAULT_POLICY),
    policy_setting: list[str] = POLICY_SETTING,
    commander: Optional[str] = typer.Option(
        None, "--commander", metavar="NAME", help="Pin the Commander to this Level 1 Main card name. "
        "Default: the Level 1 Main whose name has the most higher-level copies in the deck (S1).",
        show_default=False),
    mode: Optional[str] = typer.Option(
        None, "--mode", help="standard or ultimate. Default: the decklist's own `mode`. "
        "The deck is validated under the mode played.", show_default=False),
    jobs: Optional[int] = JOBS,
    opponent: Optional[Path] = typer.Option(
        None, "--opponent", readable=False, metavar="DECK", help="The opponent's decklist (G4), validated like DECK under the "
        "mode played (an invalid one is exit 1 with the validator's report). Default: a mirror of DECK.",
        show_default=False),
    opponent_defends: bool = OPPONENT_DEFENDS,
    play_on: bool = PLAY_ON,
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON (runs, turns, seed, going, "
                                 "policy, mode, commander, opening_hand, kill_turn, curve, first_level3/4, "
                                 "…) instead of tables."),
    plot: Optional[Path] = typer.Option(
        None, "--plot", metavar="FILE", help="Also draw the AP curve, board growth and win curve to FILE (.png or .svg). "
        "Needs the optional plot extra: pip install 'sengoku\\[plot]'.", show_default=False),
    html: Optional[Path] = typer.Option(
        None, "--html", metavar="FILE", help="Also write the report as one self-contained HTML page (the deck, the "
        "options and the command that reproduces it, tables and charts; loads nothing from the network, prints well).",
        show_default=False),
    force: bool = FORCE,
    trace: Optional[str] = typer.Option(
        None, "--trace", metavar="RUN", help="Instead of the report, play run RUN of this simulation again and "
        "print it turn by turn (G8): RUN is a run index from 0, or fastest, median or slowest "
        "(all --runs are played first; ties: the lowest index). With --json: JSON Lines, one event a line "
        "(schemas/trace.schema.json).", show_default=False),
    want: list[str] = typer.Option(
        [], "--want", metavar="NAME[:N]", help="An opening-hand event: at least N (default 1) copies of "
        "NAME, any level. Repeat for several; they are also reported all together. Exact "
        "(hypergeometric) and simulated probabilities are shown side by side. A name may hold ':': the text "
        "is split at the last ':' only when a number follows (--want 'Ninja: Shadow:2'); quote a name that "
        "ends in ':' and a number (--want '\"Ten:10\":2').", show_default=False),
    check_player: Optional[int] = typer.Option(
        None, "--check-player", metavar="N", help="Also play the first N of the run's deals again with the search "
        "policy (the same deals) and report how far the policy is from it: the paired gap of the kill turn, policy "
        "minus search, with its 95% interval, and whether the player is within 0.1 turns of a search on this deck "
        "(G6), a warning when it is not, or that N deals cannot tell. N is at most --runs. Slow: a search game "
        "costs about 0.5 s of CPU compiled (thousands of the default policy's games), so 300 deals take about 2.5 CPU "
        "minutes, spread over --jobs.", show_default=False),
    db: Optional[Path] = DB,
) -> None:
    """Goldfish a deck (see HELP)."""
    # Choice words read like names elsewhere: case and surrounding spaces do not matter. An
    # option left out stays None: the library fills the engine's defaults, and refuses an engine
    # option given for a deck of a game that gets its opening hands only.
    going, policy, mode = (v.strip().lower() if v is not None else None for v in (going, policy, mode))
    # deferred: start-up time of the other commands
    from sengoku.goldfish.api import EngineOptionError, InvalidDeckError, goldfish
    from sengoku.goldfish.other_games import MAX_RUNS, NoOpeningHandError

    # Option values are checked by the library (GoldfishError: a message and exit 2); the CLI adds
    # what only it can judge. A run count no one can wait for (10**23 ran until killed) is refused
    # with the same bound as the other games' opening-hand path.
    if runs > MAX_RUNS:
        raise DataError(None, f"--runs must be from 1 to {MAX_RUNS:,}, not {runs}")
    # every output checked before the simulation, against the run's inputs and each other
    check_outputs({"--plot": plot, "--html": html}, play_inputs([deck if deck is not None else DEFAULT_DECK], opponent,
                                                                 db), replace=force)
    if plot is not None:
        # deferred: start-up time of the other commands
        from sengoku.goldfish.reports.plot import check_plot_path

        check_plot_path(plot, replace=force)
    if trace is not None:
        for option, given in (("--html", html), ("--plot", plot), ("--precision", precision),
                              ("--check-player", check_player)):
            if given is not None:
                raise DataError(None, f"--trace prints one game instead of the report: {option} cannot go with it")

    # the options as one record, checked here once (a value no game can use exits 2) and passed whole
    spec = policy_choice(policy, policy_setting)  # the policy and its settings: one PolicySpec
    options = PlayOptions.given(turns=turns, seed=seed, policy=spec, going=going, commander=commander, mode=mode,
                                jobs=jobs, opponent=opponent, opponent_defends=opponent_defends or None,
                                play_on=play_on or None)
    note = options.jobs_note("--jobs")
    if note:
        typer.echo(f"note: {note}", err=True)
    show_progress = (not as_json and (runs * options.turns >= PROGRESS_MIN_GAME_TURNS or check_player is not None)
                     and sys.stderr.isatty())
    started = time.perf_counter()

    if trace is not None:
        _trace(trace, deck, db, runs=runs, options=options, as_json=as_json, progress=show_progress)
        return

    def run(progress=None):  # type: ignore[no-untyped-def]
        return goldfish(deck, db, runs=runs, options=options, wants=want, progress=progress, precision=precision,
                        traces=REPORT_TRACES if html is not None else (), check_player=check_player)

    try:
        # the bar counts the runs, then the deals the search plays again
        result = with_progress(runs + (check_player or 0), run) if show_progress else run()
    except EngineOptionError as exc:
        typer.echo(f"error: --{exc.option.replace('_', '-')} drives SENGOKU YUGI's turn-by-turn engine; a {exc.game} deck "
                   "gets its opening hand only (options: --runs, --seed, --want, --json, --db)", err=True)
        raise SystemExit(2) from None
    except NoOpeningHandError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise SystemExit(2) from None
    except InvalidDeckError as exc:
        refuse_invalid(exc)
        raise SystemExit(1) from None
    elapsed = time.perf_counter() - started
    if isinstance(result, dict):  # issue 5: another game's deck got its opening-hand report
        _opening_hands(result, runs, elapsed, as_json, plot, html)
        return

    if as_json:
        write_document(result.to_json(), "json")
    else:
        # deferred: rich's start-up time, paid only when something is printed with it
        from rich.console import Console

        from sengoku.goldfish.reports.report import render

        tty = sys.stdout.isatty()
        render(result, Console(highlight=False, width=None if tty else 120, force_terminal=tty or None))
    if plot is not None:
        # deferred: start-up time of the other commands
        from sengoku.goldfish.reports.plot import save_plot

        save_plot(result, plot, replace=force)
    if html is not None:
        # deferred: start-up time of the other commands
        from sengoku.goldfish.reports.html_report import render_html, reproduce_command

        traces = _report_traces(result)
        write_atomically(html, render_html(result, reproduce_command(result, db=db, html=html), traces=traces),
                         replace=force)
    engine = "" if engine_compiled() else ", pure-Python engine"  # (see docs/performance.md)
    check = result.check_player
    speed = (f"{result.runs / elapsed:,.0f} games/s, " if check is None
             else f"the player check's {check.deals} search game(s) included, ")
    typer.echo(f"{result.runs} games × {options.turns} turns in {elapsed:.2f} s ({speed}"
               f"up to {options.workers} job(s){engine})" + (f"; plot written to {plot}" if plot else "")
               + (f"; HTML report written to {html}" if html else ""), err=True)
    if result.check_player is not None and result.check_player.verdict == NOT_WITHIN:
        typer.echo(f"warning: {result.check_player.words()}", err=True)
    if not result.ok:
        for message in result.to_dict()["errors"]:
            typer.echo(f"error: {message}", err=True)
        typer.echo(f"error: {len(result.errors)} simulated probability(ies) far from exact, which a correct "
                   "simulation shows in fewer than one run in a million: a bug in the simulation, please "
                   "report it", err=True)
        raise SystemExit(1)


def _trace(run: str, deck: Optional[Path], db: Optional[Path], *, runs: int, options, as_json: bool,  # type: ignore[no-untyped-def]
           progress: bool) -> None:
    """Print one run of the simulation, turn by turn (text) or as JSON Lines; a summary line on stderr."""
    # deferred: start-up time of the other commands
    from sengoku.goldfish.api import InvalidDeckError
    from sengoku.trace import parse_run, trace_run

    which = parse_run(run)
    started = time.perf_counter()

    def call(progress=None):  # type: ignore[no-untyped-def]
        return trace_run(deck, db, run=which, runs=runs, options=options, progress=progress)

    try:
        traced = with_progress(runs, call) if progress and isinstance(which, str) else call()
    except InvalidDeckError as exc:
        refuse_invalid(exc)
        raise SystemExit(1) from None
    if as_json:
        write_document(traced.jsonl(), "json")
    else:
        write_document(traced.text())
    chosen = f" (the {traced.chosen} of {runs:,} games)" if traced.chosen else ""
    end = f"won on turn {traced.won_turn}" if traced.won_turn is not None else "not won"
    typer.echo(f"run {traced.run}{chosen} traced: {end}; {time.perf_counter() - started:.2f} s", err=True)


def _report_traces(result) -> list[tuple[str, str]]:  # type: ignore[no-untyped-def]
    """The games `goldfish()` traced for the HTML report (`REPORT_TRACES`) as text (G8)."""
    # deferred: start-up time of the other commands
    from sengoku.trace import Trace

    traces = []
    for traced in result.traced:
        end = f"won on turn {traced.won_turn}" if traced.won_turn is not None else f"not won within {result.turns} turns"
        traces.append((f"The {traced.chosen} game: run {traced.run}, {end}", Trace.of(traced).text()))
    return traces


def with_progress(runs: int, call, label: str = "goldfish"):  # type: ignore[no-untyped-def]
    # deferred: rich's start-up time, paid only when something is printed with it
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    with Progress(label, BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("games", total=runs)
        return call(lambda done: bar.update(task, completed=done))


def _opening_hands(report: dict, runs: int, elapsed: float, as_json: bool, plot: Optional[Path],
                   html: Optional[Path]) -> None:
    """Print another game's opening-hand report; exit 1 when a simulated value is far from its exact one."""
    # deferred: start-up time of the other commands
    from sengoku.goldfish.other_games import render_text

    for option, given in (("--plot", plot), ("--html", html)):
        if given is None:
            continue
        # no curve to draw: --plot and --html, like the engine's options, are refused
        typer.echo(f"error: {option} drives SENGOKU YUGI's turn-by-turn engine; a {report['game']} deck gets its "
                   "opening hand only (options: --runs, --seed, --want, --json, --db)", err=True)
        raise SystemExit(2)
    if as_json:
        write_document(json.dumps(report, ensure_ascii=False, indent=2, allow_nan=False) + "\n", "json")
    else:
        typer.echo(render_text(report), nl=False)
    typer.echo(f"{runs} opening hands dealt in {elapsed:.2f} s", err=True)
    for err in report["errors"]:
        typer.echo(f"error: {err}: a bug in the simulation, please report it", err=True)
    if not report["ok"]:
        raise SystemExit(1)


def play_inputs(decks: list[Path], opponent: Optional[Path], db: Optional[Path]) -> list[Input]:
    """What a run of goldfish, compare or tune reads: its decklists, the --opponent's, the card database."""
    inputs = [Input("the decklist" if len(decks) == 1 else f"decklist {k} of {len(decks)}", deck)
              for k, deck in enumerate(decks, start=1)]
    if opponent is not None:
        inputs.append(Input("the --opponent decklist", opponent))
    return inputs + database_inputs(db)


def refuse_invalid(exc) -> None:  # type: ignore[no-untyped-def]
    """Show why the deck cannot be simulated: the validator's own text report, on stderr."""
    # deferred: start-up time of the other commands
    from sengoku.goldfish.reports.report import validation_report

    typer.echo(f"error: {exc}", err=True)
    typer.echo(validation_report(exc.validation), err=True, nl=False)
