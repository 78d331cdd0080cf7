"""Every file sengoku reads goes through its one bounded, non-blocking reader (`sengoku.files`).

A direct `open()` of a path blocks forever on a FIFO with no writer, and `read_text()` reads
/dev/zero until memory runs out. This walks the syntax of every module under src/ and finds
every call that opens or reads a path on its own; only `files.py` (the reader) and `writes.py`
(the writer) may. The one exception is the null device, opened by name to stand in for a
closed standard stream.
"""

from __future__ import annotations

import ast
import os
import stat
from pathlib import Path

import pytest

import sengoku
from sengoku.paths import data_dir

SRC = Path(sengoku.__file__).resolve().parent
OWNERS = {"files.py", "writes.py"}
# open() and its kin; read_text/read_bytes on a Path; json/tomllib/marshal/pickle .load on a file object
READING = {"open", "fdopen", "read_text", "read_bytes", "load"}


def _allowed(call: ast.Call) -> bool:
    # os.open(os.devnull, ...): the null device, in place of a standard stream that was closed
    return bool(call.args) and ast.unparse(call.args[0]) == "os.devnull"


def direct_reads(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        direct = isinstance(func, ast.Name) and func.id == "open"
        method = isinstance(func, ast.Attribute) and func.attr in READING
        if (direct or method) and not _allowed(node):
            found.append(f"{node.lineno}: {ast.unparse(node)[:80]}")
    return found


def test_no_module_opens_or_reads_a_path_but_the_reader_and_the_writer() -> None:
    found = {str(p.relative_to(SRC)): lines for p in sorted(SRC.rglob("*.py"))
             if p.name not in OWNERS or p.parent != SRC
             if (lines := direct_reads(p))}
    assert found == {}


def test_the_walk_finds_what_it_is_meant_to_find(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("import json, os\nfrom pathlib import Path\n"
                      "a = open('x')\nb = Path('x').read_text()\nc = json.load(a)\nd = os.open('x', 0)\n"
                      "e = os.open(os.devnull, os.O_RDWR)\nf = json.loads('1')\n", encoding="utf-8")
    assert [line.split(":")[0] for line in direct_reads(sample)] == ["3", "4", "5", "6"]


def test_a_fifo_where_the_note_of_a_big_database_goes_does_not_block(tmp_path: Path, cache: Path) -> None:
    """The note about a big database's identity (carddb.stored) is read through the reader: a FIFO
    planted in its place (nobody writing) is not a note, and the run goes on."""
    import subprocess
    import sys

    from sengoku.carddb.stored.notes import note_path
    from sengoku.carddb.load import INDEX_MIN_BYTES

    big = tmp_path / "cards.json"
    # the bundled database, padded with white space past the size below which databases are not indexed
    big.write_bytes((data_dir("card_db") / "sengoku" / "cards.json").read_bytes() + b" " * INDEX_MIN_BYTES)
    folder = cache / "cards"
    folder.mkdir(parents=True)
    note = note_path(folder, Path(os.path.realpath(big)))
    os.mkfifo(note)
    deck = data_dir("decklists") / "default.toml"
    done = subprocess.run([sys.executable, "-m", "sengoku", "validate", str(deck), "--db", str(big)],
                          capture_output=True, text=True, timeout=30)
    assert done.returncode in (0, 1), done.stderr
    assert "Traceback" not in done.stderr
    assert stat.S_ISFIFO(os.stat(note).st_mode) or note.is_file()


def test_appending_to_a_fifo_is_refused_not_waited_on(tmp_path: Path) -> None:
    """The job summary is appended to through the writer: a FIFO there (no reader) is an error, at once."""
    from sengoku.writes import append_text

    fifo = tmp_path / "summary.md"
    os.mkfifo(fifo)
    with pytest.raises(OSError):
        append_text(fifo, ["# report\n"])
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    log = tmp_path / "log.md"
    append_text(log, ["a\n"])
    append_text(log, iter(["b", "\n"]))
    assert log.read_text(encoding="utf-8") == "a\nb\n"
