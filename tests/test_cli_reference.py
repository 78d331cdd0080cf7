"""docs/cli.md is generated from the typer application (scripts/cli_reference.py): it says what
`--help` says, and it is up to date."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "cli_reference.py"


def test_the_committed_reference_is_what_the_application_says() -> None:
    done = subprocess.run([sys.executable, str(SCRIPT), "--check"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, "docs/cli.md is out of date: run python scripts/cli_reference.py\n" + done.stdout


def test_every_command_and_option_is_on_the_page() -> None:
    page = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    for command in ("validate", "goldfish", "compare", "cards", "formats", "fmt", "import", "games", "db check"):
        assert f"## `sengoku {command}`" in page, command
    goldfish = page.split("## `sengoku goldfish`", 1)[1].split("\n## ", 1)[0]
    help_text = subprocess.run([sys.executable, "-m", "sengoku", "goldfish", "--help"], capture_output=True,
                               text=True, timeout=60).stdout
    for option in ("--runs", "--opponent-defends", "--want", "--precision", "--html"):  # what --help lists
        assert option in help_text and (f"`{option}" in goldfish or f", {option}" in goldfish), option
