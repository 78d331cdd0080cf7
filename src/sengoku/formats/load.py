"""Read tournament format files: TOML, checked against `schemas/format.schema.json`.

`read_format_file` returns the format and every structural problem (for `sengoku db check`);
`load_format` and `list_formats` return formats or raise `FormatError` naming the file and line.
"""

from __future__ import annotations

import datetime as dt
import re
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sengoku.files import RULES_BYTES, SCHEMA_BYTES, loads_toml, read_json_file, read_text_input
from sengoku.formats.model import Format, FormatError, FormatList
from sengoku.pass_cache import pass_key, passed_before, remember_pass
from sengoku.paths import default_card_db, schema_path

if TYPE_CHECKING:
    from sengoku.problems import Problem

SCHEMA_FILE = "format.schema.json"
FORMATS_DIR = "formats"

_ANY_KEY = re.compile(r"""^\s*("[^"]*"|'[^']*'|[A-Za-z0-9_-]+)\s*=""")


def formats_dir(db_folder: Path | str | None = None) -> Path:
    """Return the formats folder of a card database (a folder or its cards file; default: the bundled one)."""
    folder = Path(db_folder) if db_folder is not None else default_card_db()
    if folder.is_file() or folder.suffix == ".json":
        folder = folder.parent
    if folder.name == FORMATS_DIR and not (folder / FORMATS_DIR).is_dir():
        return folder
    return folder / FORMATS_DIR


def _code_part(line: str) -> str:
    """Return a TOML line without its comment (a '#' inside a quoted string is not a comment)."""
    quote = None
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
        elif ch == "#":
            return line[:i]
    return line


class Locator:
    """Find the line of a key or value in a format file's text, so problems can point at it."""

    def __init__(self, text: str):
        self._text = text
        self._lines: list[str] | None = None
        self._headers: list[int] | None = None

    # Worked out on the first question: a file without problems is never asked one, and its
    # reader then does not import the TOML line scanner (start-up time of `sengoku formats`).
    @property
    def lines(self) -> list[str]:
        if self._lines is None:
            self._lines = [_code_part(line) for line in self._text.splitlines()]
        return self._lines

    @property
    def headers(self) -> list[int]:
        if self._headers is None:
            from sengoku.decklist.scan import toml_lines  # deferred: see above

            self._headers = [i for i, h in toml_lines(self.lines)
                             if h is not None and h.array and not h.dotted and h.root == "lists"]
        return self._headers

    def line(self, list_index: int | None = None, *, key: str | None = None,
             value: str | None = None) -> int | None:
        """Return the 1-based line of `key = ...`, or of `value` (quoted, or as a key) after that key,
        in list `list_index` (None: the top level); fall back to the list's `[[lists]]` header."""
        if list_index is None:
            start, end = 0, (self.headers[0] if self.headers else len(self.lines))
            fallback = None
        elif list_index < len(self.headers):
            start = self.headers[list_index]
            end = self.headers[list_index + 1] if list_index + 1 < len(self.headers) else len(self.lines)
            fallback = start + 1
        else:
            return None
        lo, hi, k = start, end, None
        if key is not None:
            key_re = re.compile(rf"^\s*(?:{re.escape(key)}|\"{re.escape(key)}\"|'{re.escape(key)}')\s*=")
            k = next((i for i in range(start, end) if key_re.search(self.lines[i])), None)
            if k is not None:
                if value is None:
                    return k + 1
                lo = k
                hi = next((i for i in range(k + 1, end) if _ANY_KEY.search(self.lines[i])), end)
            elif value is None:
                return fallback
        if value is not None:
            bare = re.compile(rf"^\s*{re.escape(value)}\s*=")
            for i in range(lo, hi):
                line = self.lines[i]
                if f'"{value}"' in line or f"'{value}'" in line or bare.search(line):
                    return i + 1
        return k + 1 if k is not None else fallback

    def for_json_path(self, parts: list[Any], data: Any) -> int | None:
        """Return the line for a schema error at `parts` (e.g. ['lists', 1, 'banned', 0])."""
        in_list = len(parts) >= 2 and parts[0] == "lists" and isinstance(parts[1], int)
        if not in_list:
            key = parts[0] if parts else None
            return self.line(None, key=key) if isinstance(key, str) else None
        value: Any = data
        try:
            for part in parts:
                value = value[part]
        except (KeyError, IndexError, TypeError):
            value = None
        key = next((p for p in reversed(parts[2:]) if isinstance(p, str)), None)
        return self.line(parts[1], key=key, value=value if isinstance(value, str) else None)


@lru_cache(maxsize=1)
def _validator() -> Any:
    # deferred: jsonschema's start-up time, paid only when a file is checked
    from jsonschema import Draft202012Validator

    return Draft202012Validator(read_json_file(schema_path(SCHEMA_FILE), SCHEMA_BYTES))


def _json_path(parts: list[Any]) -> str:
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in parts)


def _jsonable(value: Any) -> Any:
    """TOML dates become ISO strings (as JSON Schema and taplo see them); a datetime keeps its time, so it fails."""
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_jsonable(v) for v in value]
    if isinstance(value, (dt.date, dt.time)):  # dt.datetime is a dt.date
        return value.isoformat()
    return value


def read_toml(path: Path) -> tuple[Any, str]:
    """Read a TOML file (at most `RULES_BYTES`); raise FormatError naming the line and column if it
    cannot be read or parsed."""
    text, _ = read_text_input(path, RULES_BYTES, FormatError, missing="no such format file")
    return loads_toml(text, path, FormatError), text


def _problem(**fields: Any) -> Problem:
    from sengoku.problems import Problem  # deferred: a file that loads cleanly needs none (start-up time)

    return Problem(**fields)


def read_format_file(path: Path | str, *, remembered: bool = False) -> tuple[Format | None, list[Problem], Any,
                                                                          Locator | None]:
    """Read one format file: the format (None if unusable), its structural problems, its data, a line locator.

    With `remembered`, a file whose bytes passed the schema check before (`sengoku.pass_cache`) is
    not checked against the schema again, so that listing or applying a format does not import
    jsonschema (start-up time); `sengoku db check` always checks. Raises FormatError only when the
    file cannot be read or parsed as TOML.
    """
    path = Path(path)
    raw, text = read_toml(path)
    data = _jsonable(raw)
    loc = Locator(text)
    where = str(path)
    problems: list[Problem] = []
    key = pass_key(text.encode("utf-8"), schema_path(SCHEMA_FILE)) if remembered else None
    if key is None or not passed_before(key):
        for err in sorted(_validator().iter_errors(data), key=lambda e: list(map(str, e.absolute_path))):
            parts = list(err.absolute_path)
            problems.append(_problem(severity="error", path=where, message=err.message, json_path=_json_path(parts),
                                    rule="schema",
                                    line=loc.for_json_path(parts, data)))
        if problems:
            return None, problems, data, loc
        if key is not None:
            remember_pass(key)

    if data["name"] != path.stem:  # formats are looked up by file name; the two must agree
        problems.append(_problem(severity="error", path=where,
                                message=f"name {data['name']!r} differs from the file name "
                                f"{path.stem!r}; `--format {path.stem}` would find a format named otherwise",
                                json_path="$.name", rule="name", line=loc.line(None, key="name")))
    lists: list[FormatList] = []
    seen: dict[dt.date, int] = {}
    for i, item in enumerate(data["lists"]):
        try:
            effective = dt.date.fromisoformat(item["effective"])
        except ValueError:
            problems.append(_problem(severity="error", path=where,
                                    message=f"effective date {item['effective']!r} is not a real date",
                                    json_path=f"$.lists[{i}].effective", rule="date",
                                    line=loc.line(i, key="effective")))
            continue
        if effective in seen:
            problems.append(_problem(severity="error", path=where,
                                    message=f"two lists take effect on {effective.isoformat()} "
                                    f"(lists {seen[effective] + 1} and {i + 1}); which one is in force is unclear",
                                    json_path=f"$.lists[{i}].effective", rule="duplicate-date",
                                    line=loc.line(i, key="effective")))
            continue
        seen[effective] = i
        sets = item.get("sets")
        lists.append(FormatList(
            effective=effective, source=item["source"],
            banned=frozenset(item.get("banned", ())), restricted=frozenset(item.get("restricted", ())),
            limited=dict(item.get("limited", {})), sets=frozenset(sets) if sets is not None else None,
        ))
    lists.sort(key=lambda lst: lst.effective)
    tournament_format = Format(name=data["name"], title=data["title"], game=data["game"], lists=tuple(lists),
                 path=where, sample=bool(data.get("sample", False)), description=data.get("description"))
    return tournament_format, problems, data, loc


def _load_file(path: Path) -> Format:
    tournament_format, problems, _, _ = read_format_file(path, remembered=True)
    errors = [p for p in problems if p.severity == "error"]
    if tournament_format is None or errors:
        first = errors[0]
        more = f" (and {len(errors) - 1} more problem(s); run `sengoku db check`)" if len(errors) > 1 else ""
        raise FormatError(path, f"{first.message} at {first.json_path}{more}", first.line)
    return tournament_format


def list_formats(db_folder: Path | str | None = None) -> list[Format]:
    """Return every format of a card database (default: the bundled one), sorted by name."""
    folder = formats_dir(db_folder)
    if not folder.is_dir():
        return []
    return [_load_file(p) for p in sorted(folder.glob("*.toml"))]


_FORMAT_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,99}")


def load_format(name_or_path: str | Path, db_folder: Path | str | None = None, *, name_only: bool = False) -> Format:
    """Load a format by name (a file in the card database's `formats/` folder) or by path to a .toml file.

    With `name_only` (a decklist's own `format` key, written by a stranger) only a name is
    looked up, in the `formats/` folder alone: never a path, so a decklist cannot make sengoku
    open any file it names, nor tell whether one exists.
    """
    folder = formats_dir(db_folder)
    if name_only:
        name = str(name_or_path)
        if not _FORMAT_NAME.fullmatch(name) or name.endswith(".toml"):
            known = sorted(p.stem for p in folder.glob("*.toml")) if folder.is_dir() else []
            raise FormatError(None, f"a decklist's `format` is a format name (letters, digits, '-', '_', '.'), "
                              f"not {name[:60]!r}; known formats: {', '.join(known) or 'none'}")
    else:
        candidate = Path(name_or_path)
        if candidate.suffix == ".toml" or candidate.is_file():
            return _load_file(candidate)
    path = folder / f"{name_or_path}.toml"
    if not path.is_file():
        known = sorted(p.stem for p in folder.glob("*.toml")) if folder.is_dir() else []
        hint = f"known formats: {', '.join(known)}" if known else f"no format files in {folder}"
        raise FormatError(None, f"unknown format {str(name_or_path)!r} ({hint})")
    return _load_file(path)
