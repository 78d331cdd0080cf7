"""The typer application every command registers on, with the root options (`--version`)."""

from __future__ import annotations

from typing import Any

import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup

from sengoku.cli import COMMAND_SUMMARIES, version_line


class Command(TyperCommand):
    """A command whose usage line reads as usage lines do: `PATHS...`, `DECK`, `[QUERY]`.

    Typer writes a required argument in braces and an unnamed one in lower case (`{paths}...`,
    `{deck}`); here each argument is its metavar (else its name in capitals, `...` when it takes
    several), in brackets when it may be left out.
    """

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if isinstance(param, TyperArgument):
                var = param.metavar or (param.name or "").upper() + ("..." if param.nargs != 1 else "")
                pieces.append(var if param.required else f"[{var}]")
            else:
                pieces.extend(param.get_usage_pieces(ctx))
        return pieces


class Typer(typer.Typer):
    """A typer application whose commands are `Command`s (usage lines as usual)."""

    def command(self, *args: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("cls", Command)
        return super().command(*args, **kwargs)


class _Root(TyperGroup):
    """The root command: lists its commands in the order of `COMMAND_SUMMARIES`."""

    def list_commands(self, ctx: Any) -> list[str]:
        known = [name for name in COMMAND_SUMMARIES if name in self.commands]
        return known + [name for name in self.commands if name not in COMMAND_SUMMARIES]


app = Typer(
    name="sengoku",
    cls=_Root,
    help=(
        "Check SENGOKU YUGI decklists against the construction rules and a card database, "
        "and goldfish a deck: simulate its opening hands and its AP curve turn by turn."
    ),
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    # Plain help and usage errors: typer's rich formatting imports rich, rich.markdown, markdown-it
    # and pygments before printing a line (start-up time). Help texts hold no rich markup.
    rich_markup_mode=None,
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


def list_commands_from_summaries() -> None:
    """Register a stand-in per command that carries only its summary, for a run that prints the overview.

    Such a run (`sengoku`, `sengoku --help`) never invokes a command, so it need not import the
    command modules; the stand-ins give `--help` the same lines the commands would.
    """
    for name, summary in COMMAND_SUMMARIES.items():
        app.command(name, help=summary)(_stand_in)


def _stand_in() -> None:  # pragma: no cover - never invoked: see list_commands_from_summaries
    raise typer.Exit(2)
