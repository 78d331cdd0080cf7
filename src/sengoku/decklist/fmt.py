"""`sengoku fmt`: rewrite a decklist in canonical form, keeping its comments.

Canonical form:
- top-level keys first, in the order name, game, mode, format, then the others as found;
- sections in the game's order (SENGOKU YUGI: main, nameless, familiars), then any others;
- entries of a section sorted by kind (Main, Support, Nameless, Familiar), level, name,
  epithet, id -- the kind comes from the card database, as an entry gives only a name;
- entries naming the same card (same keys after Unicode/case/space normalisation) merged,
  their counts summed (the validator would count them together anyway, D3), unless the sum
  would pass the game's largest count;
- keys of an entry in the order id, name, level, epithet, count, then the others as found;
- values written the way tomli-w writes them; a blank line between blocks.

Comments: a comment line belongs to the key or `[[section]]` header right below it and moves
with it; a comment after a value stays after it; the comment block at the top of the file
(up to its first blank line) stays at the top; comments at the end stay at the end. Comments
TOML keeps inside arrays or inline tables cannot be placed and are reported, never dropped
silently. Formatting is idempotent: formatting canonical text changes nothing.

This module ties the steps together; each has its own module: `tomldoc` (the text as a
document that keeps comments), `canonical` (merging and order), `render` (TOML text out).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tomlkit

from sengoku.carddb.load import read_json
from sengoku.decklist.canonical import DEFAULT_SECTIONS, CardOrder, meaning, merge
from sengoku.decklist.model import GAME_DEFAULT
from sengoku.decklist.read import not_a_decklist
from sengoku.decklist.render import emit
from sengoku.decklist.tomldoc import assemble, document_events, lost_comments, table_chunks
from sengoku.errors import DataError
from sengoku.files import DECKLIST_BYTES, Original, loads_toml, read_for_rewrite
from sengoku.games import DEFAULT_MAX_COUNT, bundled_games, default_db_folder
from sengoku.paths import default_card_db
from sengoku.writes import refuse_special, write_atomically


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


def _parse(text: str, path: str | None) -> Any:
    try:
        return loads_toml(text, path)
    except DataError as exc:
        raise DataError(path, f"{exc.message}; file left as it was", exc.line, exc.column) from None


def game_context(game: str, db: Path | str | None = None) -> tuple[tuple[str, ...], list[dict[str, Any]] | None, list[str]]:
    """Return a game's canonical section order, its raw cards (None if unreadable), and notes."""
    notes: list[str] = []
    sections: tuple[str, ...] = DEFAULT_SECTIONS if game == GAME_DEFAULT else ()
    folder: Path | None = Path(db) if db is not None else None
    try:
        known = bundled_games()
        if game in known:
            sections = known[game].sections
            if folder is None:
                folder = default_db_folder(game)
    except DataError as exc:
        notes.append(f"game rule files unreadable ({exc}); using the default section order")
    if folder is None and game == GAME_DEFAULT:
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


def _max_count(game: object) -> int:
    """Return the largest count one entry of `game` may hold (the validator's `syntax` limit)."""
    try:
        known = bundled_games()
    except DataError:
        return DEFAULT_MAX_COUNT
    return known[game].max_count if isinstance(game, str) and game in known else DEFAULT_MAX_COUNT


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
    bom = text.startswith("\ufeff")
    body = text[1:] if bom else text
    crlf = "\r\n" in body
    if crlf:
        body = body.replace("\r\n", "\n")
    data = _parse(body, path)
    reason = not_a_decklist(data)
    if reason is not None:  # `pyproject.toml` and its kind: not ours to rewrite
        raise DataError(path, f"{reason}; refused, left as it was")
    notes: list[str] = []
    if sections is None or cards is None:
        game = data.get("game", GAME_DEFAULT)
        game_sections, game_cards, ctx_notes = game_context(game if isinstance(game, str) else GAME_DEFAULT, db)
        sections = game_sections if sections is None else sections
        cards = game_cards if cards is None else cards
        notes += ctx_notes
    try:
        events = [ev for chunk in table_chunks(body) for ev in document_events(tomlkit.parse(chunk))]
    except Exception:  # a chunk tomlkit will not take alone: read the whole document
        try:
            events = document_events(tomlkit.parse(body))
        except Exception as exc:  # tomlkit disagrees with tomllib on some rare input
            raise DataError(path, f"cannot format this file's TOML ({exc}); file left as it was") from None
    doc = assemble(events)
    doc.entries, merge_notes = merge(doc.entries, _max_count(data.get("game", GAME_DEFAULT)))
    notes += merge_notes
    out, emitted = emit(doc, sections, CardOrder(cards, data.get("game", GAME_DEFAULT)))
    for line, comment in lost_comments(body, emitted):
        notes.append(f"line {line}: comment could not be kept (it sits inside an array or inline table): {comment}")

    # A formatter must never change what the deck says, nor write TOML that does not parse.
    try:
        again = _parse(out, path)
    except DataError:
        raise DataError(path, "sengoku fmt produced TOML that does not parse (a bug in fmt); "
                        "file left as it was") from None
    if meaning(again) != meaning(data):
        raise DataError(path, "sengoku fmt would change this deck's content (a bug in fmt); "
                        "file left as it was")
    if crlf:
        out = out.replace("\n", "\r\n")
    if bom:
        out = "\ufeff" + out
    return FmtResult(path=path, original=text, formatted=out, notes=notes)


def read_text(path: Path | str) -> tuple[str, Original]:
    """Read a decklist file as text, a byte-order mark kept (it is written back), and what it was
    (written back only if unchanged); raise DataError when it cannot be read, is over the 1 MB
    decklist limit or is not UTF-8."""
    return read_for_rewrite(path, DECKLIST_BYTES, missing="no such file", keep_bom=True)


def fmt_decklist(path: Path | str, *, check: bool = False, db: Path | str | None = None) -> FmtResult:
    """Format one decklist file in place, or with `check` only report what would change.

    Only a regular decklist file is rewritten, atomically, its mode kept (`sengoku.writes`); a
    FIFO, a device, a read-only file, a TOML file that is not a decklist, or a file changed
    (saved by someone else) while it was being formatted, raises DataError and is left as it is.
    """
    if not check:
        refuse_special(path)  # a FIFO or device: refused before it is read, never replaced
    text, original = read_text(path)
    result = canonical_decklist(text, path=str(path), db=db)
    if result.changed and not check:
        write_atomically(path, result.formatted, replace=True, original=original)
    return result
