"""Read a decklist file: bytes -> TOML values (`tomllib`) -> checked entries with their lines.

Problems with the file itself (not UTF-8, not TOML, wrong types, unknown keys, absurd counts)
are `syntax` violations, never exceptions: a tournament organiser wants all of them, pointing
at the line. Only a file that cannot be read at all (missing, a folder, no permission, over the
1 MB limit) raises `DataError`. The decklist shape is checked here by hand rather than with the JSON Schema in
`schemas/decklist.schema.json` (kept for editors): it is many times faster, which the
1,000-deck benchmark needs, and its messages name the key and the line.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from sengoku.decklist.model import DeckEntry, Decklist
from sengoku.decklist.scan import Layout, Pos, Table, scan
from sengoku.display import clipped, display_path
from sengoku.errors import DataError
from sengoku.files import DECKLIST_BYTES, decode_text, loads_toml, read_file
from sengoku.games import COMMON_KEYS, DEFAULT_GAME, Game, KeySpec, bundled_games
from sengoku.problems import Problem

SYNTAX = "syntax"
NOT_A_DECKLIST = "not-a-decklist"  # another TOML file (`pyproject.toml`): skipped, not checked
MAX_BYTES = DECKLIST_BYTES  # a decklist is a few KB; anything this big is not one (and is not parsed)
ENTRY_KEYS = ("name", "id", "level", "epithet", "count")
MAX_LEVEL = 99
# The longest string each key may hold, in characters: a report shows these, and wrapping an
# absurd one (megabytes) takes minutes. As generous as the card database's own limits.
MAX_CHARS = {"name": 120, "id": 100, "epithet": 200}
MAX_DECK_CHARS = {"name": 200, "format": 100}  # the deck's own name; a format's name
MAX_KEY_CHARS = 200  # a string value of a game's own key (e.g. a player's name)


class DecklistSyntaxError(DataError):
    """A decklist file that is not a well-formed decklist; carries every `syntax` violation."""

    def __init__(self, path: Path | str | None, violations: list[Problem], decklist: Decklist):
        first = violations[0]
        more = f" (and {len(violations) - 1} more problem(s))" if len(violations) > 1 else ""
        super().__init__(path, first.message + more, first.line, first.column)
        self.violations = violations
        self.decklist = decklist


def _bundled() -> Mapping[str, Game]:

    return bundled_games()


def read_decklist(path: Path | str, games: Mapping[str, Game] | None = None) -> tuple[Decklist, list[Problem]]:
    """Read a decklist file; return it (the well-formed entries) and its `syntax` violations.

    Raise DataError only when the file cannot be read at all.
    """
    p = Path(path)
    data = read_file(p, MAX_BYTES, missing="no such decklist file")
    return parse_decklist(data, display_path(p), games)  # a name that is not UTF-8 shown as \xff


def not_a_decklist(doc: Mapping[str, Any], games: Mapping[str, Game] | None = None) -> str | None:
    """Return why parsed TOML is some other file, not a decklist at all; None when it may be one.

    The one test `validate` (which skips such a file with a note) and `fmt` (which refuses to
    rewrite it) share. A decklist, however broken, has a key that a decklist of some game may
    hold (`game`, `name`, `format`, a game's own key such as `mode`, or a section), or an array
    of tables holding only entry keys (a misspelt section, `[[mian]]`). A file with top-level
    keys and neither, like `pyproject.toml` or `Cargo.toml`, is not one; nor are sengoku's own
    game rule files and tournament format files. An empty file is still a broken decklist.
    """
    if not doc:
        return None
    sections: set[str] = set()
    known = set(COMMON_KEYS)
    for game in (games if games is not None else _bundled()).values():
        sections.update(game.sections)
        known.update(game.keys)
    # sengoku's own other TOML files share `game` and `name` with decklists; their own keys tell them apart
    if "sections" not in sections and isinstance(doc.get("sections"), list) and "rules" in doc:
        return "not a decklist: a game rule file (it has `sections` and `rules`)"
    if "lists" not in sections and isinstance(doc.get("lists"), list) and "title" in doc:
        return "not a decklist: a tournament format file (it has `title` and `[[lists]]`)"
    if (known | sections).intersection(doc):
        return None
    for value in doc.values():
        if isinstance(value, list) and any(isinstance(t, dict) and t and set(t) <= set(ENTRY_KEYS) for t in value):
            return None
    keys = ", ".join(repr(k) for k in sorted(doc)[:4]) + (", ..." if len(doc) > 4 else "")
    return f"not a decklist: no top-level key of a decklist (it has {keys})"


def load_decklist(path: Path | str) -> Decklist:
    """Read a decklist file; raise `DecklistSyntaxError` (a DataError) if it is not well-formed."""
    deck, violations = read_decklist(path)
    if violations:
        raise DecklistSyntaxError(path, violations, deck)
    return deck


def _v(message: str, pos: Pos | None) -> Problem:
    line, column = pos if pos is not None else (None, None)
    return Problem(rule=SYNTAX, severity="error", message=message, line=line, column=column)


def parse_decklist(
    data: bytes | str, path: str | None = None, games: Mapping[str, Game] | None = None
) -> tuple[Decklist, list[Problem]]:
    """Parse decklist text; return the decklist (well-formed entries only) and `syntax` violations.

    The violations also stay on the decklist (`Decklist.syntax`): a deck handed on alone is
    still refused by whatever checks it.
    """
    deck, problems = _parse(data, path, games)
    deck.syntax = list(problems)
    return deck, problems


def _parse(data: bytes | str, path: str | None, games: Mapping[str, Game] | None) -> tuple[Decklist, list[Problem]]:
    deck = Decklist(path=path)
    if isinstance(data, bytes):
        if len(data) > MAX_BYTES:
            return deck, [_v(f"the file is {len(data) / 1e6:.1f} MB; a decklist is at most "
                             f"{MAX_BYTES // 1_000_000} MB (not read)", (1, 1))]
        try:  # a byte-order mark (some Windows editors write one) is harmless, so accepted
            text = decode_text(data, path)
        except DataError as exc:
            return deck, [_v(exc.message, (exc.line or 1, exc.column or 1))]
    else:
        text = data[1:] if data.startswith("\ufeff") else data
    try:
        doc = loads_toml(text, path)
    except DataError as exc:  # not TOML, nested too deeply, a number past Python's digit limit
        return deck, [_v(exc.message, (exc.line or 1, exc.column or 1))]
    if not doc:
        return deck, [_v("the file holds no decklist (no keys, no sections)", (1, 1))]
    reason = not_a_decklist(doc, games)
    if reason is not None:
        return deck, [Problem(NOT_A_DECKLIST, "error", reason, 1, 1)]
    layout = scan(text)
    deck.positions = dict(layout.keys)
    for section, tables in layout.tables.items():
        if tables:
            deck.positions.setdefault(section, tables[0].pos)
    return deck, _read_doc(doc, deck, layout, games if games is not None else _bundled())


def _type_name(value: Any) -> str:
    return {bool: "a boolean", int: "an integer", float: "a number with a fraction", str: "a string",
            list: "an array", dict: "a table"}.get(type(value), type(value).__name__)


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"  # as written in TOML
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _too_long(key: str, value: str, limit: int) -> str:
    return f"`{key}` is too long: {len(value):,} characters, at most {limit} (it starts {value[:40]!r})"


def _suggest(word: str, choices: list[str]) -> str:
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return f"; did you mean `{close[0]}`?" if close else ""


def _read_doc(doc: dict[str, Any], deck: Decklist, layout: Layout, games: Mapping[str, Game]) -> list[Problem]:
    problems: list[Problem] = []
    pos = layout.keys.get
    game_id = doc.get("game", DEFAULT_GAME)
    if not isinstance(game_id, str) or game_id not in games:
        known = ", ".join(games)
        problems.append(_v(f"`game` must name a known game ({known}), not {_show(game_id)}", pos("game")))
        return problems
    game = games[game_id]
    deck.game = game_id
    for key in ("name", "format"):
        if key in doc:
            if not isinstance(doc[key], str):
                problems.append(_v(f"`{key}` must be a string, not {_type_name(doc[key])}", pos(key)))
            elif len(doc[key]) > MAX_DECK_CHARS[key]:
                problems.append(_v(_too_long(key, doc[key], MAX_DECK_CHARS[key]), pos(key)))
            else:
                setattr(deck, key, doc[key])
    for key, spec in game.keys.items():
        if key not in doc:
            if spec.required:
                problems.append(_v(f"a {game.title} decklist needs a top-level `{key}` "
                                   f"({spec.description or spec.type})", (1, 1)))
            elif spec.default is not None:
                _set_key(deck, key, spec.default)
            continue
        value, problem = _check_key(spec, doc[key])
        if problem:
            problems.append(_v(problem, pos(key)))
        else:
            _set_key(deck, key, value)
    allowed = [*COMMON_KEYS, *game.keys, *game.sections]
    for key, value in doc.items():
        if key in allowed and key not in game.sections:
            continue
        if key not in game.sections:
            where = pos(key) or layout.where(key)
            problems.append(_v(f"unknown key `{clipped(key)}` in a {game.title} decklist "
                               f"(allowed: {', '.join(allowed)}){_suggest(key, allowed)}", where))
            continue
        problems.extend(_read_section(key, value, deck, layout, game))
    return problems


def _set_key(deck: Decklist, key: str, value: Any) -> None:
    if key == "mode":
        deck.mode = value
    else:
        deck.extra[key] = value


def _check_key(spec: KeySpec, value: Any) -> tuple[Any, str | None]:
    """Check a game-declared top-level key; return the (normalised) value or a problem."""
    ok_type = {"string": str, "integer": int, "boolean": bool}.get(spec.type, str)
    if not isinstance(value, ok_type) or (ok_type is int and isinstance(value, bool)):
        return None, f"`{spec.name}` must be {_type_name(ok_type())}, not {_type_name(value)} ({_show(value)})"
    if spec.values:
        if isinstance(value, str):
            # Tolerant: `mode = "Ultimate"` means what it says.
            folded = {str(v).casefold(): v for v in spec.values}
            if value.strip().casefold() in folded:
                return folded[value.strip().casefold()], None
        elif value in spec.values:
            return value, None
        return None, f"`{spec.name}` must be one of {', '.join(map(str, spec.values))}, not {_show(value)}"
    if isinstance(value, str) and len(value) > MAX_KEY_CHARS:
        return None, _too_long(spec.name, value, MAX_KEY_CHARS)
    if isinstance(value, int) and not isinstance(value, bool):
        if (spec.min is not None and value < spec.min) or (spec.max is not None and value > spec.max):
            return None, f"`{spec.name}` must be from {spec.min} to {spec.max}, not {_show(value)}"
    return value, None


def _read_section(section: str, value: Any, deck: Decklist, layout: Layout, game: Game) -> list[Problem]:
    where = layout.where(section)
    if isinstance(value, dict):
        return [_v(f"`{section}` must be an array of tables: write [[{section}]] above each card, "
                   f"not [{section}]", where)]
    if not isinstance(value, list):
        return [_v(f"`{section}` must be an array of tables ([[{section}]]), not {_type_name(value)}", where)]
    problems: list[Problem] = []
    for index, item in enumerate(value):
        table = layout.entry(section, index)
        table_pos = table.pos if table is not None else where
        if not isinstance(item, dict):
            problems.append(_v(f"entry {index + 1} of `{section}` must be a table with name/id and count, "
                               f"not {_type_name(item)}", table_pos))
            continue
        entry, entry_problems = _read_entry(section, item, table_pos, table, game)
        problems.extend(entry_problems)
        if entry is not None:
            deck.entries.append(entry)
    return problems


_ENTRY_KEYS = frozenset(ENTRY_KEYS)


def _read_entry(
    section: str, item: dict[str, Any], table_pos: Pos | None, table: Table | None, game: Game
) -> tuple[DeckEntry | None, list[Problem]]:
    line, column = table_pos if table_pos is not None else (None, None)
    # Fast path: a well-formed entry (the usual case) is checked with a few type tests.
    name, card_id, epithet = item.get("name"), item.get("id"), item.get("epithet")
    level, count = item.get("level"), item.get("count", 1)
    if (
        item.keys() <= _ENTRY_KEYS
        and (name is not None or card_id is not None)
        and (name is None or (type(name) is str and name.strip() and len(name) <= MAX_CHARS["name"]))
        and (card_id is None or (type(card_id) is str and card_id.strip() and len(card_id) <= MAX_CHARS["id"]))
        and (epithet is None or (type(epithet) is str and epithet.strip() and len(epithet) <= MAX_CHARS["epithet"]))
        and (level is None or (type(level) is int and 0 <= level <= MAX_LEVEL))
        and type(count) is int and 1 <= count <= game.max_count
    ):
        return DeckEntry(section=section, count=count, name=name, id=card_id, level=level, epithet=epithet,
                         line=line, column=column), []
    return None, _entry_problems(section, item, table_pos, table, game)


def _entry_problems(
    section: str, item: dict[str, Any], table_pos: Pos | None, table: Table | None, game: Game
) -> list[Problem]:
    """Return every problem of a malformed entry, each at its key's line where the scan found it."""
    problems: list[Problem] = []
    key_pos = table.keys if table is not None else {}

    def bad(key: str, message: str) -> None:
        problems.append(_v(f"[[{section}]] {message}", key_pos.get(key, table_pos)))

    for key in item:
        if key not in ENTRY_KEYS:
            bad(key, f"has an unknown key `{clipped(key)}` (allowed: {', '.join(ENTRY_KEYS)}){_suggest(key, list(ENTRY_KEYS))}")
    for key in ("name", "id", "epithet"):
        if key in item:
            value = item[key]
            if not isinstance(value, str):
                bad(key, f"`{key}` must be a string, not {_type_name(value)} ({_show(value)})")
            elif not value.strip():
                bad(key, f"`{key}` is empty")
            elif len(value) > MAX_CHARS[key]:
                bad(key, _too_long(key, value, MAX_CHARS[key]))
    for key, low, high in (("level", 0, MAX_LEVEL), ("count", 1, game.max_count)):
        if key not in item:
            continue
        value = item[key]
        if isinstance(value, bool) or not isinstance(value, int):
            bad(key, f"`{key}` must be a whole number, not {_type_name(value)} ({_show(value)})")
        elif not low <= value <= high:
            bad(key, f"`{key}` must be from {low} to {high}, not {_show(value)}")
    if "name" not in item and "id" not in item:
        bad("", "names no card: give `name` (with `level`/`epithet` if needed) or `id`")
    return problems
