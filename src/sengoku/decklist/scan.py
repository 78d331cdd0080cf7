"""Find where things are in a decklist's TOML text: `tomllib` gives values but no positions.

A light line scan, run after `tomllib` accepted the text, records the line and column of every
top-level key, every `[[section]]` table header and the keys inside it, and every inline
table of a `section = [{...}, ...]` array. Entry i of a section is then the i-th table found.
It is not a TOML parser: it only needs to be right for text `tomllib` already accepted, and
it skips multi-line strings so a `[[main]]` inside one is not taken for a header.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

Pos = tuple[int, int]  # (line, column), both 1-based

_KEY = r'(?:[A-Za-z0-9_-]+|"[^"\n]*"|\'[^\'\n]*\')'
_HEADER_LINE = re.compile(rf"^\s*(?P<open>\[\[?)\s*(?P<root>{_KEY})(?P<dotted>(?:\s*\.\s*{_KEY})*)\s*\]\]?")
_KEY_LINE = re.compile(rf"^(\s*)({_KEY})\s*[.=]")
_INLINE_ARRAY = re.compile(rf"^\s*({_KEY})\s*=\s*\[")


def _unquote(key: str) -> str:
    if len(key) >= 2 and key[0] == key[-1] and key[0] in "\"'":
        return key[1:-1]
    return key


@dataclass(frozen=True)
class Header:
    """A table header line: `[[root]]` (array), `[root]`, or either with more dotted parts."""

    array: bool
    root: str  # its first key, unquoted
    dotted: bool  # `[root.more]`: a sub-table, not a table of its own
    column: int  # 1-based column of its first '['


def toml_lines(lines: Sequence[str]) -> Iterator[tuple[int, Header | None]]:
    """Yield (index, header or None) for each line that starts outside a multi-line string or array.

    The one scanner of TOML table headers (the validator's line scan, fmt's chunks and the format
    files' locator use it): it is not a TOML parser, only right for text `tomllib` accepted, but
    a '[' at the start of a line inside a multi-line string or array is never taken for a header.
    """
    depth, ml = 0, ""
    for i, line in enumerate(lines):
        if not ml and depth == 0:
            m = _HEADER_LINE.match(line)
            if m:
                yield i, Header(m.group("open") == "[[", _unquote(m.group("root")), bool(m.group("dotted")),
                                line.index("[") + 1)
                continue
            yield i, None
        j, n = 0, len(line)
        while j < n:
            if ml:
                k = line.find(ml, j)
                if k < 0:
                    break
                j = k + 3
                while j < n and line[j] == ml[0]:
                    j += 1
                ml = ""
                continue
            ch = line[j]
            if ch == "#":
                break
            if line.startswith('"""', j) or line.startswith("'''", j):
                ml, j = line[j:j + 3], j + 3
            elif ch == '"':
                j += 1
                while j < n and line[j] != '"':
                    j += 2 if line[j] == "\\" else 1
                j += 1
            elif ch == "'":
                k = line.find("'", j + 1)
                j = n if k < 0 else k + 1
            else:
                if ch in "[{":
                    depth += 1
                elif ch in "]}":
                    depth = max(0, depth - 1)
                j += 1


class Table:
    """One entry table: where it starts and where each of its keys is.

    The key positions are found only when asked for (to place a syntax error on its key), so
    a well-formed decklist costs one regex pass for its headers.
    """

    __slots__ = ("pos", "_keys", "_text", "_span")

    def __init__(self, pos: Pos, keys: dict[str, Pos] | None = None, text: str | None = None,
                 span: tuple[int, int] = (0, 0)):
        self.pos = pos
        self._keys = keys if keys is not None or text is None else None
        if self._keys is None and text is None:
            self._keys = {}
        self._text = text
        self._span = span  # offsets of the table's body (the lines after its header)

    @property
    def keys(self) -> dict[str, Pos]:
        if self._keys is None:
            assert self._text is not None
            start, end = self._span  # from the end of the header to the next header
            self._keys = {}
            for n, line in enumerate(self._text[start:end].splitlines()[1:], self.pos[0] + 1):
                m = _KEY_LINE.match(line)
                if m:
                    self._keys.setdefault(_unquote(m.group(2)), (n, len(m.group(1)) + 1))
        return self._keys

    def __repr__(self) -> str:
        return f"Table(pos={self.pos!r})"


@dataclass
class Layout:
    """Positions found in a decklist's text."""

    keys: dict[str, Pos] = field(default_factory=dict)  # top-level key -> position
    tables: dict[str, list[Table]] = field(default_factory=dict)  # section -> its tables, in order
    headers: dict[str, Pos] = field(default_factory=dict)  # `[name]` (non-array) table headers
    last_line: int = 1

    def entry(self, section: str, index: int) -> Table | None:
        """Return the table of entry `index` of `section`, if the scan found it."""
        found = self.tables.get(section)
        if found is not None and index < len(found):
            return found[index]
        return None

    def where(self, section: str) -> Pos | None:
        """Return where a section starts (its first table, or its `section = [` line)."""
        found = self.tables.get(section)
        if found:
            return found[0].pos
        return self.keys.get(section) or self.headers.get(section)


# A decklist without multi-line strings (the usual case) is scanned in one regex pass over its
# table headers; only the text before the first header (top-level keys, inline arrays) is
# scanned line by line. Groups: 1 the opening bracket(s), 2 the table's name.
_HEADER = re.compile(rf"^[ \t]*(\[\[?)[ \t]*({_KEY}(?:[ \t]*\.[ \t]*{_KEY})*)[ \t]*\]", re.MULTILINE)


def scan(text: str) -> Layout:
    """Return the positions of top-level keys, section tables and their keys in `text`."""
    if '"""' in text or "'''" in text:
        return _scan_lines(text)
    found = [(m.start(), m.start(1), m.group(1), m.group(2), m.end()) for m in _HEADER.finditer(text)]
    layout = _scan_lines(text[: found[0][0]] if found else text)  # top-level keys and inline arrays
    layout.last_line = text.count("\n") + (0 if text.endswith("\n") else 1) or 1
    tables = layout.tables
    count = text.count
    lineno, last = 1, 0
    ends = [f[0] for f in found[1:]] + [len(text)]
    for (start, bracket, kind, name, end), next_start in zip(found, ends):
        lineno += count("\n", last, start)
        last = start
        dotted = "." in name
        if dotted or name[0] in "\"'":
            name = _unquote(name.split(".")[0].strip())
        if kind == "[[":
            if dotted:
                continue  # [[main.x]] nests inside the last [[main]] table: not an entry
            section = tables.get(name)
            if section is None:
                section = tables[name] = []
            section.append(Table((lineno, bracket - start + 1), text=text, span=(end, next_start)))
        else:
            layout.headers.setdefault(name, (lineno, bracket - start + 1))
    return layout


def _scan_lines(text: str) -> Layout:
    """Line-by-line scan that skips multi-line strings (rare in decklists, so the slow path)."""
    layout = Layout()
    lines = text.splitlines()
    layout.last_line = max(1, len(lines))
    current: Table | None = None  # the [[section]] table we are in
    in_other_table = False  # inside a [table] header (not an entry)
    skip_until = -1  # lines consumed by an inline array scan
    for i, header in toml_lines(lines):
        lineno = i + 1
        if i <= skip_until:
            continue
        line = lines[i]
        if header is not None:
            if header.array and header.dotted:
                continue  # [[main.x]] nests inside the last [[main]] table: not an entry
            if header.array:
                current = Table((lineno, header.column))
                layout.tables.setdefault(header.root, []).append(current)
                in_other_table = False
            else:
                layout.headers.setdefault(header.root, (lineno, header.column))
                current = None
                in_other_table = True
            continue
        m = _KEY_LINE.match(line)
        if m:
            key = _unquote(m.group(2))
            pos = (lineno, len(m.group(1)) + 1)
            if current is not None:
                current.keys.setdefault(key, pos)
            elif not in_other_table:
                layout.keys.setdefault(key, pos)
                arr = _INLINE_ARRAY.match(line)
                if arr:
                    tables, end = _inline_tables(lines, i, arr.end())
                    layout.tables.setdefault(key, []).extend(tables)
                    skip_until = end
    return layout


def _inline_tables(lines: list[str], start_line: int, start_col: int) -> tuple[list[Table], int]:
    """Scan `key = [ {...}, ... ]` from just after its `[`; return its inline tables and last line."""
    tables: list[Table] = []
    depth_sq, depth_br = 1, 0
    table: Table | None = None
    i, j = start_line, start_col
    quote: str | None = None
    expect_key = False
    while i < len(lines):
        line = lines[i]
        while j < len(line):
            ch = line[j]
            if quote is not None:
                if line.startswith(quote, j):
                    j += len(quote)
                    quote = None
                    continue
                if ch == "\\" and quote in ('"', '"""'):
                    j += 2
                    continue
                j += 1
                continue
            if ch == "#":
                break
            if ch in "\"'":
                quote = ch * 3 if line.startswith(ch * 3, j) else ch
                j += len(quote)
                continue
            if ch == "[":
                depth_sq += 1
            elif ch == "]":
                depth_sq -= 1
                if depth_sq == 0:
                    return tables, i
            elif ch == "{":
                depth_br += 1
                if depth_br == 1 and depth_sq == 1:
                    table = Table((i + 1, j + 1))
                    tables.append(table)
                    expect_key = True
            elif ch == "}":
                depth_br -= 1
            elif ch == "," and depth_br == 1:
                expect_key = True
            elif expect_key and table is not None and depth_br == 1 and not ch.isspace():
                m = re.match(_KEY, line[j:])
                if m:
                    table.keys.setdefault(_unquote(m.group(0)), (i + 1, j + 1))
                    j += len(m.group(0))
                    expect_key = False
                    continue
                expect_key = False
            j += 1
        i += 1
        j = 0
    return tables, i
