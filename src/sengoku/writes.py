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
Commands call `check_outputs` before any work (a simulation, a tune, reading the decklists):
every output of the run is checked at once against every input of the same run and every other
output, by file identity (device and inode, through symlinks and `..`), and its folder is
tried with a real temporary file, so a path that cannot be written fails first, not after the
work. `--force` replaces an old output; it never replaces an input of the same run, nor makes
two outputs of one run share a file.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from sengoku.errors import DataError
from sengoku.files import Original
from sengoku.paths import default_card_db

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


@dataclass(frozen=True)
class Input:
    """A file or folder a run reads, as its messages name it ("the decklist", "the --opponent decklist")."""

    what: str
    path: Path | str
    suffix: str | None = None  # a folder: only the files below it whose names end so are read (None: every file)


def database_inputs(db: Path | str | None) -> list[Input]:
    """Return what a card database given as `db` (a folder or its cards file; None: $SENGOKU_DB, else the
    bundled one) is read from: the cards file, the rule file and the board beside it, its formats folder."""
    given = Path(db) if db is not None else default_card_db()
    folder = given if given.is_dir() else given.parent
    files = [given] if not given.is_dir() else [folder / "cards.json"]
    files += [folder / "game.toml", folder / "board.json", folder / "formats"]
    return [Input("a file of the --db card database", f) for f in files]


def _key(path: Path | str) -> tuple[int, int, str]:
    """The identity of the file `path` names: its device and inode, or, not there yet, its folder's and its name."""
    target = os.path.realpath(path)
    try:
        st = os.stat(target)
        return st.st_dev, st.st_ino, ""
    except OSError:
        folder, name = os.path.split(target)
        try:
            st = os.stat(folder)
        except OSError:
            return -1, -1, target
        return st.st_dev, st.st_ino, name


def _reads(source: Input, output: Path | str) -> bool:
    """Whether writing `output` would replace what `source` is read from."""
    try:
        st = os.stat(source.path)
    except OSError:
        return False  # not there: nothing of it is read (the read says so in its own words)
    target = Path(os.path.realpath(output))
    if not stat.S_ISDIR(st.st_mode):
        key = _key(target)
        return key[:2] == (st.st_dev, st.st_ino) and not key[2]
    if source.suffix is not None and not target.name.lower().endswith(source.suffix):
        return False
    try:
        if not stat.S_ISREG(os.stat(target).st_mode):
            return False  # a new file below a folder is not one of the files it holds
    except OSError:
        return False
    for folder in target.parents:
        try:
            here = os.stat(folder)
        except OSError:
            continue
        if (here.st_dev, here.st_ino) == (st.st_dev, st.st_ino):
            return True
    return False


def _try_folder(path: Path | str, target: Path) -> None:
    """Make and remove a temporary file where `path` will be written: what the write itself will do."""
    try:
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as exc:
        raise DataError(path, f"cannot write in its folder {target.parent}: {exc.strerror or exc}; "
                        "refused before any work") from None
    os.close(fd)
    os.unlink(tmp)


def check_outputs(outputs: Mapping[str, Path | str | None], inputs: Iterable[Input], *, replace: bool,
                  force_hint: str | None = "--force") -> dict[str, Path]:
    """Check every output of a run before any work; return the real path of each given one (by option).

    `outputs`: option -> path (None: not asked for). Each is refused (DataError, exit 2, every
    file left as it was) when it is one of the run's `inputs` (even with `replace`: `--force`
    replaces an old output, never what the run reads), when another output of the run names the
    same file, when `check_output` refuses it, or when no file can be made in its folder.
    """
    sources = list(inputs)
    seen: dict[tuple[int, int, str], str] = {}
    targets: dict[str, Path] = {}
    for option, path in outputs.items():
        if path is None:
            continue
        for source in sources:
            if _reads(source, path):
                raise DataError(path, f"is {source.what} of this run ({source.path}): {option} never replaces an "
                                "input of its own run, not even with --force; refused, left as it was")
        target = check_output(path, replace=replace, force_hint=force_hint)
        key = _key(target)
        if key in seen:
            raise DataError(path, f"is also the {seen[key]} file of this run: two outputs cannot share one file; "
                            "refused, left as it was")
        seen[key] = option
        _try_folder(path, target)
        targets[option] = target
    return targets


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
