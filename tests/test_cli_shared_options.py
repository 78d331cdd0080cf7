"""`goldfish` and `compare` explain the options they share in the same words (one declaration)."""

from __future__ import annotations

import typer.main

import sengoku.cli.compare  # noqa: F401  (each command module adds its command to the application)
import sengoku.cli.goldfish  # noqa: F401
from sengoku.cli.root import app

SHARED = ("--seed", "--jobs", "--opponent-defends", "--play-on", "--force", "--db")


def _options(command_name: str) -> dict[str, tuple[object, str | None]]:
    group = typer.main.get_command(app)
    command = group.commands[command_name]  # type: ignore[attr-defined]
    return {opt: (p.default, p.help) for p in command.params for opt in p.opts}


def test_shared_options_have_one_meaning():
    goldfish, compare = _options("goldfish"), _options("compare")
    for opt in SHARED:
        assert opt in goldfish and opt in compare, opt
        assert goldfish[opt] == compare[opt], opt
        assert goldfish[opt][1], opt  # explained, not bare
