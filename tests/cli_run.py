"""Run the `sengoku` command line in this process, as its console script does."""

from __future__ import annotations

import sys

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
