"""Standard streams and signals for the CLI: what happens when output cannot be written.

The contract (docs/index.md, "Exit codes, streams and written files"):

- stdout on a full disk, or any other write error: one line on stderr, exit 2;
- stdout closed (`>&-`) or stdin closed (`<&-`): the same, when the command needs the stream;
- a pipe closed early (`sengoku cards | head -1`): no message, exit 141 (128 + SIGPIPE, what a
  program killed by SIGPIPE reports to the shell);
- Ctrl-C (SIGINT): exit 130; SIGTERM: exit 143; no traceback, no worker process left behind.

Machine-readable documents (JSON, XML) are complete before they are written, with one
`write_document` call (a big one read back in chunks from where it was spooled), made ASCII-safe first when stdout's encoding cannot hold them (`PYTHONIOENCODING=ascii`):
JSON gets `\\uXXXX` escapes and XML character references, so the document stays complete and
means the same. Plain text on such a stream gets backslash escapes instead of an error.
"""

from __future__ import annotations

import codecs
import errno
import io
import os
import signal
import sys
import time
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any, Protocol

from sengoku.errors import DataError

EXIT_WRITE_ERROR = 2
EXIT_BROKEN_PIPE = 128 + signal.SIGPIPE  # 141
EXIT_INTERRUPTED = 128 + signal.SIGINT  # 130
EXIT_TERMINATED = 128 + signal.SIGTERM  # 143


class Chunked(Protocol):
    """A document too big to hold as one string, read back in chunks (each call starts afresh)."""

    def chunks(self) -> Iterator[str]: ...


class Terminated(BaseException):
    """SIGTERM arrived: unwind (closing worker pools on the way) and exit 143.

    A BaseException, like KeyboardInterrupt, so that no `except Exception` swallows it.
    """


class _ClosedStream(io.TextIOBase):
    """Stands in for a standard stream whose file descriptor was closed when sengoku started."""

    def __init__(self, name: str):
        self._name = name

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return "utf-8"

    def _closed(self) -> OSError:
        if self._name == "input":
            return OSError(errno.EBADF, "standard input is closed", "<stdin>")
        return OSError(errno.EBADF, "it is closed")

    def write(self, text: str) -> int:
        raise self._closed()

    def read(self, size: int | None = -1) -> str:
        raise self._closed()

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        raise self._closed()

    def isatty(self) -> bool:
        return False

    def flush(self) -> None:
        pass


class _Discard(io.TextIOBase):
    """A closed stderr: messages have nowhere to go, and that alone must not fail a command."""

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return "utf-8"

    def write(self, text: str) -> int:
        return len(text)

    def isatty(self) -> bool:
        return False


def guard_standard_streams() -> None:
    """Make closed standard streams fail clearly, and every stream safe to write any text to.

    A closed descriptor 0, 1 or 2 gets /dev/null, so that no file sengoku opens later lands on
    it (and is then written by whatever still writes "stdout"); the Python stream raises a clear
    OSError when used (stderr: discards). A stdout whose encoding cannot hold every character
    writes backslash escapes for those characters instead of raising.
    """
    for fd, name in ((0, "stdin"), (1, "stdout"), (2, "stderr")):
        try:
            os.fstat(fd)
        except OSError:
            try:
                null = os.open(os.devnull, os.O_RDWR)
                if null != fd:
                    os.dup2(null, fd)
                    os.close(null)
            except OSError:
                pass
            kind = {"stdin": "input", "stdout": "output"}.get(name)
            setattr(sys, name, _ClosedStream(kind) if kind else _Discard())
    if isinstance(sys.stdin, io.TextIOWrapper):
        try:  # decklists and text lists are UTF-8 (a BOM is dropped later), whatever the locale says
            sys.stdin.reconfigure(encoding="utf-8")
        except (ValueError, io.UnsupportedOperation):
            pass
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper) and not _is_utf(stream):
            try:
                stream.reconfigure(errors="backslashreplace")
            except (ValueError, io.UnsupportedOperation):
                pass


def file_identity(fd: int) -> tuple[int, int] | None:
    """Return (device, inode) of what descriptor `fd` refers to, None when it is closed."""
    try:
        st = os.fstat(fd)
    except OSError:
        return None
    return st.st_dev, st.st_ino


def _is_utf(stream: object) -> bool:
    encoding = getattr(stream, "encoding", None) or "ascii"
    try:
        return codecs.lookup(encoding).name.startswith("utf")
    except LookupError:
        return False


def _can_encode(stream: object, text: str) -> bool:
    if _is_utf(stream):
        return True
    try:
        text.encode(getattr(stream, "encoding", None) or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def ascii_json(text: str) -> str:
    """Return JSON text with every non-ASCII character as a `\\uXXXX` escape (same document).

    Outside its strings JSON is ASCII, so each non-ASCII character is inside a string, where
    an escape means the same character; characters past U+FFFF become surrogate pairs.
    """
    if text.isascii():
        return text
    out = []
    for ch in text:
        code = ord(ch)
        if code < 0x80:
            out.append(ch)
        elif code <= 0xFFFF:
            out.append(f"\\u{code:04x}")
        else:
            code -= 0x10000
            out.append(f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}")
    return "".join(out)


def ascii_xml(text: str) -> str:
    """Return XML text with every non-ASCII character as a character reference (same document)."""
    return text.encode("ascii", "xmlcharrefreplace").decode("ascii")


def write_document(text: str | Chunked, kind: str = "text") -> None:
    """Write a whole report to stdout; `kind` "json" or "xml" is kept a valid document on a
    stream that cannot encode every character, "toml" is refused there (DataError). Write
    errors propagate to `sengoku.cli.main`, which turns them into the exit codes above.

    `text` is a string, or a document read back in chunks (`chunks()`, which may be called
    twice): on such a stream every chunk is looked at before the first is written, so the
    escaping is the same as for the document written at once.
    """
    stream = sys.stdout
    chunks = text.chunks if not isinstance(text, str) else lambda: iter((text,))
    escape = None
    if not _is_utf(stream) and not all(_can_encode(stream, chunk) for chunk in chunks()):
        if kind == "json":
            escape = ascii_json
        elif kind == "xml":
            escape = ascii_xml
        elif kind == "toml":  # no escape keeps a TOML comment's meaning: refuse, write nothing
            encoding = getattr(stream, "encoding", None)
            raise DataError(None, f"standard output's encoding ({encoding}) cannot hold this decklist's "
                            "characters; nothing written (set PYTHONIOENCODING=utf-8, or write to a file)")
    for chunk in chunks():
        stream.write(escape(chunk) if escape else chunk)
    stream.flush()


def _on_sigterm(signum: int, frame: FrameType | None) -> None:
    raise Terminated()


def install_signal_handlers() -> object:
    """Turn SIGTERM into `Terminated` (Ctrl-C already raises KeyboardInterrupt); return the old handler."""
    try:
        return signal.signal(signal.SIGTERM, _on_sigterm)
    except ValueError:  # not the main thread (an embedding program): leave signals alone
        return None


class Stopped(KeyboardInterrupt):
    """A stop signal (Ctrl-C, SIGTERM, SIGHUP) ended a run that keeps its best so far (`StopSignals`).

    A KeyboardInterrupt, so that the code that unwinds on Ctrl-C (closing worker pools, noting a
    race as interrupted) does the same for every stop signal.
    """

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


class StopSignals:
    """Every stop signal stops a run as Ctrl-C does, and nothing stops the writing of its result.

    Within `with StopSignals() as stop:` the first SIGINT, SIGTERM or SIGHUP raises `Stopped` while
    `stop.running` is true (the work), else it is only noted (the run then stops before it starts);
    every later one is noted only, so a second Ctrl-C a few milliseconds after the first cannot cut
    the writing of the best result so far. `exit_code` is then 128 + the first signal (130, 143, 129).
    """

    SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))

    def __init__(self) -> None:
        self.signum: int | None = None
        self.running = False
        self._previous: dict[int, object] = {}

    def __enter__(self) -> StopSignals:
        try:
            for signum in self.SIGNALS:
                self._previous[signum] = signal.signal(signum, self._handle)
        except ValueError:  # not the main thread (an embedding program): leave signals alone
            pass
        return self

    def __exit__(self, *exc: object) -> None:
        for signum, previous in self._previous.items():
            signal.signal(signum, previous)  # type: ignore[arg-type]

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if self.signum is None:
            self.signum = signum
        if self.running:
            self.running = False
            raise Stopped(signum)

    def start(self) -> None:
        """The work starts: a stop signal now raises `Stopped` (at once if one came already)."""
        self.running = True
        if self.signum is not None:
            self.running = False
            raise Stopped(self.signum)

    @property
    def exit_code(self) -> int | None:
        return None if self.signum is None else 128 + self.signum


def restore_signal_handlers(previous: object) -> None:
    if previous is not None:
        signal.signal(signal.SIGTERM, previous)  # type: ignore[arg-type]


def silence_stdout() -> None:
    """After a broken pipe: point stdout at /dev/null so that the flush at exit raises nothing."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        pass


def write_error_message(exc: OSError) -> str:
    """One line for an OSError that reached the top: which stream or file, and why."""
    why = exc.strerror or str(exc)
    if exc.filename is not None:
        return f"error: {exc.filename}: {why}"
    return f"error: cannot write to standard output: {why}"


class ProgressLine:
    """One line on stderr, rewritten in place at most five times a second: `describe(progress)`."""

    def __init__(self, describe: Callable[[Any], str]) -> None:
        self.describe = describe
        self.last = 0.0

    def __call__(self, progress: Any) -> None:
        now = time.monotonic()
        if now - self.last < 0.2:
            return
        self.last = now
        sys.stderr.write(f"\r{self.describe(progress)}\x1b[K")
        sys.stderr.flush()

    def clear(self) -> None:
        sys.stderr.write("\r\x1b[K")
        sys.stderr.flush()
