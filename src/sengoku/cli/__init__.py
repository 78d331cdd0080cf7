"""The `sengoku` command line: a thin layer over the library.

Each command lives in its own module under `sengoku.cli`; they parse arguments, call the
library, hand the result to a reporter and exit with a code. Heavy modules are imported inside
the commands so that `sengoku --help` starts fast.

Exit codes, everywhere: 0 success, 1 problems found (invalid deck, bad card DB), 2 the input
could not be used at all (missing or unreadable file, bad option).
"""

from __future__ import annotations

import errno
import importlib
import sys
from collections.abc import Sequence
from typing import Any

from sengoku.build import engine_build
from sengoku.cli import streams
from sengoku.display import printable_lines
from sengoku.errors import SengokuError
from sengoku.version import __version__


def __getattr__(name: str) -> Any:
    # `from sengoku.cli import app` (every command module) imports typer and the application
    # only when asked: `sengoku --version` needs neither (start-up time).
    if name == "app":
        from sengoku.cli.root import app  # deferred: start-up time, as above

        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def version_line() -> str:
    """Return what `sengoku --version` prints."""
    return f"sengoku {__version__} (rules engine: {engine_build()})"


# Each command's name -> the module under sengoku.cli that registers it (tests/test_cli_basics.py
# holds this to the commands the application has).
COMMAND_MODULES = {
    "cards": "cards", "compare": "compare", "db": "db", "fmt": "fmt", "formats": "formats", "games": "games",
    "goldfish": "goldfish", "impact": "impact", "import": "importer", "tune": "tune", "validate": "validate",
}


# What `sengoku --help` lists for each command, in this order: the first paragraph of its
# docstring. The overview is printed from here, without importing a command module
# (tests/test_cli_basics.py holds it to what the commands themselves say).
COMMAND_SUMMARIES = {
    "validate": "Check decklists against every deck-construction rule of their game (SPEC D1-D8 for SENGOKU "
                "YUGI) and a card database, reporting every problem of every file with its rule id and line.",
    "goldfish": "Goldfish a deck: play many solitaire games and report opening hands and the AP curve (SPEC G1-G3).",
    "compare": "Compare SENGOKU YUGI decks on the same deals: every deck plays the same runs with the same seed, "
               "policy, opponent, going and turns, run i of every deck from the same seeds (common random "
               "numbers), so the paired differences are far less noisy than two separate goldfish runs. The first "
               "deck is the baseline.",
    "cards": "List cards of a card database, filtered by kind, level, weapon, attribute and name.",
    "formats": "List tournament formats with the list in force (effective date, source, counts) and any later lists.",
    "fmt": "Rewrite decklists in canonical form: sections in order, entries sorted by kind, level and name, "
           "repeated entries of a card merged (counts summed), keys in a fixed order.",
    "import": "Import a plain-text SENGOKU YUGI decklist as decklist TOML.",
    "games": "List the games whose decklists sengoku validates, with their card databases and rules.",
    "db": "Card database tools.",
    "tune": "Tune a SENGOKU YUGI deck: find a better one, one legal card change at a time, each change won in a "
            "paired race on common random numbers.",
    "impact": "Measure what each card of a SENGOKU YUGI deck is worth: the effect on the kill turn of one copy "
              "fewer, played against the full deck on the same deals (common random numbers, SPEC G9).",
}

OVERVIEW_ARGS = ((), ("--help",))  # the runs that print only the overview of the commands


def _register(args: Sequence[str] | None = None) -> Any:
    """Import the command modules (each adds its commands to the application); return the application.

    When the first argument names a command, only its module is imported: the others cost every
    run start-up time (importing them, and typer building each command's parameters). A run that
    prints only the overview (`sengoku`, `sengoku --help`) imports none: each command is listed
    from `COMMAND_SUMMARIES`. Anything else (no `args`, an unknown word, shell completion) gets
    every command.
    """
    # deferred: start-up time; `sengoku --version` is answered without typer and the commands
    from sengoku.cli.root import app, list_commands_from_summaries

    if args is not None and tuple(args) in OVERVIEW_ARGS:
        list_commands_from_summaries()
        return app
    module = COMMAND_MODULES.get(args[0]) if args else None
    for name in [module] if module is not None else COMMAND_MODULES.values():
        importlib.import_module(f"sengoku.cli.{name}")  # deferred: start-up time, as above
    return app


def main() -> None:
    """Run the CLI; turn every failure into a message and an exit code, never a traceback.

    Exit codes: 0 success, 1 problems found, 2 unusable input or usage, and for the streams and
    signals (`sengoku.cli.streams`): 2 when stdout cannot be written, 141 when its pipe closed
    early (quietly), 130 on Ctrl-C, 143 on SIGTERM.
    """
    streams.guard_standard_streams()
    previous = streams.install_signal_handlers()
    try:
        code = _run()
    finally:
        streams.restore_signal_handlers(previous)
    sys.exit(code)


def _run() -> int | str | None:
    stdout, stdout_file = sys.stdout, streams.file_identity(1)
    try:
        try:
            if sys.argv[1:] == ["--version"]:
                # answered without importing typer and every command first: start-up time
                sys.stdout.write(version_line() + "\n")
            else:
                _register(sys.argv[1:])()
            code: int | str | None = 0
        except SystemExit as exc:  # how typer ends every command: output may still be buffered
            code = exc.code
        if sys.stdout is not stdout or streams.file_identity(1) != stdout_file:
            # Typer (which swaps sys.stdout for a quiet wrapper) or rich (which points descriptor 1
            # at /dev/null) met a broken pipe and exits 1. A closed pipe is the reader's choice,
            # not a failure: the SIGPIPE convention.
            streams.silence_stdout()
            return streams.EXIT_BROKEN_PIPE
        sys.stdout.flush()  # a full disk shows here, not as an ignored error at exit
        return code if code is not None else 0
    except SengokuError as exc:  # names and paths from untrusted files: nothing hidden reaches the terminal
        _say(f"error: {printable_lines(str(exc))}")
        return 2
    except KeyboardInterrupt:  # typer turns one during a command into exit 130; this is for the rest
        return streams.EXIT_INTERRUPTED
    except streams.Terminated:
        return streams.EXIT_TERMINATED
    except UnicodeDecodeError as exc:  # standard input, read as UTF-8 whatever the locale
        _say(f"error: <stdin>: not UTF-8 text (byte {exc.start})")
        return 2
    except OSError as exc:
        if exc.errno == errno.EPIPE:
            streams.silence_stdout()  # the reader left: nothing more to say, to anyone
            return streams.EXIT_BROKEN_PIPE
        _say(streams.write_error_message(exc))
        streams.silence_stdout()  # what is still buffered cannot be written either
        return streams.EXIT_WRITE_ERROR


def _say(message: str) -> None:
    try:
        print(message, file=sys.stderr, flush=True)
    except (OSError, ValueError):  # stderr unusable as well: the exit code has to say it
        pass
