"""Inputs without an end (/dev/zero) or over the 1 MB decklist limit are refused, never read whole."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ZERO = "/dev/zero"
needs_dev_zero = pytest.mark.skipif(not os.path.exists(ZERO), reason="needs /dev/zero")


@needs_dev_zero
def test_validate_reads_at_most_a_megabyte(cli) -> None:
    code, out, err = cli("validate", ZERO)
    assert code == 1
    assert out.startswith(f"{ZERO}:1:1 error syntax the file is over 1 MB")


@needs_dev_zero
@pytest.mark.parametrize("command", ["import", "fmt"])
def test_import_and_fmt_refuse_an_endless_file(cli, command: str) -> None:
    code, out, err = cli(command, ZERO)
    assert (code, out) == (2, "")
    assert f"{ZERO}: " in err and "1 MB" in err


def test_fmt_leaves_a_file_over_the_limit_untouched(cli, tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    text = "# " + "x" * 1_100_000 + "\nname   =   'x'\n"
    big.write_text(text, encoding="utf-8")
    code, out, err = cli("fmt", str(big))
    assert code == 2
    assert "over 1 MB" in err
    assert big.read_text(encoding="utf-8") == text
