"""Helpers for the tests of the games beside SENGOKU YUGI (issue 5).

A module of its own, not `conftest`: several test folders have a conftest, and importing one
by that name picks whichever pytest loaded first.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("senjutsu", "fe-tcg", "clan-tactics", "champions")
EXPECT = re.compile(r"^# expect: (.*)$", re.M)


def sample_decklists() -> list[Path]:
    """Every sample decklist of the four games (valid/ and invalid/)."""
    return sorted(p for g in GAMES for p in (ROOT / "decklists" / g).glob("*/*.toml"))


def expected_rules(path: Path) -> set[str]:
    """The rule ids a decklist's `# expect:` line names (none: the deck has no violation)."""
    m = EXPECT.search(path.read_text(encoding="utf-8"))
    return {r.strip() for r in m.group(1).split(",")} if m else set()


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sengoku", *args], capture_output=True, text=True, cwd=ROOT)


def check_text(text: str, validator):  # type: ignore[no-untyped-def]
    """Validate decklist text (built in a test) and return the result."""
    from sengoku.decklist.read import parse_decklist

    deck, syntax = parse_decklist(text, "<test>")
    return validator.validate_deck(deck, syntax)


def deck_toml(game: str, cards: list[tuple[str, int]], section: str = "deck", **top: object) -> str:
    """Return decklist TOML for `game` listing `cards` (name, count) in one section."""
    lines = [f'game = "{game}"'] + [f"{k} = {v}" for k, v in top.items()]
    for name, count in cards:
        lines += [f"[[{section}]]", f"name = {json.dumps(name)}", f"count = {count}"]  # JSON strings are TOML strings
    return "\n".join(lines) + "\n"
