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
    assert code == 2  # cannot be read: reported like a missing permission, with the other files
    assert out.startswith(f"{ZERO} error syntax the input goes on past the 1 MB limit: not read")


@needs_dev_zero
@pytest.mark.parametrize("command", [["import"], ["fmt", "--check"]])  # fmt refuses to rewrite a device unread
def test_import_and_fmt_refuse_an_endless_file(cli, command: list[str]) -> None:
    code, out, err = cli(*command, ZERO)
    assert (code, out) == (2, "")
    assert f"{ZERO}: " in err and "1 MB" in err


def test_fmt_leaves_a_file_over_the_limit_untouched(cli, tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    text = "# " + "x" * 1_100_000 + "\nname   =   'x'\n"
    big.write_text(text, encoding="utf-8")
    code, out, err = cli("fmt", str(big))
    assert code == 2
    assert "the file is 1.1 MB, over the 1 MB limit" in err
    assert big.read_text(encoding="utf-8") == text


needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")


@needs_fifo
@pytest.mark.parametrize("args, code, said", [
    (["validate"], 1, "holds no decklist"),
    (["import"], 1, "no card lines found"),
    (["db", "check"], 2, "not valid JSON"),
])
def test_a_fifo_with_no_writer_reads_as_empty_instead_of_waiting(tmp_path: Path, args, code, said) -> None:
    # open() of a FIFO waits for a writer, possibly forever; sengoku opens inputs non-blocking.
    import subprocess
    import sys

    fifo = tmp_path / "deck.toml"
    os.mkfifo(fifo)
    done = subprocess.run([sys.executable, "-m", "sengoku", *args, str(fifo)], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == code
    assert said in done.stdout + done.stderr and "Traceback" not in done.stderr


@needs_fifo
def test_a_pipe_with_a_writer_is_read_to_its_end(tmp_path: Path) -> None:
    # As with `sengoku validate <(curl ...)`: the reader waits for the writer's data, not just its start.
    import subprocess
    import sys
    import threading
    import time

    from sengoku.paths import data_dir

    fifo = tmp_path / "deck.toml"
    os.mkfifo(fifo)
    text = (data_dir("decklists") / "default.toml").read_bytes()

    def write() -> None:
        with open(fifo, "wb") as f:  # waits for the reader to open the pipe
            f.write(text[:100])
            f.flush()
            time.sleep(0.3)  # the rest comes later: the reader must not take the pause for the end
            f.write(text[100:])

    writer = threading.Thread(target=write)
    writer.start()
    done = subprocess.run([sys.executable, "-m", "sengoku", "validate", str(fifo)], capture_output=True,
                          text=True, timeout=60)
    writer.join(timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "valid (sengoku-yugi, standard, 54 cards)" in done.stdout
