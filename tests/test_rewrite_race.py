"""A file saved while sengoku works on it is never overwritten with a version made from the old bytes.

`fmt` (and `import -o` onto its own input) reads a file, works, then replaces it. Here the
file is changed between the read and the write (at the boundary: while the work runs), in
each way an editor or a person can change it: in place, in place keeping the size and the
times, replaced by a rename, removed. Each time the file is left as the other program left it,
the command says so naming the file, exits 2, and leaves no temporary file behind.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

import sengoku.decklist.fmt as fmt
import sengoku.decklist.text_import as text_import
from sengoku.errors import DataError
from sengoku.files import read_for_rewrite
from sengoku.writes import write_atomically

DECK = '[[main]]\nlevel = 1\nname = "Soma"\ncount = 3\n'  # not canonical: fmt rewrites it
THEIRS = DECK.replace("count = 3", "count = 2")  # the same size: only the bytes tell


def _save_in_place(path: Path) -> None:
    path.write_text(THEIRS + "# saved\n", encoding="utf-8")


def _save_same_size_same_times(path: Path) -> None:
    st = path.stat()
    path.write_text(THEIRS, encoding="utf-8")
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))  # as a change within one clock tick looks


def _save_by_rename(path: Path) -> None:
    new = path.with_name(path.name + ".new")
    new.write_text(THEIRS, encoding="utf-8")
    os.replace(new, path)


def _remove(path: Path) -> None:
    path.unlink()


SAVES: dict[str, Callable[[Path], None]] = {
    "in place": _save_in_place,
    "same size and times": _save_same_size_same_times,
    "by rename": _save_by_rename,
    "removed": _remove,
}


def _expect_theirs(path: Path, save: str) -> None:
    if save == "removed":
        assert not path.exists()
    else:
        assert path.read_text(encoding="utf-8") in (THEIRS, THEIRS + "# saved\n")
    assert [p.name for p in path.parent.iterdir() if p.name.endswith(".tmp")] == []


@pytest.mark.parametrize("save", SAVES)
def test_fmt_leaves_a_file_saved_while_it_worked(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 save: str) -> None:
    deck = tmp_path / "deck.toml"
    deck.write_text(DECK, encoding="utf-8")
    real = fmt.canonical_decklist

    def saved_meanwhile(*args, **kwargs):  # type: ignore[no-untyped-def]
        result = real(*args, **kwargs)
        SAVES[save](deck)
        return result

    monkeypatch.setattr(fmt, "canonical_decklist", saved_meanwhile)
    code, _, err = cli("fmt", str(deck))
    assert code == 2, err
    assert f"{deck}: changed since sengoku read it" in err and "left as it was" in err
    _expect_theirs(deck, save)


def test_fmt_still_rewrites_a_file_nobody_touched(cli, tmp_path: Path) -> None:
    deck = tmp_path / "deck.toml"
    deck.write_text(DECK, encoding="utf-8")
    code, _, err = cli("fmt", str(deck))
    assert code == 0, err
    assert deck.read_text(encoding="utf-8") == '[[main]]\nname = "Soma"\nlevel = 1\ncount = 3\n'


@pytest.mark.parametrize("save", ["in place", "by rename"])
def test_import_onto_its_own_input_leaves_a_list_saved_meanwhile(
        cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, save: str) -> None:
    listing = tmp_path / "deck.txt"
    listing.write_text("3 Soma Lv1\n", encoding="utf-8")
    real = text_import.import_text

    def saved_meanwhile(*args, **kwargs):  # type: ignore[no-untyped-def]
        result = real(*args, **kwargs)
        SAVES[save](listing)
        return result

    monkeypatch.setattr(text_import, "import_text", saved_meanwhile)
    code, _, err = cli("import", str(listing), "-o", str(listing), "--force")
    assert code == 2 and f"{listing}: changed since sengoku read it" in err, err
    _expect_theirs(listing, save)


def test_import_onto_its_own_input_untouched_is_written(cli, tmp_path: Path) -> None:
    listing = tmp_path / "deck.txt"
    listing.write_text("3 Soma Lv1\n", encoding="utf-8")
    code, _, err = cli("import", str(listing), "-o", str(listing), "--force")
    assert code == 0, err
    assert 'name = "Soma"' in listing.read_text(encoding="utf-8")


@pytest.mark.parametrize("save", SAVES)
def test_the_writer_checks_the_file_just_before_replacing_it(tmp_path: Path, save: str) -> None:
    """Every caller gets the check: it is made by `write_atomically` itself, after the new bytes are synced."""
    path = tmp_path / "deck.toml"
    path.write_text(DECK, encoding="utf-8")
    _, original = read_for_rewrite(path, 1_000_000)

    def chunks():  # the new content, produced while the file is saved by someone else
        yield "new\n"
        SAVES[save](path)
        yield "content\n"

    with pytest.raises(DataError, match="changed since sengoku read it"):
        write_atomically(path, chunks(), replace=True, original=original)
    _expect_theirs(path, save)
    write_atomically(tmp_path / "other.toml", "x\n", replace=True)  # no original: no check
    assert (tmp_path / "other.toml").read_text() == "x\n"
