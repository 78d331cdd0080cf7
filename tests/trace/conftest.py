"""The trace tests' `cli` fixture: the real CLI entry point run in-process, giving an `Outcome` (code, out, err)."""

from cli_run import outcome_cli  # noqa: F401  (tests/cli_run.py; registers the `cli` fixture here)
