"""`sengoku db ...`: check card databases (cards, board geometry, format files)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from sengoku.cli import app
from sengoku.cli.root import Typer
from sengoku.cli.streams import write_document
from sengoku.display import json_text, printable

db_app = Typer(help="Card database tools.", no_args_is_help=True)
app.add_typer(db_app, name="db")


def exit_with(code: int) -> None:
    """Exit with `code`, also through `cli.main()`.

    `main()` runs the app with standalone_mode=False, where click turns `typer.Exit` into a
    return value that is then dropped; SystemExit passes through to the shell (and CliRunner).
    """
    if code:
        raise SystemExit(code)


@db_app.command("check")
def check(
    path: Optional[Path] = typer.Argument(
        None, readable=False, metavar="PATH",
        help="A card database folder (its cards.json, board.json and formats/*.toml are all checked), "
        "a cards file, or a board.json. Default: $SENGOKU_DB, else the bundled sample set.",
        show_default=False,
    ),
    as_json: bool = typer.Option(
        False, "--json", help="Print the problems as a JSON list (path, line, card_id, json_path, code, "
        "severity, message) instead of text lines."
    ),
) -> None:
    """Check a card database against its schema and the card rules (SPEC C1-C5, B1).

    Every problem is listed on stdout with the file, line, card id and JSON path, all at once;
    a summary goes to stderr. Exit 0 when clean (warnings allowed), 1 when errors were found,
    2 when the input cannot be read at all (missing file, not JSON: the line and column are named);
    in a folder, the other files are still checked and reported.
    """
    # deferred: start-up time of the other commands
    from sengoku.db_check import check_card_db, problem_json

    report = check_card_db(path)
    if as_json:
        write_document(json_text([problem_json(p) for p in report.problems], indent=2) + "\n", "json")
    else:
        _print_problems(report.problems)
    for file in report.files:
        errors = sum(1 for p in report.errors if p.path == file)
        warnings = sum(1 for p in report.problems if p.path == file and p.severity != "error")
        status = "ok" if not errors else f"{errors} error(s)"
        typer.echo(f"{file}: {status}" + (f", {warnings} warning(s)" if warnings else ""), err=True)
    others = [p for p in report.errors if p.path not in report.files]
    if others:  # e.g. format files checked through the hook
        typer.echo(f"{len(others)} error(s) in other files of the database", err=True)
    exit_with(2 if report.unreadable else 1 if report.errors else 0)


def _print_problems(problems: list) -> None:
    # deferred: rich's start-up time, paid only when something is printed with it
    from rich.console import Console
    from rich.markup import escape

    console = Console(highlight=False, soft_wrap=True)
    for p in problems:
        style = "bold red" if p.severity == "error" else "yellow"
        console.print(f"[{style}]{p.severity}[/{style}]: {escape(printable(p.location()))}: "
                      f"{escape(printable(p.message))}")
