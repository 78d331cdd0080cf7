"""Write an output file so that nothing is lost: the one way sengoku writes files.

Every file sengoku writes (`fmt` rewriting a decklist, `import -o`, `goldfish --plot` and `--html`) goes
through `write_atomically`: the new content goes to a temporary file in the target's folder,
is synced, and then replaces the target with `os.replace`, so a crash or a full disk leaves the
old file whole. Before any of that, `check_output` refuses (DataError, exit 2, the target left
byte-identical) what must not be replaced:

- anything but a regular file: a folder, a FIFO, a device node, a socket (replacing one with a
  regular file would break whatever used it);
- a read-only file (its owner said "do not change this");
- an existing file, unless the caller may replace it (`fmt` rewrites in place; `import -o` and
  `--plot`/`--html` need `--force`);
- a path whose folder does not exist.

A file sengoku read and now writes back (`fmt`; `import -o` onto its own input) is replaced
only if it still holds the bytes that were read (`files.Original`), checked just before the
replace: a file saved by someone else in between is left alone, with a message (exit 2),
never overwritten with a version made from the old bytes.

A symlink is written through (the file it points to is replaced, the link stays). The new
file keeps the old one's permission bits, or gets 0666 less the umask, as `open()` would.
Commands call `check_output` before long work (a simulation), so a bad path fails first.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from collections.abc import Iterable
from pathlib import Path

from sengoku.errors import DataError
from sengoku.files import Original

_KINDS = (
    (stat.S_ISDIR, "is a folder"),
    (stat.S_ISFIFO, "is a named pipe (FIFO)"),
    (stat.S_ISCHR, "is a device"),
    (stat.S_ISBLK, "is a device"),
    (stat.S_ISSOCK, "is a socket"),
)


def refuse_special(path: Path | str) -> None:
    """Raise DataError when `path` exists and is not a regular file (a folder, FIFO, device, socket)."""
    try:
        st = os.stat(path)
    except OSError:
        return  # missing (or unreachable): the write or the read says so in its own words
    _refuse_kind(path, st.st_mode)


def _refuse_kind(path: Path | str, mode: int) -> None:
    for test, what in _KINDS:
        if test(mode):
            raise DataError(path, f"{what}, not a regular file; refused, left as it was")
    if not stat.S_ISREG(mode):
        raise DataError(path, "not a regular file; refused, left as it was")


def check_output(path: Path | str, *, replace: bool, force_hint: str | None = "--force") -> Path:
    """Return the real path to write `path` to, or raise DataError saying why it must not be written.

    `replace`: an existing regular file may be replaced. `force_hint` names the option that
    allows it, for the message.
    """
    target = Path(os.path.realpath(path))  # through symlinks: the file they name is the one replaced
    try:
        st = os.stat(target)
    except FileNotFoundError:
        if not target.parent.is_dir():
            raise DataError(path, f"cannot write: no such folder {Path(path).parent}") from None
        return target
    except OSError as exc:
        raise DataError(path, f"cannot write: {exc.strerror or exc}") from None
    _refuse_kind(path, st.st_mode)
    if not replace:
        hint = f"; pass {force_hint} to replace it" if force_hint else ""
        raise DataError(path, f"already exists{hint}")
    # Mode bits, not os.access: the superuser may write anything, but a read-only file still means "keep".
    if not st.st_mode & 0o222 or not os.access(target, os.W_OK):
        raise DataError(path, "is read-only; refused, left as it was")
    return target


def append_text(path: Path | str, chunks: Iterable[str]) -> None:
    """Append text (UTF-8, what cannot be encoded backslash-escaped) to the file at `path`, made if
    missing: a log another program keeps, such as a CI job summary. Raise OSError when it cannot.

    Opened without blocking (a FIFO with no reader would wait forever), a regular file only.
    """
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NONBLOCK", 0), 0o666)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        os.set_blocking(fd, True)
        f = os.fdopen(fd, "a", encoding="utf-8", errors="backslashreplace")
    except BaseException:
        os.close(fd)
        raise
    with f:
        f.writelines(chunks)


def write_atomically(path: Path | str, data: bytes | str | Iterable[str], *, replace: bool,
                     force_hint: str | None = "--force", original: Original | None = None) -> None:
    """Write `data` (str: UTF-8, newlines as given; or str chunks, e.g. a document read back from
    where it was spooled) to `path`: all of it or, on any failure, nothing.

    `original`: the file at `path` as it was read (`files.read_for_rewrite`); it is replaced only
    if it still holds those bytes. Raise DataError when `check_output` refuses the path, the file
    changed since it was read, or the write fails (the old file kept in each case).
    """
    target = check_output(path, replace=replace, force_hint=force_hint)
    chunks: Iterable[bytes | str] = (data,) if isinstance(data, (bytes, str)) else data
    try:
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as exc:
        raise DataError(path, f"cannot write: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as f:
            for chunk in chunks:
                f.write(chunk.encode("utf-8") if isinstance(chunk, str) else chunk)
            f.flush()
            os.fsync(f.fileno())
        try:
            mode = os.stat(target).st_mode & 0o7777
        except FileNotFoundError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
        if original is not None:  # as late as can be: only the rename itself comes after
            change = original.changed(target)
            if change is not None:
                raise DataError(path, f"changed since sengoku read it ({change}: saved by another program?); "
                                "not replaced, left as it was; run again")
        os.replace(tmp, target)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        if isinstance(exc, OSError):
            raise DataError(path, f"cannot write: {exc.strerror or exc}; file left as it was") from None
        raise
