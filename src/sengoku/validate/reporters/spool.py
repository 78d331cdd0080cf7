"""Reports streamed file by file: a spool on disk for what must wait for the totals.

`validate` keeps its memory flat in the number of files: each file's result goes to every
reporter as soon as it is checked, and is then dropped. A line-per-finding report (text,
github) writes it out at once. A document (JSON, SARIF, JUnit, Markdown, the registration
sheets) opens with what only the whole run knows (the totals, the card databases, SARIF's
rules), so its parts go to a `Spool`, an unnamed temporary file, and `finish` hands back a
`Document`: the head, the spooled parts and the tail, read back in chunks when it is written.
Nothing of a document reaches its output before every file is checked, so a run that fails
half-way writes none of it.

A reporter is a class built with `(out, strict)`: `add(result)` for each file in order, then
`finish(tally)` (the run's totals, `sengoku.validate.api.RunTally`) returning the `Document`
still to be written (empty for the line reporters).
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterable, Iterator
from typing import Any, Protocol, TextIO

from sengoku.display import json_text
from sengoku.errors import DataError

CHUNK = 1 << 16  # characters read back from a spool at a time


def _temporary_folder_error(exc: OSError) -> DataError:
    """The error for a spool that cannot be written or read back: the temporary folder, named
    (a full /tmp is not a failure to write standard output or the report file)."""
    return DataError(tempfile.gettempdir(), f"cannot write a temporary file: {exc.strerror or exc} (a report "
                     "waits there until every file is checked; TMPDIR names another folder)")


class Spool:
    """Text written to an unnamed temporary file (gone when closed or at exit), to be read back once.

    A failure of that file (a full temporary folder) raises DataError naming the folder.
    """

    def __init__(self) -> None:
        try:
            self._file = tempfile.TemporaryFile("w+", encoding="utf-8", errors="surrogatepass", newline="\n")
        except OSError as exc:
            raise _temporary_folder_error(exc) from None
        self.empty = True

    def write(self, text: str) -> None:
        if text:
            try:
                self._file.write(text)
            except OSError as exc:
                raise _temporary_folder_error(exc) from None
            self.empty = False

    def flush(self) -> None:
        """Write out what is still buffered: a full temporary folder shows here, as DataError."""
        try:
            self._file.flush()
        except OSError as exc:
            raise _temporary_folder_error(exc) from None

    # In the two readers below, an OSError can only come from the spool's own file: what the
    # caller does with a chunk (writing it out) raises in the caller, not at the `yield`.

    def chunks(self) -> Iterator[str]:
        """Yield what was written, from the start, in chunks."""
        try:
            self._file.flush()  # what is still buffered is written now: a full folder shows here
            self._file.seek(0)
            while chunk := self._file.read(CHUNK):
                yield chunk
        except OSError as exc:
            raise _temporary_folder_error(exc) from None

    def lines(self) -> Iterator[str]:
        """Yield what was written, line by line (without the newline)."""
        try:
            self._file.flush()
            self._file.seek(0)
            for line in self._file:
                yield line.rstrip("\n")
        except OSError as exc:
            raise _temporary_folder_error(exc) from None

    def close(self) -> None:
        self._file.close()


class Document:
    """A report still to be written: strings and spools, in order.

    Each spool is flushed when the document is made, so that a temporary folder that cannot take
    the rest fails the run before the document's first line is written anywhere.
    """

    def __init__(self, parts: Iterable[str | Spool] = ()):
        self.parts = list(parts)
        for part in self.parts:
            if isinstance(part, Spool):
                part.flush()

    def chunks(self) -> Iterator[str]:
        """Yield the document's text in order; may be called more than once."""
        for part in self.parts:
            if isinstance(part, Spool):
                yield from part.chunks()
            elif part:
                yield part

    def text(self) -> str:
        return "".join(self.chunks())

    def write_to(self, stream: TextIO) -> None:
        for chunk in self.chunks():
            stream.write(chunk)

    def close(self) -> None:
        for part in self.parts:
            if isinstance(part, Spool):
                part.close()


class Reporter(Protocol):
    def add(self, result: Any) -> None: ...

    def finish(self, tally: Any) -> Document: ...


_HOLE = "sengoku-spooled-list-"  # a placeholder's text; made unique per run by a counter below
_ITEM = "\x1e"  # starts each spooled item's first line: JSON text never holds a raw control character


class Spooled:
    """Stands, in a value given to `json_document`, for a list whose items are in `spool`
    (each added with `spool_json_item`)."""

    def __init__(self, spool: Spool):
        self.spool = spool


def json_document(value: Any, **options: Any) -> Document:
    """Return `value` as indented JSON, as `json_text(value, indent=2, **options)` would write it
    whole, with each `Spooled` list read back from its spool: byte for byte the same text."""
    holes: dict[str, Spooled] = {}

    def place(v: Any) -> Any:
        if isinstance(v, Spooled):
            if v.spool.empty:
                return []
            hole = f"{_HOLE}{len(holes)}-{id(v)}"
            holes[hole] = v
            return [hole]
        if isinstance(v, dict):
            return {k: place(x) for k, x in v.items()}
        if isinstance(v, list):
            return [place(x) for x in v]
        return v

    rest = json_text(place(value), indent=2, **options)
    parts: list[str | Spool] = []
    for hole, spooled in sorted(holes.items(), key=lambda kv: rest.index(f'"{kv[0]}"')):
        before, found, rest = rest.partition(f'"{hole}"')
        if not found:
            raise AssertionError("a spooled list's placeholder went missing")
        head, _, indent = before.rpartition("\n")
        parts += [head + "\n", _Indented(spooled.spool, indent)]
    parts.append(rest)
    return Document(parts)


class _Indented(Spool):
    """A spool of indented JSON items, read back as list items at `indent`, comma-separated."""

    def __init__(self, items: Spool, indent: str):  # wraps a spool; opens no file of its own
        self._items = items
        self._indent = indent
        self.empty = items.empty

    def chunks(self) -> Iterator[str]:
        first = True
        buffer: list[str] = []
        size = 0
        for line in self._items.lines():
            if line.startswith(_ITEM):  # the start of the next item
                line = line[1:]
                if not first:
                    buffer.append(",\n")
                first = False
            else:
                buffer.append("\n")
            buffer.append(self._indent + line)
            size += len(line)
            if size >= CHUNK:
                yield "".join(buffer)
                buffer, size = [], 0
        if buffer:
            yield "".join(buffer)

    def flush(self) -> None:
        self._items.flush()

    def close(self) -> None:
        self._items.close()


def spool_json_item(spool: Spool, item: Any, **options: Any) -> None:
    """Add one item to a spool for `json_document`."""
    spool.write(_ITEM + json_text(item, indent=2, **options) + "\n")

