"""Show text from untrusted files on one line, as it is, with nothing hidden in it.

Card names, decklist entries and file names come from strangers. Raw, an ESC could recolour
or rewrite the reader's terminal, a bidi override could show a name backwards, a newline would
split a one-line report, a NUL or a lone surrogate (a file name that is not UTF-8) cannot be
written to a UTF-8 stream or an XML file at all. Every reporter shows such text through
`printable`, which escapes those characters as Python's repr() would (`\\x1b`, `\\u202e`).
"""

from __future__ import annotations

import json
import os
import re
import unicodedata
from pathlib import Path
from typing import Any

# Unicode categories never shown raw: controls, format characters (bidi overrides, zero-width
# marks), line and paragraph separators, surrogates, unassigned code points.
HIDDEN = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs", "Cn"})


def printable(text: str) -> str:
    """Return `text` with every control, format, separator and surrogate character escaped."""
    if text.isprintable():
        return text
    return "".join(repr(c)[1:-1] if unicodedata.category(c) in HIDDEN else c for c in text)


def clipped(text: str, limit: int = 80) -> str:
    """Return `text`, or when longer than `limit` its start and its length: a string from a file
    is shown whole in no message (an 8 MB name would make every report that wraps it crawl)."""
    if len(text) <= limit:
        return text
    return f"{text[:limit - 20]}… ({len(text):,} characters)"


def quoted(text: str, limit: int = 80) -> str:
    """Return repr(`text`), or when longer than `limit` the repr of its start and its length."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit - 20]!r}… ({len(text):,} characters)"


# Markdown: every ASCII punctuation mark that means markup inside a line is backslash-escaped
# (emphasis, links, raw HTML, entities, table pipes, math, strikethrough, and `#`, which a
# heading would drop from the end of its text). Text goes after a line's own start (a table cell,
# a list item, a heading), so `-`, `+` and digits start no block, and `(` only makes a link after
# a `]`, which is escaped. `.` and `:` are escaped too: GitHub's autolink extension makes a link
# of `www.` plus a domain and of `http:`, `https:`, `ftp:`, `mailto:`, `xmpp:` plus the rest,
# but not of `www\.` or `http\:`, which render as the same text.
_MARKDOWN_MARKUP = re.compile(r"([\\`*_\[\]<>!|~&$@.:#])")
# An e-mail address is linked from the rendered text, escapes or not (`a\@b\.com` is still a
# link), and GitHub links `@name` to a user: a WORD JOINER after `@`, a character with no width
# and no glyph, leaves no address or name to link while the text reads the same.
WORD_JOINER = "\u2060"


def markdown_text(text: str) -> str:
    """Return stranger's text as GitHub-flavoured Markdown that renders it literally, on one line.

    `printable` first (nothing hidden, no line break), then no markup, HTML, link or autolink
    can come out of it: the rendered text is `printable(text)`, with a WORD JOINER after each `@`.
    """
    escaped = _MARKDOWN_MARKUP.sub(r"\\\1", printable(text))
    return escaped.replace("@", "@" + WORD_JOINER) if "@" in escaped else escaped


def printable_lines(text: str) -> str:
    """Return `printable` of each line of a message that is meant to have several lines."""
    return "\n".join(printable(line) for line in text.split("\n"))


def hidden_characters(text: str, allowed: str = "") -> list[str]:
    """Return the characters of `text` that `printable` would escape (less `allowed`), each once."""
    if text.isprintable():
        return []
    return list(dict.fromkeys(c for c in text if c not in allowed and unicodedata.category(c) in HIDDEN))


def display_path(path: Path | str) -> str:
    """Return a file name as text that any UTF-8 stream can hold: bytes that are not UTF-8 as `\\xff`."""
    name = os.fspath(path)
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:  # os.fsdecode() turned undecodable bytes into lone surrogates
        name = name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return name


# json.dumps escapes the ASCII controls itself; what it leaves raw is DEL and beyond ASCII.
_PAST_ASCII = re.compile(r"[^\x00-\x7e]")


def _json_escape(match: re.Match[str]) -> str:
    char = match.group()
    if unicodedata.category(char) not in HIDDEN:
        return char
    code = ord(char)
    if code > 0xFFFF:  # as a UTF-16 surrogate pair, the way JSON spells it
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def json_text(value: Any, **options: Any) -> str:
    """Return `value` as JSON (`json.dumps` options) with every hidden character as a \\u escape.

    Lossless, as any JSON string may spell a character that way, yet nothing hidden reaches a
    terminal that shows the document, and a lone surrogate (a file name that is not UTF-8) no
    longer stops a UTF-8 stream half-way through it.
    """
    text = json.dumps(value, ensure_ascii=False, **options)
    return text if text.isascii() and "\x7f" not in text else _PAST_ASCII.sub(_json_escape, text)


def json_number(x: float) -> float:
    """Return `x` for a JSON report: -0.0 (a rounded tiny negative, or 0 times -1) as 0.0, the same number."""
    return x + 0.0 if x == 0 else x


def json_ready(value: Any) -> Any:
    """Return a report's JSON value with every -0.0 as 0.0 (`json_number`), through lists and objects: what
    every `to_json` of goldfish, compare and tune writes, so no report shows a signed zero."""
    if isinstance(value, float):
        return json_number(value)
    if isinstance(value, dict):
        return {k: json_ready(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_ready(v) for v in value]
    return value
