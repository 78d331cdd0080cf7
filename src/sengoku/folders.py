"""Find the `*.toml` files named on a command line: files as given, folders searched below.

The search keeps its own stack (no recursion, so no depth breaks Python) and stops at
`MAX_DEPTH` folders below the one named. Nothing it meets is skipped in silence: a folder it
cannot list, a folder nested too deep, a link to nothing and a `*.toml` that is no regular
file (a FIFO, a device) each come back with the reason, to be reported with the other files.
Hidden entries (a name starting with ".") are left out, as version-control folders are; when a
folder then holds no `*.toml`, the error names the hidden ones it left out.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path

from sengoku.errors import DataError

MAX_DEPTH = 32  # folders below the one named; decklist folders are a few levels deep
SUFFIX = ".toml"
HIDDEN_KEPT = 1000  # hidden *.toml files remembered for the error of a folder without decklists


class Found:
    """A file to read, or a path that cannot be read (`problem` says why).

    Kept as a string until asked for (`path`): a run over a hundred thousand files holds one
    of these per file, so each is small.
    """

    __slots__ = ("_path", "problem")

    def __init__(self, path: Path | str, problem: str | None = None):
        self._path = os.fspath(path)
        self.problem = problem

    @property
    def path(self) -> Path:
        return Path(self._path)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Found) and (self._path, self.problem) == (other._path, other.problem)

    def __hash__(self) -> int:
        return hash((self._path, self.problem))

    def __repr__(self) -> str:
        return f"Found({self._path!r}, {self.problem!r})"


def find_tomls(paths: Iterable[Path | str], stdin: bool = False) -> list[Found]:
    """Return every `*.toml` file named or below a folder named (sorted per folder), each once.

    A file named is kept as given, whatever its kind (`<(...)` is a pipe); '-' too if `stdin`.
    Raise DataError naming every path that does not exist and every folder that holds no
    `*.toml` at all (a usage mistake, not a file to report).
    """
    out: list[Found] = []
    mistakes: list[str] = []
    paths = list(paths)
    links = [False]  # set when the search meets a symbolic link: then a file may be found twice
    for raw in paths:
        p = Path(raw)
        if stdin and str(raw) == "-":
            out.append(Found(p))
        elif p.is_dir():
            hidden: list[str] = []  # the hidden *.toml files the search left out
            found = _search(p, links, hidden)
            if not found:
                mistakes.append(f"{p}: no *.toml files in this folder{_hidden_note(p, hidden)}")
            out.extend(found)
        elif p.exists() or p.is_symlink():
            out.append(Found(p))  # read later: an unreadable or dangling one is reported then
        else:
            mistakes.append(f"{p}: no such file or folder")
    if mistakes:
        first, _, why = mistakes[0].partition(": ")
        also = f" (also: {'; '.join(mistakes[1:])})" if len(mistakes) > 1 else ""
        raise DataError(first, why + also)
    if not out:
        raise DataError(None, "no decklist paths given")
    if len(paths) == 1 and not links[0]:
        return out  # one folder searched without a link: no file can be met twice
    seen: set[object] = set()
    unique = []
    for f in out:  # a file named twice (or also inside a folder named) is read once
        key = f._path if f._path == "-" else os.path.realpath(f._path)
        if key not in seen:
            seen.add(key)
            unique.append(f)
    return unique


def _hidden_note(top: Path, hidden: list[str]) -> str:
    """Say which hidden `*.toml` files a search of `top` left out (nothing when none)."""
    if not hidden:
        return ""
    first = os.path.relpath(min(hidden), top)
    more = "" if len(hidden) == 1 else f" and {len(hidden) - 1} more" if len(hidden) < HIDDEN_KEPT else " and more"
    return (f" (hidden files are left out: {first}{more}; name a hidden file on the command line to read it,"
            " or rename it)")


def _search(top: Path, links: list[bool], hidden: list[str]) -> list[Found]:
    """Return the `*.toml` files below `top` and the entries that cannot be searched or read, sorted
    (by their path's parts: each folder's entries in name order, a folder's files where it stands).
    The hidden `*.toml` files of the folders searched are added to `hidden` (at most `HIDDEN_KEPT`)."""
    found: list[Found] = []
    visited: set[tuple[int, int]] = set()  # (device, inode) of each folder: a link loop is searched once
    # One frame per folder being searched: its path, depth, names in order and which are folders
    # (or cannot be told apart: the reason). Names only, not directory entries: a folder of a
    # hundred thousand decklists costs a name each while it is searched.
    frames: list[tuple[str, int, Iterator[str], dict[str, str | None]]] = []

    def enter(folder: str, depth: int) -> None:
        names: list[str] = []
        folders: dict[str, str | None] = {}
        try:
            info = os.stat(folder)
            if (info.st_dev, info.st_ino) in visited:
                return
            visited.add((info.st_dev, info.st_ino))
            with os.scandir(folder) as it:
                for entry in it:
                    if entry.name.startswith("."):
                        if entry.name.endswith(SUFFIX) and len(hidden) < HIDDEN_KEPT:
                            hidden.append(os.path.join(folder, entry.name))
                        continue
                    try:
                        if entry.is_symlink():
                            links[0] = True
                        if entry.is_dir():
                            folders[entry.name] = None
                        elif not entry.name.endswith(SUFFIX):
                            continue
                    except OSError as exc:
                        folders[entry.name] = f"cannot read: {exc.strerror or exc}"
                    names.append(entry.name)
        except OSError as exc:
            found.append(Found(folder, f"cannot read this folder: {exc.strerror or exc}"))
            return
        names.sort()
        frames.append((folder, depth, iter(names), folders))

    enter(os.fspath(top), 0)
    while frames:
        folder, depth, names, folders = frames[-1]
        name = next(names, None)
        if name is None:
            frames.pop()
            continue
        path = os.path.join(folder, name)
        if name not in folders:
            found.append(Found(path, _not_a_file(path)))
        elif folders[name] is not None:
            found.append(Found(path, folders[name]))
        elif depth + 1 > MAX_DEPTH:
            found.append(Found(path, f"a folder more than {MAX_DEPTH} levels below {top}: not searched"))
        else:
            enter(path, depth + 1)
    return found

def _not_a_file(path: str) -> str | None:
    """Return why a `*.toml` entry of a folder is no file to read, or None for a regular file."""
    try:
        mode = os.stat(path).st_mode  # follows a link
    except FileNotFoundError:
        return "a link to nothing (the file it names does not exist)"
    except OSError as exc:
        return f"cannot read: {exc.strerror or exc}"
    if stat.S_ISREG(mode):
        return None
    kind = "a FIFO" if stat.S_ISFIFO(mode) else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) \
        else "a socket" if stat.S_ISSOCK(mode) else "not a file"
    return f"{kind}, not a regular file: not read (name it on the command line to read it)"
