"""Find where things are in a decklist's TOML text: `tomllib` gives values but no positions.

A light line scan, run after `tomllib` accepted the text, records the line and column of every
top-level key, every `[[section]]` table header and the keys inside it, and every inline
table of a `section = [{...}, ...]` array. Entry i of a section is then the i-th table found.
It is not a TOML parser: it only needs to be right for text `tomllib` already accepted, and
it skips multi-line strings so a `[[main]]` inside one is not taken for a header.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

Pos = tuple[int, int]  # (line, column), both 1-based

_KEY = r'(?:[A-Za-z0-9_-]+|"[^"\n]*"|\'[^\'\n]*\')'
_ARRAY_HEADER = re.compile(rf"^\s*\[\[\s*({_KEY})\s*\]\]")
_TABLE_HEADER = re.compile(rf"^\s*\[\s*({_KEY}(?:\s*\.\s*{_KEY})*)\s*\]")
_KEY_LINE = re.compile(rf"^(\s*)({_KEY})\s*[.=]")
_INLINE_ARRAY = re.compile(rf"^\s*({_KEY})\s*=\s*\[")
_TRIPLE = re.compile(r'"""|\'\'\'')


def _unquote(key: str) -> str:
    if len(key) >= 2 and key[0] == key[-1] and key[0] in "\"'":
        return key[1:-1]
    return key


@dataclass
class Table:
    """One entry table: where it starts and where each of its keys is."""

    pos: Pos
    keys: dict[str, Pos] = field(default_factory=dict)


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


def scan(text: str) -> Layout:
    """Return the positions of top-level keys, section tables and their keys in `text`."""
    layout = Layout()
    lines = text.splitlines()
    layout.last_line = max(1, len(lines))
    current: Table | None = None  # the [[section]] table we are in
    in_other_table = False  # inside a [table] header (not an entry)
    open_quote: str | None = None  # inside a multi-line string opened with this quote
    skip_until = -1  # lines consumed by an inline array scan
    for i, line in enumerate(lines):
        lineno = i + 1
        if i <= skip_until:
            continue
        if open_quote is not None:
            if line.count(open_quote) % 2 == 1:
                open_quote = None
            continue
        m = _ARRAY_HEADER.match(line)
        if m:
            section = _unquote(m.group(1))
            current = Table((lineno, line.index("[") + 1))
            layout.tables.setdefault(section, []).append(current)
            in_other_table = False
            continue
        m = _TABLE_HEADER.match(line)
        if m:
            layout.headers.setdefault(_unquote(m.group(1).split(".")[0].strip()), (lineno, line.index("[") + 1))
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
                    continue
        # A multi-line string opened (and not closed) on this line hides the lines after it.
        quotes = _TRIPLE.findall(line)
        if quotes and len(quotes) % 2 == 1:
            open_quote = quotes[-1]
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
