"""`sengoku formats`: (being built; see the issue tracker)."""

from __future__ import annotations

from sengoku.cli import app  # noqa: F401
