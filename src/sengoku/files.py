"""Open an input file without waiting on a pipe that has no writer.

`open()` of a FIFO blocks until some process opens it for writing, possibly forever. Input files
are opened non-blocking instead, then read as usual: a pipe with a writer (`<(...)` process
substitution) is read to its end, a FIFO with no writer reads as empty, and a device without an
end (/dev/zero) is read only up to the caller's limit.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import BinaryIO

from sengoku.errors import DataError


def open_input(path: Path | str) -> BinaryIO:
    """Open `path` for reading bytes; raise FileNotFoundError, IsADirectoryError or another OSError."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, "is a folder", str(path))
        if not stat.S_ISREG(mode) and hasattr(os, "O_NONBLOCK"):
            os.set_blocking(fd, True)  # a pipe's writer is waited for while reading, as usual
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_input(path: Path | str, limit: int | None = None) -> bytes:
    """Return the bytes of `path`: all of them, or at most `limit` + 1 (so "too big" can be told)."""
    with open_input(path) as f:
        return f.read() if limit is None else f.read(limit + 1)


def read_text_input(path: Path | str, error: type[DataError] = DataError,
                    missing: str | None = None) -> tuple[str, bytes]:
    """Return the text (UTF-8, a BOM dropped) and the bytes of input file `path`.

    Raise `error` naming the file when it cannot be read (`missing` is the message for a file that
    does not exist; None says "cannot read" as for any other failure) or is not UTF-8.
    """
    try:
        raw = read_input(path)
    except FileNotFoundError as exc:
        raise error(path, missing or f"cannot read: {exc.strerror or exc}") from None
    except OSError as exc:
        raise error(path, f"cannot read: {exc.strerror or exc}") from None
    try:
        return raw.decode("utf-8-sig"), raw
    except UnicodeDecodeError as exc:
        raise error(path, f"not UTF-8 text (byte {exc.start})") from None
