"""The typer application every command registers on, with the root options (`--version`)."""

from __future__ import annotations

import typer

from sengoku.cli import version_line

app = typer.Typer(
    name="sengoku",
    help=(
        "Check SENGOKU YUGI decklists against the construction rules and a card database, "
        "and goldfish a deck: simulate its opening hands and its AP curve turn by turn."
    ),
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
)


def _version(value: bool) -> None:
    if value:
        typer.echo(version_line())
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Show the version and exit."
    ),
) -> None:
    """Decklist validator and goldfish simulator for SENGOKU YUGI."""
