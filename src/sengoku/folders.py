"""Find the `*.toml` files named on a command line: files as given, folders searched below.

The search keeps its own stack (no recursion, so no depth breaks Python) and stops at
`MAX_DEPTH` folders below the one named. Nothing it meets is skipped in silence: a folder it
cannot list, a folder nested too deep, a link to nothing and a `*.toml` that is no regular
file (a FIFO, a device) each come back with the reason, to be reported with the other files.
Hidden entries (a name starting with ".") are left out, as version-control folders are.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from sengoku.errors import DataError

MAX_DEPTH = 32  # folders below the one named; decklist folders are a few levels deep
SUFFIX = ".toml"


@dataclass(frozen=True)
class Found:
    """A file to read, or a path that cannot be read (`problem` says why)."""

    path: Path
    problem: str | None = None


def find_tomls(paths: Iterable[Path | str], stdin: bool = False) -> list[Found]:
    """Return every `*.toml` file named or below a folder named (sorted per folder), each once.

    A file named is kept as given, whatever its kind (`<(...)` is a pipe); '-' too if `stdin`.
    Raise DataError naming every path that does not exist and every folder that holds no
    `*.toml` at all (a usage mistake, not a file to report).
    """
    out: list[Found] = []
    mistakes: list[str] = []
    for raw in paths:
        p = Path(raw)
        if stdin and str(raw) == "-":
            out.append(Found(p))
        elif p.is_dir():
            found = _search(p)
            if not found:
                mistakes.append(f"{p}: no *.toml files in this folder")
            out.extend(found)
        elif p.exists() or p.is_symlink():
            out.append(Found(p))  # read later: an unreadable or dangling one is reported then
        else:
            mistakes.append(f"{p}: no such file or folder")
    if mistakes:
        first, _, why = mistakes[0].partition(": ")
        also = f" (also: {'; '.join(mistakes[1:])})" if len(mistakes) > 1 else ""
        raise DataError(first, why + also)
    seen: set[object] = set()
    unique = []
    for f in out:  # a file named twice (or also inside a folder named) is read once
        key = f.path if str(f.path) == "-" else os.path.realpath(f.path)
        if key not in seen:
            seen.add(key)
            unique.append(f)
    if not unique:
        raise DataError(None, "no decklist paths given")
    return unique


def _search(top: Path) -> list[Found]:
    """Return the `*.toml` files below `top` and the entries that cannot be searched or read, sorted."""
    found: list[Found] = []
    visited: set[tuple[int, int]] = set()  # (device, inode) of each folder: a link loop is searched once
    stack: list[tuple[Path, int]] = [(top, 0)]
    while stack:
        folder, depth = stack.pop()
        try:
            info = os.stat(folder)
            if (info.st_dev, info.st_ino) in visited:
                continue
            visited.add((info.st_dev, info.st_ino))
            with os.scandir(folder) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError as exc:
            found.append(Found(folder, f"cannot read this folder: {exc.strerror or exc}"))
            continue
        for entry in entries:
            if entry.name.startswith("."):
                continue
            path = folder / entry.name
            try:
                is_dir = entry.is_dir()
            except OSError as exc:
                found.append(Found(path, f"cannot read: {exc.strerror or exc}"))
                continue
            if is_dir:
                if depth + 1 > MAX_DEPTH:
                    found.append(Found(path, f"a folder more than {MAX_DEPTH} levels below {top}: not searched"))
                else:
                    stack.append((path, depth + 1))
            elif entry.name.endswith(SUFFIX):
                problem = _not_a_file(entry)
                found.append(Found(path, problem))
    found.sort(key=lambda f: f.path.parts)
    return found


def _not_a_file(entry: os.DirEntry[str]) -> str | None:
    """Return why a `*.toml` entry of a folder is no file to read, or None for a regular file."""
    try:
        mode = entry.stat().st_mode  # follows a link
    except FileNotFoundError:
        return "a link to nothing (the file it names does not exist)"
    except OSError as exc:
        return f"cannot read: {exc.strerror or exc}"
    if stat.S_ISREG(mode):
        return None
    kind = "a FIFO" if stat.S_ISFIFO(mode) else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) \
        else "a socket" if stat.S_ISSOCK(mode) else "not a file"
    return f"{kind}, not a regular file: not read (name it on the command line to read it)"
