"""Shared fixtures for the validator tests: the repository's folders and a one-file decklist writer."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DECKLISTS = ROOT / "decklists"
TEST_DECKLISTS = ROOT / "tests" / "decklists"


@pytest.fixture
def write(tmp_path: Path):
    """Write decklist text (str or bytes) to a temporary .toml file and return its path."""
    counter = iter(range(10_000))

    def _write(content: str | bytes, name: str | None = None) -> Path:
        path = tmp_path / (name or f"deck{next(counter)}.toml")
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8", newline="")
        return path

    return _write


def default_text() -> str:
    """The bundled Standard sample deck (valid: 52 Main/Support + 2 Nameless)."""
    return (DECKLISTS / "default.toml").read_text(encoding="utf-8")
