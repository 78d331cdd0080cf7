"""`sengoku validate`: check decklists against their game's construction rules and a card database."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from enum import Enum
from pathlib import Path
from typing import Any, Optional

import typer

from sengoku.cli import app
from sengoku.cli.streams import write_document
from sengoku.display import printable
from sengoku.writes import Input, check_outputs, database_inputs, write_atomically

DOCUMENT_KINDS = {"json": "json", "sarif": "json", "junit": "xml"}


class Report(str, Enum):
    text = "text"
    json = "json"
    github = "github"
    junit = "junit"
    sarif = "sarif"
    markdown = "markdown"


@app.command("validate")
def validate(
    paths: list[Path] = typer.Argument(
        ..., readable=False, metavar="PATHS...", help="Decklist files, or folders: every *.toml below a folder is checked, in sorted order.",
        show_default=False),
    db: Optional[Path] = typer.Option(
        None, "--db", readable=False, help="Card database (cards.json or its folder) for decklists of its game. Default: "
        "the game's bundled database ($SENGOKU_DB for SENGOKU YUGI). A game.toml beside it replaces the "
        "bundled rules.", show_default=False),
    format: Optional[str] = typer.Option(
        None, "--format", help="Tournament format (a name from `sengoku formats`, or a format file) to "
        "check every decklist against; overrides each decklist's own `format` key.", show_default=False),
    as_of: Optional[str] = typer.Option(
        None, "--as-of", help="Check formats with the banned/restricted lists in force on this date "
        "(YYYY-MM-DD). Default: today.", show_default=False),
    strict: bool = typer.Option(
        False, "--strict", help="Warnings fail too (exit 1), e.g. a Nameless that can never grow."),
    report: Report = typer.Option(
        Report.text, "--output", "-o", help="Report format on stdout: text (path:line:col severity rule "
        "message \\[cards]), json, github (workflow annotations), junit (XML, one test case per file), "
        "sarif (2.1.0, for code scanning), markdown (a table of every file with its deck hash, for "
        "$GITHUB_STEP_SUMMARY)."),
    html: Optional[Path] = typer.Option(
        None, "--html", metavar="FILE", readable=False, help="Also write a printable registration sheet per deck "
        "(cards by section, deck hash, verdict, signature lines) to FILE: one self-contained HTML page.",
        show_default=False),
    force: bool = typer.Option(False, "--force", help="Replace the --html file if it exists."),
) -> None:
    """Check decklists against every deck-construction rule of their game (SPEC D1-D8 for SENGOKU
    YUGI) and a card database, reporting every problem of every file with its rule id and line.

    The report goes to stdout, a one-line summary to stderr.

    Exit 0 when every file is valid (warnings allowed unless --strict), 1 when any file has an error, 2 when a path does not exist, a folder holds no *.toml, a file cannot be read at all (the others are still reported), or the card database or an option cannot be used.
    """
    # deferred: start-up time of the other commands
    from sengoku.validate.api import iter_paths, parse_as_of
    from sengoku.validate.reporters import get_reporter

    reporter_class = get_reporter(report.value)  # an unknown name fails before any file is read
    # a path that must not be written fails before any file is read
    check_outputs({"--html": html}, validate_inputs(paths, db, format), replace=force)
    results = iter_paths(paths, db=db, format=format, as_of=parse_as_of(as_of))
    # Text and github lines are written at once; a document (json, junit, sarif, markdown, the
    # --html page) is spooled and written whole at the end, so a machine format is complete or
    # not written at all.
    reporter = reporter_class(sys.stdout, strict)
    sheets = None
    if html is not None:
        # deferred: only a run that writes registration sheets pays for their module
        from sengoku.validate.reporters.registration import Report as RegistrationSheets

        sheets = RegistrationSheets(None, strict)
    tally, skipped = check_all(results, [reporter] + ([sheets] if sheets is not None else []), strict)
    if sheets is not None and html is not None:
        page = sheets.finish(tally)
        write_atomically(html, page.chunks(), replace=force)
        page.close()
    document = reporter.finish(tally)
    write_document(document, DOCUMENT_KINDS.get(report.value, "text"))
    document.close()
    typer.echo(summary_line(tally, say_skipped(skipped)) + (f"; registration sheets written to {printable(str(html))}"
                                                    if html is not None else ""), err=True)
    raise typer.Exit(tally.exit_code)


def validate_inputs(paths: Iterable[Path | str], db: Optional[Path | str], format: Optional[str]) -> list[Input]:
    """What a run of validate reads: the decklists (every *.toml below a folder), the --format file, the --db."""
    inputs = [Input("a decklist", p, suffix=".toml") for p in paths]
    if format is not None:
        inputs.append(Input("the --format file", format))
    return inputs + (database_inputs(db) if db is not None else [])


def check_all(results: Iterable[Any], reporters: list[Any], strict: bool) -> tuple[Any, Any]:
    """Hand each result to every reporter as it comes; return the run's tally and a `Spool` of
    one note per skipped file (a TOML file that is no decklist), see `say_skipped`.

    Streamed: each file's result is dropped once the reporters have it, so memory stays flat in
    the number of files; the notes are spooled to a temporary file too.
    """
    # deferred: start-up time of the other commands
    from sengoku.validate.api import RunTally
    from sengoku.validate.reporters.spool import Spool

    tally = RunTally(strict)
    skipped = Spool()
    for result in results:
        if result.skipped is not None:
            skipped.write(printable(f"note: {result.path}: skipped, {result.skipped}") + "\n")
            continue
        tally.add(result)
        for reporter in reporters:
            reporter.add(result)
    return tally, skipped


def say_skipped(skipped: Any) -> int:
    """Write each note of a `check_all` spool to stderr, close it; return how many there were."""
    count = 0
    for note in skipped.lines():
        typer.echo(note, err=True)
        count += 1
    skipped.close()
    return count


def summary_line(tally: Any, skipped: int) -> str:
    """Return the one-line summary of a run, for stderr."""
    s = tally.summary()
    strict_note = " (--strict: warnings fail)" if tally.strict else ""
    return (f"{s['files']} file(s): {s['passed']} valid, {s['failed']} invalid; "
            f"{s['errors']} error(s), {s['warnings']} warning(s){strict_note}"
            + (f"; {skipped} skipped (not decklists)" if skipped else ""))
