"""The goldfish options' choices and defaults, in a module light enough for the CLI to import at start-up."""

from __future__ import annotations

GOINGS = ("first", "second")
MODES = ("standard", "ultimate")
DEFAULT_RUNS = 10_000
DEFAULT_TURNS = 8
MAX_TURNS = 200
