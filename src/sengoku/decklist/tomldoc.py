"""A decklist's TOML text as a document that keeps its comments.

tomlkit parses the text; `document_events` flattens its tree into a stream of comments, blank
lines and items in file order, and `assemble` groups that stream into a `Doc`: the file's
header comments, its top-level keys, its other tables, its section entries (each with the
comments above, beside and under it) and the comments at its end. `table_chunks` splits the
text at its `[[section]]` headers first, so interleaved sections keep their order.
`source_comments` lists every comment of the text, to tell which ones a rewrite could not keep.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from tomlkit import items

from sengoku.decklist.scan import toml_lines

@dataclass
class Key:
    key: str
    value: Any
    leading: list[str] = field(default_factory=list)
    trailing: str = ""


@dataclass
class Entry:
    section: str
    header_comment: str = ""
    leading: list[str] = field(default_factory=list)
    keys: list[Key] = field(default_factory=list)
    tail: list[str] = field(default_factory=list)  # comment lines under its last key, before a blank line
    merged: int = 1

    def get(self, key: str, default: Any = None) -> Any:
        return next((k.value for k in self.keys if k.key == key), default)


@dataclass
class Doc:
    header: list[str] = field(default_factory=list)
    header_joined: bool = False  # no blank line after the header (it was only a `#:schema` line)
    top: list[Key] = field(default_factory=list)
    tables: list[Key] = field(default_factory=list)  # other top-level tables, written as tomli-w does
    entries: list[Entry] = field(default_factory=list)
    footer: list[str] = field(default_factory=list)
    section_order: list[str] = field(default_factory=list)  # as first seen in the file


def is_section_value(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


def document_events(doc: Any) -> list[tuple]:
    """Flatten a tomlkit document into ('comment', text) / ('blank',) / item events, in file order."""
    out: list[tuple] = []

    def body(seq: Iterable[tuple[Any, Any]], entry: bool) -> None:
        for key, item in seq:
            if isinstance(item, items.Whitespace):
                if "\n" in item.s:
                    out.append(("blank",))
            elif isinstance(item, items.Comment):
                out.append(("comment", item.trivia.comment.strip()))
            elif key is None:
                continue
            elif entry:
                out.append(("entry-key", key.key, item.unwrap(), _trail(item)))
            elif isinstance(item, items.AoT):
                for table in item.body:
                    out.append(("header", key.key, table.trivia.comment.strip()))
                    body(table.value.body, True)
            elif isinstance(item, items.Table):
                out.append(("table", key.key, item.unwrap()))
                comments_only(item.value.body)  # written by tomli-w; its comments lead what follows
            else:
                out.append(("top-key", key.key, item.unwrap(), _trail(item)))

    def comments_only(seq: Iterable[tuple[Any, Any]]) -> None:
        for _, item in seq:
            if isinstance(item, items.Comment):
                out.append(("comment", item.trivia.comment.strip()))
            elif isinstance(item, items.Whitespace) and "\n" in item.s:
                out.append(("blank",))
            elif isinstance(item, items.Table):
                comments_only(item.value.body)
            elif isinstance(item, items.AoT):
                for table in item.body:
                    comments_only(table.value.body)

    body(doc.body, False)
    return out

def table_chunks(text: str) -> list[str]:
    """Split TOML text at its `[[section]]` headers: the top-level part, then one chunk per entry.

    tomlkit groups the tables of one array (`[[main]]`) at its first occurrence, which loses
    the order of interleaved sections and so where their comments were; parsing each chunk on
    its own keeps the file's order. Only `[[section]]` headers start a chunk; a sub-table of a
    section (`[main.extra]`) joins the latest chunk of that section, to which TOML assigns it;
    any other table (`[meta]`) stays in the chunk it is written in. Headers come from the one
    scanner (`toml_lines`), so a '[' inside a multi-line string or array does not start a chunk.
    """
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    headers = {i: h for i, h in toml_lines(lines) if h is not None}
    chunks: list[list[str]] = [[]]  # chunk 0: the top level
    last_of: dict[str, int] = {}  # section -> index of its latest chunk
    target = 0
    for i, line in enumerate(lines):
        h = headers.get(i)
        if h is not None:
            if h.array and not h.dotted:
                chunks.append([])
                target = last_of[h.root] = len(chunks) - 1
            elif h.root in last_of:
                target = last_of[h.root]  # `[main.extra]` belongs to the latest [[main]] entry
        chunks[target].append(line)
    return ["\n".join(chunk) + "\n" for chunk in chunks if chunk]


def _trail(item: Any) -> str:
    try:
        return item.trivia.comment.strip()
    except (AttributeError, RuntimeError):
        return ""


def _deep_merge(into: dict[str, Any], more: dict[str, Any]) -> None:
    for key, value in more.items():
        if isinstance(into.get(key), dict) and isinstance(value, dict):
            _deep_merge(into[key], value)
        elif isinstance(into.get(key), list) and isinstance(value, list):
            into[key] = into[key] + value
        else:
            into[key] = value


def _add_key(keys: list[Key], key: Key) -> None:
    """Add a key; dotted keys (`a.b = 1`, `a.c = 2`) arrive as parts of one table and are joined."""
    same = next((k for k in keys if k.key == key.key), None)
    if same is not None and isinstance(same.value, dict) and isinstance(key.value, dict):
        _deep_merge(same.value, key.value)
        same.leading += key.leading + ([key.trailing] if key.trailing else [])
    else:
        keys.append(key)


def assemble(events: list[tuple]) -> Doc:
    doc = Doc()
    pending: list[str] = []
    split = 0  # comments before the first item, up to the last blank line, are the file's header
    started = False
    gap = False  # a blank line came between the last item and the pending comments
    blank_last = False  # before the first item: the last line was blank
    seen_blank = False  # before the first item: some line was blank
    schema: list[str] = []
    current: Entry | None = None
    for ev in events:
        if ev[0] == "comment":
            if ev[1].startswith("#:schema"):
                schema.append(ev[1])  # a taplo `#:schema` line belongs at the top, wherever it was
            else:
                pending.append(ev[1])
            blank_last = False
            continue
        if ev[0] == "blank":
            if not started:
                split, blank_last, seen_blank = len(pending), True, True
            elif current is not None and pending:
                current.tail += pending  # a comment block closed by a blank line stays with its entry
                pending = []
            elif not pending:
                gap = True
            continue
        if not started:
            started = True
            if not seen_blank and ev[0] == "top-key":
                split = len(pending)  # a comment block opening the file, right above a key, describes the file
            # Written with no blank line after it only if it had none (and nothing is left to lead the item).
            doc.header_joined = split == len(pending) and not blank_last if split else not seen_blank
            doc.header, pending = pending[:split], pending[split:]
        leading, pending, gap = pending, [], False
        kind = ev[0]
        if kind == "header":
            current = Entry(section=ev[1], header_comment=ev[2], leading=leading)
            doc.entries.append(current)
            if ev[1] not in doc.section_order:
                doc.section_order.append(ev[1])
        elif kind == "entry-key" and current is not None:
            _add_key(current.keys, Key(ev[1], ev[2], leading, ev[3]))
        elif kind == "table":
            same = next((t for t in doc.tables if t.key == ev[1]), None)
            if same is None:
                doc.tables.append(Key(ev[1], ev[2], leading))
            else:  # one table written in two places (e.g. `[meta]` ... `[meta.more]`)
                _deep_merge(same.value, ev[2])
                same.leading += leading
        elif kind == "top-key" and is_section_value(ev[2]):
            # `main = [{...}, ...]`: the same entries, written as [[main]] tables.
            if ev[1] not in doc.section_order:
                doc.section_order.append(ev[1])
            for i, table in enumerate(ev[2]):
                doc.entries.append(Entry(section=ev[1], leading=leading if i == 0 else [],
                                          header_comment=ev[3] if i == 0 else "",
                                          keys=[Key(k, v) for k, v in table.items()]))
        else:
            _add_key(doc.top, Key(ev[1], ev[2], leading, ev[3]))
    if started and current is not None and not gap:
        current.tail += pending
    elif started:
        doc.footer = pending
    else:
        doc.header = pending
    doc.header = schema + doc.header
    return doc



def source_comments(text: str) -> list[tuple[int, str]]:
    """Return (line, comment) for every comment in TOML text, skipping '#' inside strings."""
    out: list[tuple[int, str]] = []
    i, line, n = 0, 1, len(text)
    while i < n:
        ch = text[i]
        if ch == "\n":
            line += 1
            i += 1
        elif ch == "#":
            end = text.find("\n", i)
            end = n if end < 0 else end
            out.append((line, text[i:end].strip()))
            i = end
        elif ch in "\"'":
            triple = text.startswith(ch * 3, i)
            close = ch * 3 if triple else ch
            j = i + len(close)
            while j < n:
                if ch == '"' and text[j] == "\\":
                    j += 2
                    continue
                if text.startswith(close, j):
                    # a closing """ may be followed by up to two more quotes that belong to the string
                    j += len(close)
                    while triple and j < n and text[j] == ch:
                        j += 1
                    break
                if text[j] == "\n" and not triple:
                    break
                j += 1
            line += text.count("\n", i, j)
            i = j
        else:
            i += 1
    return out


def lost_comments(text: str, emitted: list[str]) -> list[tuple[int, str]]:
    kept = Counter(emitted)
    lost = []
    for line, comment in source_comments(text):
        if kept[comment] > 0:
            kept[comment] -= 1
        else:
            lost.append((line, comment))
    return lost

