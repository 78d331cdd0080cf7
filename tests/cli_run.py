"""Run the `sengoku` command line in this process, as its console script does."""

from __future__ import annotations

import functools
import sys
from dataclasses import dataclass
from typing import Any

import pytest

from sengoku.cli import main


def run_sengoku(*args: str) -> int:
    """Run `sengoku ARGS`; return its exit code (what it prints goes to sys.stdout and sys.stderr)."""
    old = sys.argv
    sys.argv = ["sengoku", *args]
    try:
        main()
        return 0
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    finally:
        sys.argv = old


@dataclass
class Outcome:
    code: int
    out: str
    err: str


def run_captured(capsys: Any, *args: str) -> Outcome:
    """Run `sengoku ARGS` (`run_sengoku`); return its exit code and what pytest's `capsys` caught it printing."""
    code = run_sengoku(*args)
    captured = capsys.readouterr()
    return Outcome(code, captured.out, captured.err)


@pytest.fixture(name="cli")
def outcome_cli(capsys: pytest.CaptureFixture[str]):
    """`cli(*ARGS)` runs `sengoku ARGS` in-process and returns an `Outcome` (a folder's conftest imports it)."""
    return functools.partial(run_captured, capsys)
