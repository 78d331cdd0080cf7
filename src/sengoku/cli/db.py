"""`sengoku db ...`: check card databases."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from sengoku.cli import app

db_app = typer.Typer(help="Card database tools.", no_args_is_help=True)
app.add_typer(db_app, name="db")


@db_app.command("check")
def check(
    path: Optional[Path] = typer.Argument(
        None, help="A card database file or folder. Default: $SENGOKU_DB, else the bundled sample set."
    ),
) -> None:
    """Check a card database against its schema and the card rules (SPEC C1-C5).

    Every problem is listed with the file, the card id and the JSON path. Exit 0 when clean,
    1 when problems were found, 2 when the input cannot be read.
    """
    from sengoku.carddb.load import check_card_db

    report = check_card_db(path)
    for problem in report.problems:
        typer.echo(f"{problem.severity}: {problem}")
    n = len(report.errors)
    files = ", ".join(report.files)
    if n:
        typer.echo(f"{files}: {n} problem(s)", err=True)
        raise typer.Exit(1)
    typer.echo(f"{files}: ok")
