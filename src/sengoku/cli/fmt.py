"""`sengoku fmt`: rewrite decklists in canonical form, or check that they already are."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from sengoku.cli import app
from sengoku.cli.streams import write_document
from sengoku.errors import DataError
from sengoku.files import read_stdin
from sengoku.folders import find_tomls


@app.command("fmt")
def fmt(
    paths: list[Path] = typer.Argument(
        ..., readable=False, metavar="PATHS...", help="Decklist files, or folders (every *.toml below them). '-' reads stdin and writes stdout."),
    check: bool = typer.Option(
        False, "--check", help="Change nothing: print a unified diff of each file that is not in canonical "
        "form and exit 1 if there is one (for CI)."),
    db: Optional[Path] = typer.Option(
        None, "--db", readable=False, help="Card database (folder or cards.json) used to sort entries by kind. "
        "Default: the decklist's game's database ($SENGOKU_DB, else the bundled sample set)."),
) -> None:
    """Rewrite decklists in canonical form: sections in order, entries sorted by kind, level and
    name, repeated entries of a card merged (counts summed), keys in a fixed order.

    Comments move with the key or entry they sit above; a comment that cannot be kept is named
    on stderr. Files are replaced atomically (never half-written). Exit 0 when done (or, with
    --check, when nothing would change), 1 when --check finds a file to reformat, 2 when a file
    cannot be read, is not valid TOML, or must not be rewritten: a TOML file that is not a
    decklist (pyproject.toml), a FIFO or device, a read-only file (each left untouched).
    """
    # deferred: start-up time of the other commands
    from sengoku.decklist.fmt import canonical_decklist, fmt_decklist

    if db is not None:
        # An explicit --db that cannot be read is unusable input: without it fmt would fall back
        # to sorting by level and name only and rewrite every file in a different order.
        # deferred: start-up time of the other commands
        from sengoku.carddb.load import read_json, resolve_cards_file

        read_json(resolve_cards_file(db))

    changed = unusable = same = 0
    for found in find_tomls(paths, stdin=True):
        path = found.path
        if found.problem is not None:  # in a folder: a dangling link, a FIFO, an unreadable folder
            typer.echo(f"error: {path}: {found.problem}", err=True)
            unusable += 1
            continue
        try:
            if str(path) == "-":
                result = canonical_decklist(read_stdin(keep_bom=True), path="<stdin>", db=db)
                write_document(result.diff() if check else result.formatted, "toml")
            else:
                result = fmt_decklist(path, check=check, db=db)
        except DataError as exc:
            typer.echo(f"error: {exc}", err=True)
            unusable += 1
            continue
        for note in result.notes:
            typer.echo(f"{result.path}: {note}", err=True)
        if not result.changed:
            same += 1
            continue
        changed += 1
        if check:
            if str(path) != "-":
                write_document(result.diff(), "toml")
            typer.echo(f"would reformat {result.path}", err=True)
        elif str(path) != "-":
            typer.echo(f"reformatted {result.path}", err=True)
    verb = "would be reformatted" if check else "reformatted"
    summary = f"{changed} file(s) {verb}, {same} already canonical"
    if unusable:
        summary += f", {unusable} could not be formatted"
    typer.echo(summary, err=True)
    if unusable:
        raise typer.Exit(2)
    if check and changed:
        raise typer.Exit(1)
