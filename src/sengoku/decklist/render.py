"""Write a decklist `Doc` back as TOML text in canonical order, values as tomli-w writes them."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import tomli_w

from sengoku.display import hidden_characters
from sengoku.decklist.canonical import ENTRY_KEY_ORDER, TOP_KEY_ORDER, CardOrder, ordered
from sengoku.decklist.tomldoc import Doc, Key

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def render_key(key: str) -> str:
    """Return a TOML key: bare when it can be, else quoted."""
    return key if _BARE_KEY.fullmatch(key) else render_value(key)


def render_value(value: Any) -> str:
    """Return a TOML value on one line, as tomli-w writes it (tables inline)."""
    if isinstance(value, dict):
        if not value:
            return "{}"
        return "{ " + ", ".join(f"{render_key(k)} = {render_value(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(render_value(v) for v in value) + "]"
    text = tomli_w.dumps({"v": value})[len("v = "):].rstrip("\n")
    if isinstance(value, str) and not value.isprintable():
        text = _escape_hidden(text)
    return text


def _escape_hidden(text: str) -> str:
    """Spell each hidden character of a TOML string (a bidi override, a zero-width mark) as an
    escape: the same value, but nothing in the file shows other than what it holds. A lone
    surrogate has no TOML escape and is left for the write to refuse."""
    for char in hidden_characters(text, allowed="\t"):  # a tab is plain to see, and TOML takes it raw
        code = ord(char)
        if 0xD800 <= code <= 0xDFFF:
            continue
        text = text.replace(char, f"\\u{code:04X}" if code <= 0xFFFF else f"\\U{code:08X}")
    return text


def _key_lines(k: Key, emitted: list[str]) -> list[str]:
    emitted.extend(k.leading)
    line = f"{render_key(k.key)} = {render_value(k.value)}"
    if k.trailing:
        emitted.append(k.trailing)
        line += f"  {k.trailing}"
    return [*k.leading, line]



def emit(doc: Doc, sections: Sequence[str], cards: CardOrder) -> tuple[str, list[str]]:
    emitted: list[str] = []
    blocks: list[list[str]] = []
    top: list[str] = []
    for k in ordered(doc.top, TOP_KEY_ORDER):
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
            for k in ordered(entry.keys, ENTRY_KEY_ORDER):
                lines += _key_lines(k, emitted)
            emitted += entry.tail
            blocks.append(lines + entry.tail)
    if doc.footer:
        blocks.append(list(doc.footer))
        emitted += doc.footer
    return "\n\n".join("\n".join(b) for b in blocks) + "\n", emitted

