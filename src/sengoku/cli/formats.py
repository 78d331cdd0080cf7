"""`sengoku formats`: list the tournament formats of a card database and the lists in force."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

from sengoku.cli import app
from sengoku.cli.streams import write_document
from sengoku.errors import DataError
from sengoku.paths import default_card_db


@app.command("formats")
def formats(
    db: Optional[Path] = typer.Option(
        None, "--db", readable=False, help="Card database folder (or its cards.json) whose formats/ folder to read. "
        "Default: $SENGOKU_DB, else the bundled sample set."),
    as_of: Optional[str] = typer.Option(
        None, "--as-of", metavar="DATE", help="Show the lists in force on this date (YYYY-MM-DD). Default: today."),
    as_json: bool = typer.Option(False, "--json", help="Print a JSON array (one object per format) instead of text."),
) -> None:
    """List tournament formats with the list in force (effective date, source, counts) and any later lists.

    A format is a data file, card_db/<game>/formats/<name>.toml; pass its name to
    `sengoku validate --format NAME`. Exit 0, or 2 when a format file cannot be read.
    """
    # deferred: start-up time of the other commands
    from sengoku.formats.load import formats_dir, list_formats
    from sengoku.formats.model import FormatError, parse_as_of

    try:
        day = parse_as_of(as_of)
    except FormatError as exc:  # name the option, as `validate --as-of` does
        raise FormatError("--as-of", exc.message) from None
    # A --db (or $SENGOKU_DB) that does not exist is unusable input (exit 2), not "no formats".
    folder = db if db is not None else default_card_db()
    if not folder.exists():
        raise DataError(folder, "no such card database folder or file")
    found = list_formats(db)
    rows = []
    for fmt in found:
        try:
            current = fmt.in_force(day)
        except FormatError:
            current = None
        rows.append((fmt, current, fmt.upcoming(day)))

    if as_json:
        def dump(lst):  # noqa: ANN001, ANN202
            return None if lst is None else {
                "effective": lst.effective.isoformat(), "source": lst.source,
                "banned": sorted(lst.banned), "restricted": sorted(lst.restricted),
                "limited": dict(sorted(lst.limited.items())),
                "sets": sorted(lst.sets) if lst.sets is not None else None,
            }
        out = [{"name": f.name, "title": f.title, "game": f.game, "sample": f.sample, "path": f.path,
                "as_of": day.isoformat(), "in_force": dump(cur),
                "lists": [{"effective": lst.effective.isoformat(), "source": lst.source} for lst in f.lists]}
               for f, cur, _ in rows]
        write_document(json.dumps(out, indent=2, ensure_ascii=False) + "\n", "json")
        return
    if not rows:
        typer.echo(f"no formats in {formats_dir(db)}", err=True)
        return
    for fmt, current, later in rows:
        sample = " [SAMPLE DATA]" if fmt.sample else ""
        typer.echo(f"{fmt.name}: {fmt.title}{sample} ({fmt.game})")
        if current is None:
            typer.echo(f"  no list in force on {day.isoformat()}")
        else:
            sets = ", ".join(sorted(current.sets)) if current.sets is not None else "all"
            typer.echo(f"  in force on {day.isoformat()}: list effective {current.effective.isoformat()}"
                       f" -- {len(current.banned)} banned, {len(current.restricted)} restricted,"
                       f" {len(current.limited)} limited; sets: {sets}")
            typer.echo(f"  source: {current.source}")
        for lst in later:
            typer.echo(f"  next: list effective {lst.effective.isoformat()} ({lst.source})")
    typer.echo(f"{len(rows)} format(s) in {formats_dir(db)}", err=True)
