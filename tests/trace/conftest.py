"""Helpers for the goldfish tests: run the real CLI entry point in-process (fast, real exit codes)."""

from __future__ import annotations

import sys
from dataclasses import dataclass

import pytest


@dataclass
class Outcome:
    code: int
    out: str
    err: str


@pytest.fixture
def cli(capsys, monkeypatch):
    """Call `sengoku.cli.main()` with the given arguments; return exit code, stdout, stderr."""

    def run(*args: str) -> Outcome:
        from sengoku.cli import main

        monkeypatch.setattr(sys, "argv", ["sengoku", *args])
        code = 0
        try:
            main()
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
        captured = capsys.readouterr()
        return Outcome(code, captured.out, captured.err)

    return run
