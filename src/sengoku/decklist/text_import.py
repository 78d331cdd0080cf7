"""Turn a plain-text SENGOKU YUGI decklist into decklist TOML (`sengoku import`).

Accepted lines (case and spacing do not matter):
- a card: `3 Soma Lv2`, `3x Soma (Lv 2)`, `3 x Soma Level 2`, `Soma Lv2 x3`, `1 Benkei Lv3 "Pilgrim of
  Mount Hiei"` (an epithet in quotes, or after ` - ` or `, `), `2 SY1-004` (a card id); no count
  means one copy;
- a section header: `Main:`, `Main Deck (52):`, `Nameless:`, `Familiars:`, `[familiars]`, ...;
- a comment: `# ...` or `// ...` (kept as a comment above the next card), and blank lines.

Every other line, and every card the database does not know (with the closest names), is a
problem with its line number: nothing is dropped silently. Cards go to the section their kind
belongs in (D8), whatever header they were listed under; a move is noted.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sengoku.carddb.index import CardIndex, same_epithet
from sengoku.carddb.names import fold
from sengoku.decklist.fmt import canonical_decklist
from sengoku.decklist.render import render_value
from sengoku.decklist.model import DeckEntry, Decklist
from sengoku.display import hidden_characters, printable, quoted
from sengoku.errors import DataError
from sengoku.files import DECKLIST_BYTES, Original, read_for_rewrite

MAX_COUNT = 99  # more copies than this is a typo, not a deck
MODES = ("auto", "standard", "ultimate")

# header word -> section (D1, D2, D5: Main/Support cards in main, Nameless, Familiar Deck)
SECTION_ALIASES = {
    "main": "main", "main deck": "main", "character deck": "main", "characters": "main",
    "character": "main", "deck": "main", "main/support": "main", "support": "main",
    "nameless": "nameless", "nameless cards": "nameless",
    "familiars": "familiars", "familiar": "familiars", "familiar deck": "familiars",
    "familiar cards": "familiars",
}
KIND_SECTION = {"main": "main", "support": "main", "nameless": "nameless", "familiar": "familiars"}

_HEADER = re.compile(r"^\[\s*(?P<b>[^\]]+?)\s*\]$|^(?P<c>[^\d\W][\w /-]*?)\s*(?:\(\s*\d+\s*\))?\s*:?$")
_COUNT_PREFIX = re.compile(r"^(?P<n>\d+)(?:\s*[xX×*](?=\s)|[xX×*])?\s*(?P<rest>\S.*)$")
_COUNT_SUFFIX = re.compile(r"^(?P<rest>.*?\S)(?:\s+[xX×*]\s*(?P<n>\d+)|\s*\(\s*[xX×]?\s*(?P<m>\d+)\s*\))$")
_LEVEL = re.compile(r"[(\[]?\s*\b(?:lv|lvl|level)\s*\.?\s*(?P<lv>\d+)\s*[)\]]?", re.IGNORECASE)
_QUOTED = re.compile(r"[\"“「『](?P<e>[^\"”」』]+)[\"”」』]")
_PAREN = re.compile(r"\((?P<e>[^()]*[^\W\d][^()]*)\)")
_SEPARATOR = re.compile(r"\s+[-–—]\s+|,\s*")
_ID = re.compile(r"^[A-Za-z0-9]+-[A-Za-z0-9]+$")
# a level at the end of an unknown name, as `L3`, `Lv-3` or a bare `3`: only to keep it in a suggestion
_LOOSE_LEVEL = re.compile(r"^(?P<name>.*?[^\W\d_])\W*\s*(?:l|lv|lvl|level)?\W*(?P<lv>\d+)$", re.IGNORECASE)


@dataclass(frozen=True)
class ImportProblem:
    """A line that could not be imported, and why."""

    line: int
    text: str
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}: {quoted(self.text.strip())}"


@dataclass
class ImportResult:
    """The imported decklist, its TOML, and the lines that could not be imported."""

    deck: Decklist
    toml: str
    problems: list[ImportProblem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


@dataclass
class _Parsed:
    count: int
    name: str
    level: int | None
    epithet: str | None


def strip_comment(line: str) -> tuple[str, str | None]:
    """Split a line into its content and a trailing `#`/`//` comment (not inside quotes)."""
    quote = None
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = None
        elif ch == '"':
            quote = ch
        elif ch == "#" or line.startswith("//", i):
            return line[:i].rstrip(), line[i:].lstrip("#/ ").rstrip() or None
    return line.rstrip(), None


def parse_card_line(text: str) -> _Parsed | str:
    """Parse '3x Soma (Lv 2)' and its variants; return the parts, or why the line is no card."""
    text = " ".join(text.split())
    count: int | None = None
    m = _COUNT_PREFIX.match(text)
    if m:
        count, text = int(m.group("n")), m.group("rest")
    else:
        m = _COUNT_SUFFIX.match(text)
        if m:
            count, text = int(m.group("n") or m.group("m")), m.group("rest")
    level = None
    levels = list(_LEVEL.finditer(text))
    if levels:
        last = levels[-1]
        level = int(last.group("lv"))
        text = (text[:last.start()] + " " + text[last.end():]).strip()
    epithet = None
    m = _QUOTED.search(text) or _PAREN.search(text)
    if m:
        epithet = m.group("e").strip()
        text = (text[:m.start()] + " " + text[m.end():]).strip()
    else:
        parts = _SEPARATOR.split(text, maxsplit=1)
        if len(parts) == 2 and parts[1].strip():
            text, epithet = parts[0].strip(), parts[1].strip()
    text = text.strip(" -–—,:;")
    if not re.search(r"[^\W\d_]", text):
        return "not a card line (expected e.g. `3 Soma Lv2`)"
    if count is not None and count < 1:
        return f"a count of {count}: list only cards the deck holds"
    if count is not None and count > MAX_COUNT:
        return f"a count of {count} is not a deck's (at most {MAX_COUNT})"
    return _Parsed(count if count is not None else 1, text, level, epithet)


class _Index(CardIndex):
    """The cards a plain-text line may name: those with an id and a name."""

    def __init__(self, cards: Iterable[Mapping[str, Any]]):
        super().__init__(c for c in cards if isinstance(c.get("id"), str) and isinstance(c.get("name"), str))

    def suggest(self, p: _Parsed) -> str:
        """Return "; did you mean ...?" with the closest names, each with the line's level when it has that level.

        A level the line spells in a way the parser does not read (`Kagetora L3`) is taken from the end of
        the name when the rest names a card or is close to one, so the suggestion keeps it (`Kagetora Lv3`).
        """
        name, level = p.name, p.level
        loose = _LOOSE_LEVEL.match(name) if level is None else None
        if loose and (self.named(loose.group("name")) or self.close_names(loose.group("name"))):
            name, level = loose.group("name"), int(loose.group("lv"))
        close = [self.named(name)] if self.named(name) else self.close_names(name)
        shown = [f"{cards[-1]['name']} Lv{level}" if any(c.get("level") == level for c in cards)
                 else cards[-1]["name"] for cards in close]
        return f"; did you mean {' or '.join(repr(n) for n in shown)}?" if shown else ""

    def resolve(self, p: _Parsed) -> Mapping[str, Any] | str:
        """Return the card a parsed line names, or why it names none or several."""
        by_id = self.with_id(p.name)
        if _ID.match(p.name) and by_id is not None and p.level is None:
            return by_id
        named = self.named(p.name) or self.with_epithet(p.name)
        if not named:
            return f"no card is named {quoted(p.name)}{self.suggest(p)}"
        found = [c for c in named if p.level is None or c.get("level") == p.level]
        if p.epithet is not None:
            found = [c for c in found if same_epithet(c, p.epithet)]
        if len(found) == 1:
            return found[0]
        show = ", ".join(_show(c) for c in (found or named))
        if not found:
            return f"no card matches {quoted(p.name)}{f' Lv{p.level}' if p.level else ''}" \
                   f"{f' {quoted(p.epithet)}' if p.epithet else ''}; there are: {show}"
        if p.level is None and len({c.get('level') for c in found}) > 1:
            return f"{quoted(p.name)} has several levels; add one, e.g. `{p.count} {found[0]['name']} " \
                   f"Lv{found[0].get('level')}` ({show})"
        return f"{quoted(p.name)} matches {len(found)} cards; add the epithet in quotes ({show})"

    def entry_keys(self, card: Mapping[str, Any]) -> dict[str, Any]:
        """Return the fewest keys that name the card: name, + level if the name has several cards,
        + epithet if name and level still do not tell it apart."""
        same_name = self.named(card["name"])
        keys: dict[str, Any] = {"name": card["name"]}
        if len(same_name) > 1:
            keys["level"] = card.get("level")
            same_level = [c for c in same_name if c.get("level") == card.get("level")]
            if len(same_level) > 1:
                keys["epithet"] = card.get("epithet")
        return keys


def _show(card: Mapping[str, Any]) -> str:
    return f"{card['name']} Lv{card.get('level')} \"{card.get('epithet', '')}\" [{card['id']}]"


def import_text(
    text: str,
    cards: Iterable[Mapping[str, Any]],
    *,
    mode: str = "auto",
    name: str | None = None,
    source: str | None = None,
) -> ImportResult:
    """Import a plain-text decklist against raw card fields; return the deck, its TOML and problems.

    `mode` "auto" picks Ultimate when the list holds familiars, else Standard.
    """
    if mode not in MODES:
        raise DataError(source, f"unknown mode {mode!r} (choose from {', '.join(MODES)})")
    index = _Index(cards)
    problems: list[ImportProblem] = []
    notes: list[str] = []
    entries: list[tuple[DeckEntry, list[str], Mapping[str, Any]]] = []
    header: str | None = None  # section named by the last header; None before any header
    header_line = 0
    comments: list[str] = []
    top_comments: list[str] | None = None  # comments before the first card: the file's header
    unknown_header = False
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line, comment = strip_comment(raw.lstrip("\ufeff"))
        if comment:
            comment = _visible_comment(comment, lineno, notes)
        line = line.strip()
        if not line:
            if comment:
                comments.append(comment)
            continue
        h = _HEADER.match(line)
        if h and (line.endswith(":") or line.startswith("[") or fold(h.group("b") or h.group("c")) in SECTION_ALIASES):
            word = fold(h.group("b") or h.group("c"))
            if word in SECTION_ALIASES:
                header, header_line, unknown_header = SECTION_ALIASES[word], lineno, False
                if comment:
                    comments.append(comment)
                continue
            if line.endswith(":") or line.startswith("["):
                problems.append(ImportProblem(lineno, raw, "unknown section header (known: Main, Nameless, "
                                              "Familiars; the cards below it are not imported)"))
                unknown_header = True
                continue
        parsed = parse_card_line(line)
        if isinstance(parsed, str):
            problems.append(ImportProblem(lineno, raw, parsed))
            continue
        if unknown_header:
            problems.append(ImportProblem(lineno, raw, "listed under an unknown section header"))
            continue
        card = index.resolve(parsed)
        if isinstance(card, str):
            problems.append(ImportProblem(lineno, raw, card))
            continue
        section = KIND_SECTION.get(card.get("kind", ""), header or "main")
        if header is not None and section != header:
            notes.append(f"line {lineno}: {_show(card)} is a {card.get('kind')} card, so it goes in "
                         f"[[{section}]], not under the header on line {header_line} (D8)")
        keys = index.entry_keys(card)
        entry = DeckEntry(section=section, count=parsed.count, name=keys["name"], level=keys.get("level"),
                          epithet=keys.get("epithet"), line=lineno)
        if top_comments is None:
            top_comments, comments = comments, []
        entries.append((entry, comments + ([comment] if comment else []), card))
        comments = []

    if not entries and not problems:  # an empty list is a mistake, not an empty deck to write
        problems.append(ImportProblem(1, "", "no card lines found (expected lines like `3 Soma Lv2`)"))
    has_familiars = any(e.section == "familiars" for e, _, _ in entries)
    chosen = ("ultimate" if has_familiars else "standard") if mode == "auto" else mode
    if chosen == "standard" and has_familiars:
        notes.append("Standard Mode uses no Familiar Deck: the validator will warn that the familiars are ignored (D7)")
    deck = Decklist(entries=[e for e, _, _ in entries], name=name, mode=chosen, path=source)

    # The source's file name is the user's, not ours: one holding a newline or another character
    # that is not printable is written as an escaped TOML string, so it cannot start a TOML line.
    base = Path(source).name if source else ""
    origin = (base if base.isprintable() else render_value(base)) if source else "a text list"
    lines = [f"# Imported by `sengoku import` from {origin}."]
    lines += [f"# {c}" for c in (top_comments or []) + comments]  # before the first card, after the last
    if name is not None:
        lines.append(f"name = {render_value(name)}")
    lines.append(f"mode = {render_value(chosen)}")
    for entry, before, _ in entries:
        lines.append("")
        lines += [f"# {c}" for c in before]
        lines.append(f"[[{entry.section}]]")
        for key in ("name", "level", "epithet", "count"):
            value = getattr(entry, key)
            if value is not None:
                lines.append(f"{key} = {render_value(value)}")
    result = canonical_decklist("\n".join(lines) + "\n", path=source, cards=index.cards,
                                sections=("main", "nameless", "familiars"))
    notes += result.notes
    return ImportResult(deck=deck, toml=result.formatted, problems=problems, notes=notes)


def _visible_comment(comment: str, lineno: int, notes: list[str]) -> str:
    """Return a comment to copy into the TOML with its hidden characters (a bidi override or
    isolate that would show the TOML's text other than it is, a zero-width mark, a control
    character) escaped as `\\u202e`; each escape is noted with its line."""
    hidden = hidden_characters(comment, allowed="\t")
    if not hidden:
        return comment
    codes = ", ".join(f"U+{ord(c):04X}" for c in hidden)
    notes.append(f"line {lineno}: hidden characters in the comment ({codes}) are written as escapes "
                 f"such as {printable(hidden[0])}")
    return "".join(printable(c) if c in hidden else c for c in comment)


def read_text_list(path: Path | str) -> tuple[str, Original]:
    """Read a text decklist, and what it was (for a write back onto it: `import -o` the same file);
    raise DataError when it is missing, too big, binary or not UTF-8."""
    text, original = read_for_rewrite(path, DECKLIST_BYTES, missing="no such file")
    if "\x00" in text:
        raise DataError(path, "a binary file, not a text decklist")
    return text, original
