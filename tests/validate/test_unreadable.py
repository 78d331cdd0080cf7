"""A decklist that cannot be read at all is reported with the others, and the run exits 2."""

from __future__ import annotations

import os
from pathlib import Path

from sengoku.validate.api import validate_paths

ROOT = Path(__file__).resolve().parents[2]


def test_unreadable_file_is_reported_and_exit_2(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    locked = tmp_path / "locked.toml"
    locked.write_text('[[main]]\nname = "Soma"\n', encoding="utf-8")
    real_open = os.open

    def guarded(file, *args, **kwargs):  # type: ignore[no-untyped-def]
        if str(file) == str(locked):  # tests run as root, where chmod 000 does not stop a read
            raise PermissionError(13, "Permission denied")
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(os, "open", guarded)  # inputs are opened with os.open (sengoku.files)
    run = validate_paths([ROOT / "decklists" / "default.toml", locked])
    good, bad = run.results
    assert good.valid and not good.unreadable
    assert bad.unreadable and bad.violations[0].rule == "syntax"
    assert "Permission denied" in bad.violations[0].message
    assert run.exit_code == 2


def test_broken_but_readable_file_is_exit_1() -> None:
    run = validate_paths([ROOT / "decklists" / "invalid" / "syntax.toml"])
    assert not run.results[0].unreadable and run.exit_code == 1
