"""The `sengoku` command line: a thin layer over the library.

Each command lives in its own module under `sengoku.cli`; they parse arguments, call the
library, hand the result to a reporter and exit with a code. Heavy modules are imported inside
the commands so that `sengoku --help` starts fast.

Exit codes, everywhere: 0 success, 1 problems found (invalid deck, bad card DB), 2 the input
could not be used at all (missing or unreadable file, bad option).
"""

from __future__ import annotations

import sys

import typer

from sengoku.version import __version__

app = typer.Typer(
    name="sengoku",
    help=(
        "Check SENGOKU YUGI decklists against the construction rules and a card database, "
        "and goldfish a deck: simulate its opening hands and its AP curve turn by turn."
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
)


def _version(value: bool) -> None:
    if value:
        from sengoku.build import engine_build

        typer.echo(f"sengoku {__version__} (rules engine: {engine_build()})")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Show the version and exit."
    ),
) -> None:
    """Decklist validator and goldfish simulator for SENGOKU YUGI."""


def _register() -> None:
    # Importing a command module adds its commands to `app`.
    from sengoku.cli import cards, db, fmt, formats, games, goldfish, importer, validate  # noqa: F401


def main() -> None:
    """Run the CLI; turn library errors into a message and exit code 2, never a traceback.

    Typer's standalone mode already maps usage errors to exit 2 and `typer.Exit(code)` to its
    code; the library's own `SengokuError` passes through it and is reported here.
    """
    from sengoku.errors import SengokuError

    _register()
    try:
        app()
    except SengokuError as exc:
        typer.echo(f"error: {exc}", err=True)
        sys.exit(2)
