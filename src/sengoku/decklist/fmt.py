"""Rewrite a decklist in canonical form, keeping its comments; write files atomically.

Canonical form (`sengoku fmt`):
- top-level keys first, in the order name, game, mode, format, then the others as found;
- sections in the game's order (SENGOKU YUGI: main, nameless, familiars), then any others;
- entries of a section sorted by kind (Main, Support, Nameless, Familiar), level, name,
  epithet, id -- the kind comes from the card database, as an entry gives only a name;
- entries naming the same card (same keys after Unicode/case/space normalisation) merged,
  their counts summed (the validator would count them together anyway, D3);
- keys of an entry in the order id, name, level, epithet, count, then the others as found;
- values written the way tomli-w writes them; a blank line between blocks.

Comments: a comment line belongs to the key or `[[section]]` header right below it and moves
with it; a comment after a value stays after it; the comment block at the top of the file
(up to its first blank line) stays at the top; comments at the end stay at the end. Comments
TOML keeps inside arrays or inline tables cannot be placed and are reported, never dropped
silently. Formatting is idempotent: formatting canonical text changes nothing.
"""

from __future__ import annotations

import difflib
import os
import re
import tempfile
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sengoku.decklist.model import GAME_DEFAULT
from sengoku.errors import DataError
from sengoku.files import DECKLIST_BYTES, loads_toml, read_text_input

# SENGOKU YUGI's sections and kinds, used when no game rule file says otherwise.
DEFAULT_SECTIONS = ("main", "nameless", "familiars")
KIND_ORDER = {"main": 0, "support": 1, "nameless": 2, "familiar": 3}
TOP_KEY_ORDER = ("name", "game", "mode", "format")
ENTRY_KEY_ORDER = ("id", "name", "level", "epithet", "count")

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_UNPLACED = 99  # sort rank for what the card database cannot place


def norm(text: object) -> str:
    """Normalise a card name for comparison: NFKC (full-width forms), case, inner spaces."""
    return " ".join(unicodedata.normalize("NFKC", str(text)).casefold().split())


@dataclass
class FmtResult:
    """The outcome of formatting one decklist: the text before and after, and what to tell the user."""

    path: str | None
    original: str
    formatted: str
    notes: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return self.original != self.formatted

    def diff(self) -> str:
        """Return a unified diff from the original to the canonical text ('' when unchanged)."""
        name = self.path or "<stdin>"
        return "".join(difflib.unified_diff(
            self.original.splitlines(keepends=True), self.formatted.splitlines(keepends=True),
            fromfile=name, tofile=f"{name} (formatted)"))


# --- reading: tomlkit's document as a flat stream of comments, blank lines and items ---------

@dataclass
class _Key:
    key: str
    value: Any
    leading: list[str] = field(default_factory=list)
    trailing: str = ""


@dataclass
class _Entry:
    section: str
    header_comment: str = ""
    leading: list[str] = field(default_factory=list)
    keys: list[_Key] = field(default_factory=list)
    tail: list[str] = field(default_factory=list)  # comment lines under its last key, before a blank line
    merged: int = 1

    def get(self, key: str, default: Any = None) -> Any:
        return next((k.value for k in self.keys if k.key == key), default)


@dataclass
class _Doc:
    header: list[str] = field(default_factory=list)
    header_joined: bool = False  # no blank line after the header (it was only a `#:schema` line)
    top: list[_Key] = field(default_factory=list)
    tables: list[_Key] = field(default_factory=list)  # other top-level tables, written as tomli-w does
    entries: list[_Entry] = field(default_factory=list)
    footer: list[str] = field(default_factory=list)
    section_order: list[str] = field(default_factory=list)  # as first seen in the file


def _is_section_value(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


def _events(doc: Any) -> list[tuple]:
    """Flatten a tomlkit document into ('comment', text) / ('blank',) / item events, in file order."""
    from tomlkit import items

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


_KEY_PART = r"""(?:[A-Za-z0-9_-]+|"[^"\n]*"|'[^'\n]*')"""
_HEADER_LINE = re.compile(rf"^\s*(?P<open>\[\[?)\s*(?P<root>{_KEY_PART})(?P<dotted>(?:\s*\.\s*{_KEY_PART})*)\s*\]\]?")


def table_chunks(text: str) -> list[str]:
    """Split TOML text at its `[[section]]` headers: the top-level part, then one chunk per entry.

    tomlkit groups the tables of one array (`[[main]]`) at its first occurrence, which loses
    the order of interleaved sections and so where their comments were; parsing each chunk on
    its own keeps the file's order. Only `[[section]]` headers start a chunk; a sub-table of a
    section (`[main.extra]`) joins the latest chunk of that section, to which TOML assigns it;
    any other table (`[meta]`) stays in the chunk it is written in. Multi-line strings and arrays are skipped, so a '[' inside one
    does not start a chunk.
    """
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    chunks: list[list[str]] = [[]]  # chunk 0: the top level
    last_of: dict[str, int] = {}  # section -> index of its latest chunk
    target = 0
    depth, ml = 0, ""
    for line in lines:
        if not ml and depth == 0:
            m = _HEADER_LINE.match(line)
            if m:
                root = m.group("root").strip("\"'")
                if m.group("open") == "[[" and not m.group("dotted"):
                    chunks.append([])
                    target = last_of[root] = len(chunks) - 1
                elif root in last_of:
                    target = last_of[root]  # `[main.extra]` belongs to the latest [[main]] entry
                chunks[target].append(line)
                continue
        chunks[target].append(line)
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


def _add_key(keys: list[_Key], key: _Key) -> None:
    """Add a key; dotted keys (`a.b = 1`, `a.c = 2`) arrive as parts of one table and are joined."""
    same = next((k for k in keys if k.key == key.key), None)
    if same is not None and isinstance(same.value, dict) and isinstance(key.value, dict):
        _deep_merge(same.value, key.value)
        same.leading += key.leading + ([key.trailing] if key.trailing else [])
    else:
        keys.append(key)


def _assemble(events: list[tuple]) -> _Doc:
    doc = _Doc()
    pending: list[str] = []
    split = 0  # comments before the first item, up to the last blank line, are the file's header
    started = False
    gap = False  # a blank line came between the last item and the pending comments
    blank_last = False  # before the first item: the last line was blank
    seen_blank = False  # before the first item: some line was blank
    schema: list[str] = []
    current: _Entry | None = None
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
            current = _Entry(section=ev[1], header_comment=ev[2], leading=leading)
            doc.entries.append(current)
            if ev[1] not in doc.section_order:
                doc.section_order.append(ev[1])
        elif kind == "entry-key" and current is not None:
            _add_key(current.keys, _Key(ev[1], ev[2], leading, ev[3]))
        elif kind == "table":
            same = next((t for t in doc.tables if t.key == ev[1]), None)
            if same is None:
                doc.tables.append(_Key(ev[1], ev[2], leading))
            else:  # one table written in two places (e.g. `[meta]` ... `[meta.more]`)
                _deep_merge(same.value, ev[2])
                same.leading += leading
        elif kind == "top-key" and _is_section_value(ev[2]):
            # `main = [{...}, ...]`: the same entries, written as [[main]] tables.
            if ev[1] not in doc.section_order:
                doc.section_order.append(ev[1])
            for i, table in enumerate(ev[2]):
                doc.entries.append(_Entry(section=ev[1], leading=leading if i == 0 else [],
                                          header_comment=ev[3] if i == 0 else "",
                                          keys=[_Key(k, v) for k, v in table.items()]))
        else:
            _add_key(doc.top, _Key(ev[1], ev[2], leading, ev[3]))
    if started and current is not None and not gap:
        current.tail += pending
    elif started:
        doc.footer = pending
    else:
        doc.header = pending
    doc.header = schema + doc.header
    return doc


# --- canonical order ---------------------------------------------------------------------------

def _identity(entry: _Entry) -> tuple | None:
    """Return what makes two entries the same card, or None when the entry must not be merged."""
    count = entry.get("count", 1)
    if type(count) is not int or count < 0:
        return None
    parts = []
    for k in entry.keys:
        if k.key == "count":
            continue
        value = norm(k.value) if isinstance(k.value, str) else _canon(k.value)
        parts.append((k.key, value))
    return (entry.section, tuple(sorted(parts)))


def _merge(entries: list[_Entry]) -> tuple[list[_Entry], list[str]]:
    out: list[_Entry] = []
    first: dict[tuple, _Entry] = {}
    for entry in entries:
        ident = _identity(entry)
        into = first.get(ident) if ident is not None else None
        if into is None:
            if ident is not None:
                first[ident] = entry
            out.append(entry)
            continue
        total = into.get("count", 1) + entry.get("count", 1)
        for k in into.keys:
            if k.key == "count":
                k.value = total
                break
        else:
            into.keys.append(_Key("count", total))
        # The merged entry's comments go above the entry it joins: moved, never dropped.
        moved = list(entry.leading) + ([entry.header_comment] if entry.header_comment else [])
        for k in entry.keys:
            moved += k.leading + ([k.trailing] if k.trailing else [])
        into.leading.extend(moved + entry.tail)
        into.merged += 1
    notes = []
    for entry in out:
        if entry.merged > 1:
            notes.append(f"merged {entry.merged} entries of {_label(entry)} in [[{entry.section}]] "
                         f"into one (count {entry.get('count')})")
    return out, notes


def _label(entry: _Entry) -> str:
    name = entry.get("name", entry.get("id", "?"))
    level = entry.get("level")
    return f"{name} Lv{level}" if level is not None else str(name)


class _Cards:
    """What the sort needs from a card database: the kind and level of a named card."""

    def __init__(self, cards: Iterable[Mapping[str, Any]] | None, game: str):
        self.by_id: dict[str, Mapping[str, Any]] = {}
        self.by_name: dict[str, list[Mapping[str, Any]]] = {}
        kinds: dict[str, int] = dict(KIND_ORDER) if game == GAME_DEFAULT else {}
        for card in cards or ():
            if isinstance(card.get("id"), str):
                self.by_id[norm(card["id"])] = card
            if isinstance(card.get("name"), str):
                self.by_name.setdefault(norm(card["name"]), []).append(card)
            kind = card.get("kind")
            if isinstance(kind, str) and kind not in kinds:
                kinds[kind] = len(kinds)  # another game: kinds in the order its database lists them
        self.kinds = kinds

    def sort_key(self, entry: _Entry) -> tuple[int, int, str, str, str]:
        cid, name, level, epithet = (entry.get(k) for k in ("id", "name", "level", "epithet"))
        candidates: list[Mapping[str, Any]] = []
        if isinstance(cid, str) and norm(cid) in self.by_id:
            candidates = [self.by_id[norm(cid)]]
        elif isinstance(name, str):
            candidates = [c for c in self.by_name.get(norm(name), [])
                          if (type(level) is not int or c.get("level") == level)
                          and (not isinstance(epithet, str) or norm(c.get("epithet", "")) == norm(epithet))]
        ranks = [self.kinds.get(c.get("kind"), _UNPLACED) for c in candidates]
        kind_rank = min(ranks) if ranks else _UNPLACED
        if type(level) is not int:
            levels = {c.get("level") for c in candidates}
            level = levels.pop() if len(levels) == 1 else None
            if type(level) is not int:
                level = 999
        if not isinstance(name, str):
            name = candidates[0].get("name", "") if len(candidates) == 1 else ""
        return (kind_rank, level, norm(name), norm(epithet or ""), norm(cid or ""))


# --- writing ---------------------------------------------------------------------------------------

def render_key(key: str) -> str:
    """Return a TOML key: bare when it can be, else quoted."""
    return key if _BARE_KEY.fullmatch(key) else render_value(key)


def render_value(value: Any) -> str:
    """Return a TOML value on one line, as tomli-w writes it (tables inline)."""
    import tomli_w

    if isinstance(value, dict):
        if not value:
            return "{}"
        return "{ " + ", ".join(f"{render_key(k)} = {render_value(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(render_value(v) for v in value) + "]"
    return tomli_w.dumps({"v": value})[len("v = "):].rstrip("\n")


def _key_lines(k: _Key, emitted: list[str]) -> list[str]:
    emitted.extend(k.leading)
    line = f"{render_key(k.key)} = {render_value(k.value)}"
    if k.trailing:
        emitted.append(k.trailing)
        line += f"  {k.trailing}"
    return [*k.leading, line]


def _ordered(keys: list[_Key], order: Sequence[str]) -> list[_Key]:
    rank = {name: i for i, name in enumerate(order)}
    return sorted(keys, key=lambda k: rank.get(k.key, len(rank)))  # stable: the rest as found


def _emit(doc: _Doc, sections: Sequence[str], cards: _Cards) -> tuple[str, list[str]]:
    import tomli_w

    emitted: list[str] = []
    blocks: list[list[str]] = []
    top: list[str] = []
    for k in _ordered(doc.top, TOP_KEY_ORDER):
        top += _key_lines(k, emitted)
    if doc.header:
        emitted += doc.header
        if doc.header_joined and top:
            top = doc.header + top
        else:
            blocks.append(list(doc.header))
    if top:
        blocks.append(top)
    for t in doc.tables:
        emitted += t.leading
        blocks.append([*t.leading, *tomli_w.dumps({t.key: t.value}).rstrip("\n").splitlines()])
    order = list(sections) + [s for s in doc.section_order if s not in sections]
    for section in order:
        in_section = [e for e in doc.entries if e.section == section]
        for entry in sorted(in_section, key=cards.sort_key):
            header = f"[[{render_key(section)}]]"
            if entry.header_comment:
                header += f"  {entry.header_comment}"
                emitted.append(entry.header_comment)
            emitted += entry.leading
            lines = [*entry.leading, header]
            for k in _ordered(entry.keys, ENTRY_KEY_ORDER):
                lines += _key_lines(k, emitted)
            emitted += entry.tail
            blocks.append(lines + entry.tail)
    if doc.footer:
        blocks.append(list(doc.footer))
        emitted += doc.footer
    return "\n\n".join("\n".join(b) for b in blocks) + "\n", emitted


# --- comments the document model could not place ----------------------------------------------------

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


def _lost_comments(text: str, emitted: list[str]) -> list[tuple[int, str]]:
    kept = Counter(emitted)
    lost = []
    for line, comment in source_comments(text):
        if kept[comment] > 0:
            kept[comment] -= 1
        else:
            lost.append((line, comment))
    return lost


# --- the deck's meaning must not change ------------------------------------------------------------

def _canon(value: Any) -> Any:
    """Return a hashable, order-independent form of a TOML value (tables compare by content)."""
    if isinstance(value, dict):
        return ("table", tuple(sorted((k, _canon(v)) for k, v in value.items())))
    if isinstance(value, list):
        return ("array", tuple(_canon(v) for v in value))
    return (type(value).__name__, repr(value))


def _meaning(data: Mapping[str, Any]) -> tuple:
    """Return the deck's content independent of order: top-level values and summed counts per card."""
    top = _canon({k: v for k, v in data.items() if not _is_section_value(v)})
    counts: Counter = Counter()
    for key, value in data.items():
        if not _is_section_value(value):
            continue
        for table in value:
            e = _Entry(section=key, keys=[_Key(k, v) for k, v in table.items()])
            ident = _identity(e)
            if ident is None:
                counts[(key, _canon(table))] += 1
            else:
                counts[ident] += e.get("count", 1)
    return top, counts


# --- public ---------------------------------------------------------------------------------------

def _parse(text: str, path: str | None) -> Any:
    try:
        return loads_toml(text, path)
    except DataError as exc:
        raise DataError(path, f"{exc.message}; file left as it was", exc.line, exc.column) from None


def game_context(game: str, db: Path | str | None = None) -> tuple[tuple[str, ...], list[dict[str, Any]] | None, list[str]]:
    """Return a game's canonical section order, its raw cards (None if unreadable), and notes."""
    from sengoku.carddb.load import read_json

    notes: list[str] = []
    sections: tuple[str, ...] = DEFAULT_SECTIONS if game == GAME_DEFAULT else ()
    folder: Path | None = Path(db) if db is not None else None
    try:
        from sengoku.games import bundled_games, default_db_folder

        known = bundled_games()
        if game in known:
            sections = known[game].sections
            if folder is None:
                folder = default_db_folder(game)
    except DataError as exc:
        notes.append(f"game rule files unreadable ({exc}); using the default section order")
    if folder is None and game == GAME_DEFAULT:
        from sengoku.paths import default_card_db

        folder = default_card_db()
    if folder is None:
        return sections, None, notes
    cards_file = folder / "cards.json" if folder.is_dir() else folder
    try:
        data, _ = read_json(cards_file)  # bounded, like every card database read
        cards = [c for c in data["cards"] if isinstance(c, dict)]
    except (DataError, KeyError, TypeError):
        notes.append(f"cannot read the card database {cards_file}; entries sorted by level and name only")
        return sections, None, notes
    return sections, cards, notes


def canonical_decklist(
    text: str,
    *,
    path: str | None = None,
    cards: Iterable[Mapping[str, Any]] | None = None,
    sections: Sequence[str] | None = None,
    db: Path | str | None = None,
) -> FmtResult:
    """Return a decklist's text in canonical form, with notes on merged entries and unplaced comments.

    `cards` (raw card fields) and `sections` default to the decklist's game: its rule file and
    card database (`db`, else the bundled one). Raise DataError when the text is not TOML.
    """
    import tomlkit

    bom = text.startswith("\ufeff")
    body = text[1:] if bom else text
    crlf = "\r\n" in body
    if crlf:
        body = body.replace("\r\n", "\n")
    data = _parse(body, path)
    notes: list[str] = []
    if sections is None or cards is None:
        game = data.get("game", GAME_DEFAULT)
        game_sections, game_cards, ctx_notes = game_context(game if isinstance(game, str) else GAME_DEFAULT, db)
        sections = game_sections if sections is None else sections
        cards = game_cards if cards is None else cards
        notes += ctx_notes
    try:
        events = [ev for chunk in table_chunks(body) for ev in _events(tomlkit.parse(chunk))]
    except Exception:  # a chunk tomlkit will not take alone: read the whole document
        try:
            events = _events(tomlkit.parse(body))
        except Exception as exc:  # tomlkit disagrees with tomllib on some rare input
            raise DataError(path, f"cannot format this file's TOML ({exc}); file left as it was") from None
    doc = _assemble(events)
    doc.entries, merge_notes = _merge(doc.entries)
    notes += merge_notes
    out, emitted = _emit(doc, sections, _Cards(cards, data.get("game", GAME_DEFAULT)))
    for line, comment in _lost_comments(body, emitted):
        notes.append(f"line {line}: comment could not be kept (it sits inside an array or inline table): {comment}")

    # A formatter must never change what the deck says, nor write TOML that does not parse.
    try:
        again = _parse(out, path)
    except DataError:
        raise DataError(path, "sengoku fmt produced TOML that does not parse (a bug in fmt); "
                        "file left as it was") from None
    if _meaning(again) != _meaning(data):
        raise DataError(path, "sengoku fmt would change this deck's content (a bug in fmt); "
                        "file left as it was")
    if crlf:
        out = out.replace("\n", "\r\n")
    if bom:
        out = "\ufeff" + out
    return FmtResult(path=path, original=text, formatted=out, notes=notes)


def read_text(path: Path | str) -> str:
    """Read a decklist file as text, a byte-order mark kept (it is written back); raise DataError
    when it cannot be read, is over the 1 MB decklist limit or is not UTF-8."""
    return read_text_input(path, DECKLIST_BYTES, missing="no such file", keep_bom=True)[0]


def atomic_write_text(path: Path | str, text: str) -> None:
    """Write `text` (UTF-8, newlines as given) so that `path` holds either the old or the new
    content, never a part: a temporary file in the same folder, synced, then `os.replace`."""
    target = Path(os.path.realpath(path))  # write through a symlink, do not replace it
    try:
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as exc:
        raise DataError(path, f"cannot write: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(text.encode("utf-8"))
            f.flush()
            os.fsync(f.fileno())
        if target.exists():
            os.chmod(tmp, target.stat().st_mode & 0o7777)
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, target)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        if isinstance(exc, OSError):
            raise DataError(path, f"cannot write: {exc.strerror or exc}; file left as it was") from None
        raise


def fmt_decklist(path: Path | str, *, check: bool = False, db: Path | str | None = None) -> FmtResult:
    """Format one decklist file in place (atomically), or with `check` only report what would change."""
    text = read_text(path)
    result = canonical_decklist(text, path=str(path), db=db)
    if result.changed and not check:
        atomic_write_text(path, result.formatted)
    return result
