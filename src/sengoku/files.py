"""Read every input the same way: bounded, decoded as UTF-8, parsed without a crash.

Every file and stream sengoku reads (decklists, text lists, card databases, board, rule and
format files, standard input) goes through `read_input` or `read_stream`, which stop at a
limit and raise `InputTooLarge` past it: a device without an end (/dev/zero) or an endless pipe
is never read whole. `read_text_input` adds the decoding (UTF-8, a byte-order mark dropped) and
turns every failure into the caller's `DataError` naming the file; `loads_json` and
`loads_toml` parse text so that a number past Python's digit limit, absurd nesting or a key
given twice is a `DataError` with its line, never a traceback. `read_for_rewrite` also returns
what a file held (`Original`), so that the writer can tell, just before replacing it, that
nobody changed it since.

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
from typing import Any, BinaryIO, NamedTuple

from sengoku.digests import sha256_hex
from sengoku.errors import DataError

# The limits, in bytes (docs/validation.md's "Limits on input" lists them).
DECKLIST_BYTES = 1_000_000  # a decklist or text list, from a file or stdin: a few KB in practice
CARD_DB_BYTES = 128_000_000  # a cards.json or board.json: the sample set is 70 KB; 100,000 such cards, 74 MB
RULES_BYTES = 1_000_000  # a game.toml or a tournament format file
SCHEMA_BYTES = 1_000_000  # a bundled JSON Schema (the largest is 11 KB)

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


def open_input(path: Path | str, *, regular: bool = False) -> BinaryIO:
    """Open `path` for reading bytes; raise FileNotFoundError, IsADirectoryError or another OSError.

    `regular`: refuse anything but a regular file (a FIFO, a device: OSError), for what only
    sengoku writes (its cache), where a pipe or device can only have been put in its place.
    """
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, "is a folder", str(path))
        if regular and not stat.S_ISREG(mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        if not stat.S_ISREG(mode) and hasattr(os, "O_NONBLOCK"):
            os.set_blocking(fd, True)  # a pipe's writer is waited for while reading, as usual
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_input(path: Path | str, limit: int, *, regular: bool = False) -> bytes:
    """Return the bytes of input file `path`; raise InputTooLarge past `limit` bytes, or an OSError.

    A regular file is measured before it is read (one open, one fstat: this runs for every
    decklist of a run); a pipe or device has no size, so at most `limit` + 1 bytes are read.
    `regular`: see `open_input`.
    """
    return _read(path, limit, regular)[0]


def _read(path: Path | str, limit: int, regular: bool = False) -> tuple[bytes, os.stat_result]:
    with open_input(path, regular=regular) as f:
        st = os.fstat(f.fileno())
        if st.st_size > limit:
            raise InputTooLarge(limit, st.st_size)
        data = f.read(limit + 1)
    if len(data) > limit:
        raise InputTooLarge(limit)
    return data, st


# A NamedTuple, not a frozen dataclass: a dataclass's generated methods are compiled from source
# at import, about 4 million instructions of every command's start-up.
class Original(NamedTuple):
    """A file as it was read, to tell before replacing it that nobody changed it since (`sengoku.writes`).

    Its bytes' SHA-256 decides; the size tells a change without reading the file again.
    """

    size: int
    sha256: str

    @classmethod
    def of(cls, st: os.stat_result, data: bytes) -> "Original":
        return cls(st.st_size, sha256_hex(data))

    def changed(self, path: Path | str) -> str | None:
        """Return how the file at `path` differs from this one now (None: the same bytes)."""
        try:
            now = read_input(path, self.size, regular=True)
        except FileNotFoundError:
            return "was removed or renamed"
        except InputTooLarge:
            return "has grown"
        except OSError as exc:
            return f"cannot be read again ({exc.strerror or exc})"
        if len(now) != self.size or sha256_hex(now) != self.sha256:
            return "has other content"
        return None

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
    return _read_file(path, limit, error, missing)[0]


def _read_file(path: Path | str, limit: int, error: type[DataError],
               missing: str | None) -> tuple[bytes, os.stat_result]:
    try:
        return _read(path, limit)
    except FileNotFoundError as exc:
        raise error(path, missing or f"cannot read: {exc.strerror or exc}") from None
    except IsADirectoryError:
        raise error(path, "is a folder, not a file") from None
    except InputTooLarge as exc:
        raise error(path, str(exc.strerror)) from None
    except OSError as exc:
        raise error(path, f"cannot read: {exc.strerror or exc}") from None


def read_for_rewrite(path: Path | str, limit: int, error: type[DataError] = DataError,
                     missing: str | None = None, *, keep_bom: bool = False) -> tuple[str, Original]:
    """Return the text of a file sengoku may write back (see `read_text_input`) and what it was,
    for `writes.write_atomically(..., original=)` to check that nobody changed it in between."""
    raw, st = _read_file(path, limit, error, missing)
    return decode_text(raw, path, error, keep_bom=keep_bom), Original.of(st, raw)


def read_text_input(path: Path | str, limit: int, error: type[DataError] = DataError,
                    missing: str | None = None, *, keep_bom: bool = False) -> tuple[str, bytes]:
    """Return the text (see `decode_text`) and the bytes of input file `path` (see `read_file`)."""
    raw = read_file(path, limit, error, missing)
    return decode_text(raw, path, error, keep_bom=keep_bom), raw


def read_json_file(path: Path | str, limit: int, error: type[DataError] = DataError) -> Any:
    """Return the parsed JSON of input file `path` (e.g. a bundled schema); raise `error` naming it."""
    return loads_json(read_text_input(path, limit, error)[0], path, error)


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


class _DuplicateKey(ValueError):
    pass


def _unique_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        raise _DuplicateKey
    return obj


# Walking JSON text that parsed: each match skips to the next key (a string before a colon, its
# end at group 1's end) or bracket (group 1), passing other strings whole, brackets in them too.
_STRING = r'"[^"\\]*(?:\\.[^"\\]*)*"'
_NEXT_KEY_OR_BRACKET = re.compile(r'(?:[^"{}\[\]]+|' + _STRING + r'(?!\s*:))*(' + _STRING + r'(?=\s*:)|[{}\[\]])')


def duplicate_keys(text: str) -> list[tuple[str, int, int]]:
    """Return (key, offset, offset of its first use) of every key given twice in one object of
    JSON text that parses, in the order they appear."""
    found = []
    stack: list[dict[str, int] | None] = []
    for m in _NEXT_KEY_OR_BRACKET.finditer(text):
        token = m.group(1)
        c = token[0]
        if c == '"':
            seen = stack[-1] if stack else None
            if seen is not None:
                key = json.loads(token) if "\\" in token else token[1:-1]
                at = m.start(1)
                if key in seen:
                    found.append((key, at, seen[key]))
                else:
                    seen[key] = at
        elif c == "{":
            stack.append({})
        elif c == "[":
            stack.append(None)
        elif stack:
            stack.pop()
    return found


def _duplicate_error(text: str, path: Path | str | None, error: type[DataError]) -> DataError:
    found = duplicate_keys(text)
    if not found:  # the parser saw one the walk did not: say so without a place
        return error(path, "not valid JSON: a key is given twice in one object")
    key, at, first = found[0]
    line, column = _position(text, at)
    more = f" (and {len(found) - 1} more duplicate key(s))" if len(found) > 1 else ""
    first_line, first_column = _position(text, first)
    return error(path, f"duplicate key {_clip(key)!r}: given twice in one object, first at line {first_line}, "
                       f"column {first_column}; a reader sees one value, sengoku would use the other{more}",
                 line, column)


def loads_json(text: str, path: Path | str | None, error: type[DataError] = DataError,
               *, unique_keys: bool = True) -> Any:
    """Parse JSON text; raise `error` with the line and column if it is not JSON sengoku can hold.

    A key given twice in one object (`"name": "Soma", "name": "Evil"`) is an error naming its
    line: JSON parsers keep one of the two, a person reading the file may see the other. The
    check costs about a quarter more parsing time (1.0 -> 1.2 s of CPU on a 74 MB database), and
    finding the line of a duplicate a walk of the text (~5 s there; benchmarks/duplicate_keys_bench.py);
    `unique_keys=False` skips it, for bytes known to have passed it (`pass_cache`).
    """
    try:
        with gc_paused():
            data = json.loads(text, object_pairs_hook=_unique_object if unique_keys else None)
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
    except _DuplicateKey:
        raise _duplicate_error(text, path, error) from None
    except ValueError:  # int() past sys.get_int_max_str_digits()
        raise _too_many_digits(text, path, error, "JSON") from None


_TOML_POS = re.compile(r"\s*\(at line (\d+), column (\d+)\)$")
_TOML_END = re.compile(r"\s*\(at end of document\)$")


def _toml_words(message: str, text: str, line: int) -> str:
    """Say what tomllib's message about a key or table given twice means, naming it."""
    source = text.splitlines()[line - 1] if 0 < line <= len(text.splitlines()) else ""
    if message == "Cannot overwrite a value":
        m = re.match(r"\s*\[{1,2}\s*([^\]]+?)\s*\]", source) or re.match(r"\s*([^=]+?)\s*=", source)
        what = f"`{_clip(m.group(1))}` " if m else ""
        return f"duplicate key: {what}already has a value above (each key may be given once)"
    m = re.match(r"Cannot declare \((.*)\) twice$", message)
    if m:
        names = re.findall(r"'((?:[^'\\]|\\.)*)'", m.group(1))
        return f"duplicate table: [{_clip('.'.join(names))}] is declared twice"
    m = re.match(r"Duplicate inline table key '(.*)'$", message)
    if m:
        return f"duplicate key: `{_clip(m.group(1))}` is given twice in one inline table"
    return message


def _clip(text: str) -> str:
    return text if len(text) <= 80 else f"{text[:60]}… ({len(text):,} characters)"


def loads_toml(text: str, path: Path | str | None, error: type[DataError] = DataError) -> dict[str, Any]:
    """Parse TOML text; raise `error` with the line and column if it is not TOML sengoku can hold.

    A key or a table given twice is not TOML: the error says "duplicate" and names it.
    """
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        m = _TOML_POS.search(message)
        if m:
            line = int(m.group(1))
            raise error(path, f"not valid TOML: {_toml_words(message[:m.start()], text, line)}",
                        line, int(m.group(2))) from None
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
