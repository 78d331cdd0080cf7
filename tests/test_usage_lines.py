"""Every command's usage line reads as usage lines do: `PATHS...`, `DECK`, `[QUERY]` (issue 34).

Typer wrote a required argument in braces and an argument without a metavar in lower case
(`{paths}...`, `{deck}`), which a reader copies into a shell as they are.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

SENGOKU = Path(sys.executable).parent / "sengoku"  # the console script, as a user runs it


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(SENGOKU), *args], capture_output=True, text=True, timeout=60)

USAGE = {
    ("validate",): "PATHS...",
    ("fmt",): "PATHS...",
    ("tune",): "DECK",
    ("goldfish",): "[DECK]",
    ("cards",): "[QUERY]",
    ("import",): "FILE",
    ("compare",): "DECK_A DECK_B [DECK_C ...]",
    ("db", "check"): "[PATH]",
    ("db",): "COMMAND [ARGS]...",
    ("formats",): "",
    ("games",): "",
}


@pytest.mark.parametrize("command", list(USAGE), ids=" ".join)
def test_the_usage_line_names_each_argument_in_capitals(command: tuple[str, ...]) -> None:
    done = run(*command, "--help")
    assert done.returncode == 0, done.stderr
    first = done.stdout.splitlines()[0]
    assert first == f"Usage: sengoku {' '.join(command)} [OPTIONS] {USAGE[command]}".rstrip()
    assert not re.search(r"[{}]", first)


def test_a_missing_argument_is_named_as_the_usage_line_names_it() -> None:
    done = run("tune")
    assert done.returncode == 2
    err = done.stderr
    assert err.startswith("Usage: sengoku tune [OPTIONS] DECK\n")
    assert "Missing argument 'DECK'" in err


def test_the_arguments_section_shows_the_same_names() -> None:
    out = run("validate", "--help").stdout
    assert re.search(r"^Arguments:\n  PATHS\.\.\.  Decklist files", out, re.M)
