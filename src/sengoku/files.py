"""Read every input the same way: bounded, decoded as UTF-8, parsed without a crash.

Every file and stream sengoku reads (decklists, text lists, card databases, board, rule and
format files, standard input) goes through `read_input` or `read_stream`, which stop at a
limit and raise `InputTooLarge` past it: a device without an end (/dev/zero) or an endless pipe
is never read whole. `read_text_input` adds the decoding (UTF-8, a byte-order mark dropped) and
turns every failure into the caller's `DataError` naming the file; `loads_json` and
`loads_toml` parse text so that a number past Python's digit limit or absurd nesting is a
`DataError` with its line, never a traceback.

`open()` of a FIFO blocks until some process opens it for writing, possibly forever. Input files
are opened non-blocking instead, then read as usual: a pipe with a writer (`<(...)` process
substitution) is read to its end, a FIFO with no writer reads as empty.
"""

from __future__ import annotations

import errno
import gc
import json
import os
import re
import stat
import sys
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, BinaryIO

from sengoku.errors import DataError

# The limits, in bytes (docs/validation.md's "Limits on input" lists them).
DECKLIST_BYTES = 1_000_000  # a decklist or text list, from a file or stdin: a few KB in practice
CARD_DB_BYTES = 128_000_000  # a cards.json or board.json: the sample set is 70 KB; 100,000 such cards, 74 MB
RULES_BYTES = 1_000_000  # a game.toml or a tournament format file

_BOM = "\ufeff"
_BIG_JSON = 1_000_000  # characters of JSON past which the parsed objects are kept out of the collector's walks


class InputTooLarge(OSError):
    """An input past its limit: not read further."""

    def __init__(self, limit: int, size: int | None = None):
        self.limit, self.size = limit, size
        told = f"the file is {size / 1e6:.1f} MB, over" if size is not None else "the input goes on past"
        super().__init__(errno.EFBIG, f"{told} the {_mb(limit)} limit: not read")


def _mb(n: int) -> str:
    return f"{n / 1e6:g} MB"


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


def read_input(path: Path | str, limit: int) -> bytes:
    """Return the bytes of input file `path`; raise InputTooLarge past `limit` bytes, or an OSError.

    A regular file is measured before it is read (one open, one fstat: this runs for every
    decklist of a run); a pipe or device has no size, so at most `limit` + 1 bytes are read.
    """
    with open_input(path) as f:
        size = os.fstat(f.fileno()).st_size
        if size > limit:
            raise InputTooLarge(limit, size)
        data = f.read(limit + 1)
    if len(data) > limit:
        raise InputTooLarge(limit)
    return data


def read_stream(stream: BinaryIO, limit: int) -> bytes:
    """Return the bytes of an open stream (stdin); raise InputTooLarge past `limit` bytes."""
    data = stream.read(limit + 1)
    if len(data) > limit:
        raise InputTooLarge(limit)
    return data


def read_stdin(limit: int = DECKLIST_BYTES, error: type[DataError] = DataError, *, keep_bom: bool = False) -> str:
    """Return standard input as text (see `decode_text`); raise `error` naming "<stdin>"."""
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:  # started with standard input closed
        raise error("<stdin>", "standard input is closed")
    try:
        raw = read_stream(stream, limit)
    except InputTooLarge as exc:
        raise error("<stdin>", str(exc.strerror)) from None
    except OSError as exc:
        raise error("<stdin>", f"cannot read: {exc.strerror or exc}") from None
    return decode_text(raw, "<stdin>", error, keep_bom=keep_bom)


def decode_text(raw: bytes, path: Path | str | None, error: type[DataError] = DataError,
                *, keep_bom: bool = False) -> str:
    """Return `raw` as UTF-8 text, a byte-order mark dropped (kept with `keep_bom`, for rewriting).

    Raise `error` naming the line and column of the first byte that is not UTF-8.
    """
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise error(path, f"not UTF-8 text (byte {exc.start}: a binary file?)", line, column) from None
    return text if keep_bom or not text.startswith(_BOM) else text[1:]


def read_file(path: Path | str, limit: int, error: type[DataError] = DataError,
              missing: str | None = None) -> bytes:
    """Return the bytes of input file `path`, at most `limit`; raise `error` naming the file otherwise.

    `missing` is the message for a file that does not exist (None: "cannot read: ..." as for any
    other failure); a folder, a file past the limit and an unreadable file each get theirs.
    """
    try:
        return read_input(path, limit)
    except FileNotFoundError as exc:
        raise error(path, missing or f"cannot read: {exc.strerror or exc}") from None
    except IsADirectoryError:
        raise error(path, "is a folder, not a file") from None
    except InputTooLarge as exc:
        raise error(path, str(exc.strerror)) from None
    except OSError as exc:
        raise error(path, f"cannot read: {exc.strerror or exc}") from None


def read_text_input(path: Path | str, limit: int, error: type[DataError] = DataError,
                    missing: str | None = None, *, keep_bom: bool = False) -> tuple[str, bytes]:
    """Return the text (see `decode_text`) and the bytes of input file `path` (see `read_file`)."""
    raw = read_file(path, limit, error, missing)
    return decode_text(raw, path, error, keep_bom=keep_bom), raw


def _position(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _too_many_digits(text: str, path: Path | str | None, error: type[DataError], kind: str) -> DataError:
    """The error for a number past Python's digit limit (int() refuses it): where it is, if found."""
    limit = sys.get_int_max_str_digits()
    m = re.search(r"[0-9_]{%d,}" % (limit + 1), text) if limit else None
    line, column = _position(text, m.start()) if m else (None, None)
    return error(path, f"not valid {kind}: a number with more than {limit} digits", line, column)


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while a large tree of new objects is built.

    Parsing JSON makes no reference cycles, yet every 700 new containers the collector walks
    the young ones, and every so often all of them: on a 100,000-card database (74 MB) that
    tripled the time of `json.loads`.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def loads_json(text: str, path: Path | str | None, error: type[DataError] = DataError) -> Any:
    """Parse JSON text; raise `error` with the line and column if it is not JSON sengoku can hold."""
    try:
        with gc_paused():
            data = json.loads(text)
            if len(text) > _BIG_JSON:
                # The collector would walk every parsed object again and again while they stay in
                # use (a 100,000-card database: over a million containers, seconds of a run).
                # Frozen, they are still freed by reference counting when dropped; parsed JSON
                # holds no cycles. Frozen before the collector is back, or its first pass walks them.
                gc.freeze()
        return data
    except json.JSONDecodeError as exc:
        raise error(path, f"not valid JSON: {exc.msg}", exc.lineno, exc.colno) from None
    except RecursionError:  # e.g. 100,000 nested arrays: no input of ours looks like that
        raise error(path, "not valid JSON: nested too deeply") from None
    except ValueError:  # int() past sys.get_int_max_str_digits()
        raise _too_many_digits(text, path, error, "JSON") from None


_TOML_POS = re.compile(r"\s*\(at line (\d+), column (\d+)\)$")
_TOML_END = re.compile(r"\s*\(at end of document\)$")


def loads_toml(text: str, path: Path | str | None, error: type[DataError] = DataError) -> dict[str, Any]:
    """Parse TOML text; raise `error` with the line and column if it is not TOML sengoku can hold."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        m = _TOML_POS.search(message)
        if m:
            raise error(path, f"not valid TOML: {message[:m.start()]}", int(m.group(1)), int(m.group(2))) from None
        m = _TOML_END.search(message)
        if m:
            lines = text.splitlines() or [""]
            raise error(path, f"not valid TOML: {message[:m.start()]} (at the end of the file)",
                        len(lines), len(lines[-1]) + 1) from None
        raise error(path, f"not valid TOML: {message}", 1, 1) from None
    except RecursionError:  # absurdly nested arrays or inline tables
        raise error(path, "not valid TOML: nested too deeply", 1, 1) from None
    except ValueError:  # int() past sys.get_int_max_str_digits()
        raise _too_many_digits(text, path, error, "TOML") from None
