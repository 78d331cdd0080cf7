"""`sengoku import`: turn a plain-text decklist (`3 Soma Lv2` per line) into decklist TOML."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional

import typer

from sengoku.cli import app
from sengoku.cli.streams import write_document
from sengoku.display import quoted
from sengoku.errors import DataError
from sengoku.files import read_stdin
from sengoku.games import DEFAULT_GAME


@app.command("import")
def import_(
    file: Path = typer.Argument(..., readable=False, metavar="FILE", help="The text decklist to import; '-' reads stdin."),
    output: Optional[Path] = typer.Option(
        None, "-o", "--output", help="Write the TOML to this file (atomically) instead of stdout."),
    force: bool = typer.Option(False, "--force", help="Overwrite the --output file if it exists."),
    mode: str = typer.Option(
        "auto", "--mode", help="Decklist mode: standard, ultimate, or auto (ultimate when the list holds "
        "familiars, else standard)."),
    name: Optional[str] = typer.Option(None, "--name", help="The deck's name (the TOML's `name` key)."),
    db: Optional[Path] = typer.Option(
        None, "--db", readable=False, help="Card database (folder or cards.json) to resolve card names against. "
        "Default: $SENGOKU_DB, else the bundled sample set."),
) -> None:
    """Import a plain-text SENGOKU YUGI decklist as decklist TOML.

    One card per line -- `3 Soma Lv2`, `3x Soma (Lv 2)`, `Soma Lv2 x3`, an epithet in quotes
    when a name and level are shared, or a card id -- under optional section headers (`Main:`,
    `Nameless:`, `Familiars:` or `[familiars]`); `#` and `//` start comments, which are kept.
    Cards are placed in the section their kind belongs in. Every line that is not understood,
    and every unknown card (with the closest names), is reported with its line number; then
    nothing is written and the exit code is 1. Exit 0 when written, 2 when the input cannot be
    read or the output must not be written: it exists (without --force), or is a FIFO, a
    device or read-only.
    """
    # deferred: start-up time of the other commands
    from sengoku.decklist.fmt import game_context
    from sengoku.decklist.text_import import MODES, import_text, read_text_list
    from sengoku.writes import check_outputs, database_inputs, write_atomically  # tempfile: ~7 ms of start-up

    if mode not in MODES:
        raise DataError(None, f"--mode must be one of {', '.join(MODES)}, not {mode!r}")
    # refused before anything is read: a FIFO, a device, a file without --force, a file of the --db. The
    # list itself is no such input: `-o LIST --force` converts it in place (only if nobody saved it meanwhile)
    check_outputs({"--output": output}, database_inputs(db), replace=force)
    source = "<stdin>" if str(file) == "-" else str(file)
    text, original = (read_stdin(), None) if str(file) == "-" else read_text_list(file)
    if output is None or not _same_file(file, output):
        original = None  # -o names another file: nothing read from it, nothing to lose
    _, cards, ctx_notes = game_context(DEFAULT_GAME, db)
    if cards is None:  # say why, as the other commands do (fmt's fallback note is not for import)
        # deferred: start-up time of the other commands
        from sengoku.carddb.load import read_json, resolve_cards_file

        cards_file = resolve_cards_file(db)  # a missing file or folder: DataError naming it
        read_json(cards_file)  # not JSON: DataError with line and column
        raise DataError(cards_file, "cannot read the card database: no `cards` list of card objects")
    result = import_text(text, cards, mode=mode, name=name, source=source)
    for problem in result.problems:
        typer.echo(f"{source}:{problem.line}: {problem.message}: {quoted(problem.text.strip())}", err=True)
    for note in result.notes:
        typer.echo(f"{source}: {note}", err=True)
    if result.problems:
        typer.echo(f"{source}: {len(result.problems)} line(s) not imported; nothing written", err=True)
        raise typer.Exit(1)
    counts = {s: sum(e.count for e in result.deck.section(s)) for s in ("main", "nameless", "familiars")}
    summary = ", ".join(f"{n} {s}" for s, n in counts.items() if n)
    if output is None:
        write_document(result.toml, "toml")
        typer.echo(f"{source}: imported {summary} ({result.deck.mode})", err=True)
    else:
        # onto the list itself (`-o` naming it, with --force): only if nobody saved it in between
        write_atomically(output, result.toml, replace=force, original=original)
        typer.echo(f"{source}: imported {summary} ({result.deck.mode}) -> {output}", err=True)


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False
