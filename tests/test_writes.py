"""Writes that must not destroy: only regular decklist files are rewritten, atomically, mode kept.

Everything else -- a FIFO, a device, a read-only file, a TOML file that is not a decklist, an
existing file without --force -- is refused with exit 2 and left byte-identical, and goldfish
refuses its --plot path before it simulates anything.
"""

from __future__ import annotations

import os
import stat
import time
import tomllib
from pathlib import Path

import pytest

from sengoku.errors import DataError
from sengoku.writes import check_output, write_atomically

DECK = '[[main]]\nlevel = 1\nname = "Soma"\ncount = 3\n'  # not canonical: fmt wants to rewrite it
PYPROJECT = '[build-system]\nrequires = ["hatchling"]\n\n[project]\nname = "x"\nversion = "1"\n'


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "deck.toml"
    os.mkfifo(path)
    return path


def test_fmt_refuses_a_fifo_and_leaves_it_a_fifo(cli, fifo: Path) -> None:
    code, _, err = cli("fmt", str(fifo))
    assert code == 2 and "named pipe" in err
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


@pytest.fixture
def device(tmp_path: Path) -> Path:
    """A character device node of our own (the null device's numbers), never the system's /dev/null:
    a test of a refusal must not break the machine when the refusal is missing."""
    path = tmp_path / "device.toml"
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except (PermissionError, AttributeError, OSError):
        pytest.skip("cannot make a device node here (needs privileges)")
    return path


def test_fmt_and_import_refuse_a_device(cli, tmp_path: Path, device: Path) -> None:
    code, _, err = cli("fmt", str(device))
    assert code == 2 and "device" in err
    listing = tmp_path / "list.txt"
    listing.write_text("3 Soma Lv1\n", encoding="utf-8")
    code, _, err = cli("import", str(listing), "-o", str(device), "--force")
    assert code == 2 and "device" in err
    assert stat.S_ISCHR(os.stat(device).st_mode)


def test_import_refuses_a_fifo_output_even_with_force(cli, tmp_path: Path, fifo: Path) -> None:
    listing = tmp_path / "list.txt"
    listing.write_text("3 Soma Lv1\n", encoding="utf-8")
    code, out, err = cli("import", str(listing), "-o", str(fifo), "--force")
    assert (code, out) == (2, "") and "named pipe" in err
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_fmt_refuses_a_read_only_file(cli, tmp_path: Path) -> None:
    deck = tmp_path / "deck.toml"
    deck.write_text(DECK, encoding="utf-8")
    deck.chmod(0o444)
    code, _, err = cli("fmt", str(deck))
    assert code == 2 and "read-only" in err
    assert deck.read_text(encoding="utf-8") == DECK and stat.S_IMODE(deck.stat().st_mode) == 0o444


def test_fmt_leaves_a_canonical_read_only_file_alone(cli, tmp_path: Path) -> None:
    """Read-only only matters when there is something to write."""
    deck = tmp_path / "deck.toml"
    deck.write_text('[[main]]\nname = "Soma"\nlevel = 1\ncount = 3\n', encoding="utf-8")
    deck.chmod(0o444)
    code, _, _ = cli("fmt", str(deck))
    assert code == 0


def test_fmt_keeps_the_mode_of_the_file_it_rewrites(cli, tmp_path: Path) -> None:
    deck = tmp_path / "deck.toml"
    deck.write_text(DECK, encoding="utf-8")
    deck.chmod(0o640)
    code, _, _ = cli("fmt", str(deck))
    assert code == 0 and deck.read_text(encoding="utf-8") != DECK
    assert stat.S_IMODE(deck.stat().st_mode) == 0o640


@pytest.mark.parametrize("how", ["named", "in a folder"])
def test_fmt_refuses_a_toml_file_that_is_not_a_decklist(cli, tmp_path: Path, how: str) -> None:
    project = tmp_path / "pyproject.toml"
    project.write_text(PYPROJECT, encoding="utf-8")
    code, _, err = cli("fmt", str(project if how == "named" else tmp_path))
    assert code == 2 and "not a decklist" in err
    assert project.read_text(encoding="utf-8") == PYPROJECT


def test_validate_skips_a_toml_file_that_is_not_a_decklist_with_a_note(cli, tmp_path: Path) -> None:
    """pre-commit's `files: \\.toml$` hands the hook pyproject.toml next to the decklists."""
    project = tmp_path / "pyproject.toml"
    project.write_text(PYPROJECT, encoding="utf-8")
    deck = tmp_path / "deck.toml"
    deck.write_text('[[main]]\nname = "Soma"\nlevel = 1\ncount = 3\n', encoding="utf-8")
    code, out, err = cli("validate", str(project), str(deck), "-o", "json")
    assert code == 1  # the deck is too small; pyproject.toml adds nothing
    import json

    assert [r["path"] for r in json.loads(out)["results"]] == [str(deck)]
    assert f"note: {project}: skipped, not a decklist" in err
    code, out, err = cli("validate", str(project))
    assert code == 0 and "skipped" in err


@pytest.mark.parametrize("text", [
    '[[mian]]\nname = "Soma"\nlevel = 1\ncount = 3\n',  # a misspelt section is a broken decklist
    'nmae = "x"\n[[main]]\nname = "Soma"\n',            # a misspelt key beside a real section
    'name = "only a name"\n',
    '',                                                 # empty: a decklist with nothing in it
])
def test_a_broken_decklist_is_still_checked_not_skipped(cli, tmp_path: Path, text: str) -> None:
    deck = tmp_path / "deck.toml"
    deck.write_text(text, encoding="utf-8")
    code, out, err = cli("validate", str(deck))
    assert code == 1 and "skipped" not in err and "error" in out


def test_plot_refuses_an_existing_file_without_force_before_simulating(cli, tmp_path: Path) -> None:
    out = tmp_path / "curve.png"
    out.write_bytes(b"keep me")
    started = time.monotonic()
    code, _, err = cli("goldfish", "--runs", "10000000", "--plot", str(out))
    assert code == 2 and "--force" in err
    assert time.monotonic() - started < 20  # refused up front, not after ten million games
    assert out.read_bytes() == b"keep me"


def test_plot_refuses_a_fifo_before_simulating(cli, tmp_path: Path) -> None:
    out = tmp_path / "curve.svg"
    os.mkfifo(out)
    code, _, err = cli("goldfish", "--runs", "10000000", "--plot", str(out), "--force")
    assert code == 2 and "named pipe" in err
    assert stat.S_ISFIFO(os.stat(out).st_mode)


@pytest.mark.parametrize("umask", [0o022, 0o002, 0o077])
def test_a_new_file_follows_the_umask(tmp_path: Path, umask: int) -> None:
    old = os.umask(umask)
    try:
        write_atomically(tmp_path / "new.svg", b"<svg/>", replace=False)
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.svg").stat().st_mode) == 0o666 & ~umask


def test_a_symlink_is_written_through_and_stays_a_link(tmp_path: Path) -> None:
    real = tmp_path / "real.toml"
    real.write_text("old", encoding="utf-8")
    link = tmp_path / "link.toml"
    link.symlink_to(real)
    write_atomically(link, "new", replace=True)
    assert link.is_symlink() and real.read_text(encoding="utf-8") == "new"


def test_no_temporary_file_is_left_when_the_write_fails(tmp_path: Path, monkeypatch) -> None:
    target = tmp_path / "deck.toml"
    target.write_text("old", encoding="utf-8")

    def fail(*_a):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(DataError, match="No space left"):
        write_atomically(target, "new", replace=True)
    assert target.read_text(encoding="utf-8") == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deck.toml"]


def test_a_missing_folder_is_named(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="no such folder"):
        check_output(tmp_path / "nope" / "x.toml", replace=False)


def test_import_escapes_a_crafted_source_file_name(cli, tmp_path: Path) -> None:
    """A file name is the user's text: a newline in it must not become a line of the TOML."""
    crafted = tmp_path / 'list.txt\n[[familiars]]\nname = "Harbee"\n#'
    try:
        crafted.write_text("3 Soma Lv1\n", encoding="utf-8")
    except OSError:
        pytest.skip("this file system refuses newlines in names")
    code, out, err = cli("import", str(crafted))
    assert code == 0, err
    doc = tomllib.loads(out)
    assert "familiars" not in doc and [e["name"] for e in doc["main"]] == ["Soma"]
    assert out.splitlines()[0].startswith("# Imported by `sengoku import` from ")
