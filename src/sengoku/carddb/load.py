"""Load a card database: read JSON, check it against its schema and the semantic checks.

`check_cards_file` collects every problem of a cards file (`sengoku db check`, whose folder-wide
run is `sengoku.db_check`); `load_card_db` returns a typed `CardDatabase` or raises
`CardDBError` listing every problem.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sengoku.digests import sha256_hex
from sengoku.display import clipped, quoted
from sengoku.errors import DataError
from sengoku.files import CARD_DB_BYTES, SCHEMA_BYTES, loads_json, read_json_file, read_text_input
from sengoku.games import DEFAULT_GAME, REGISTRY, game_code
from sengoku.pass_cache import digest_key, passed_before, remember_pass
from sengoku.paths import default_card_db, schema_path
from sengoku.problems import Problem, one_card

if TYPE_CHECKING:
    from sengoku.carddb.models import CardDatabase

CARDS_FILE = "cards.json"
# A cards.json smaller than this is parsed, never indexed (`carddb.stored`; 5,000 cards are 3.7 MB).
# Here, not in `stored`, so that a run reading a small database never imports the index's module.
INDEX_MIN_BYTES = 1_000_000
_QUOTED = 80  # characters of a string value a message quotes (`display.clipped`)



class CardDBError(DataError):
    """A card database that fails its schema or its semantic checks."""

    def __init__(self, path: Path | str, problems: list[Problem]):
        lines = "\n".join(f"  {p}" for p in problems[:50])
        more = f"\n  … and {len(problems) - 50} more" if len(problems) > 50 else ""
        super().__init__(path, f"the card database has {len(problems)} problem(s):\n{lines}{more}")
        self.problems = problems


def resolve_cards_file(path: Path | str | None) -> Path:
    """Return the cards file for a database given as a file, a folder, or None (default)."""
    p = Path(path) if path is not None else default_card_db()
    if p.is_dir():
        p = p / CARDS_FILE
    if not p.exists():
        raise DataError(p, "no such card database file")
    return p


def read_json(path: Path) -> tuple[Any, bytes]:
    """Read a card database JSON file (at most `CARD_DB_BYTES`); raise DataError naming the line
    and column if it cannot be read or is not valid JSON."""
    data, _, raw = _read_json_text(path)
    return data, raw


def _read_json_text(path: Path) -> tuple[Any, str, bytes]:
    text, raw = read_text_input(path, CARD_DB_BYTES)
    return loads_json(text, path), text, raw


@lru_cache(maxsize=None)
def _validator(schema_file: str) -> Any:
    # deferred: a database that passed before (pass_cache) is loaded without jsonschema's start-up time
    from jsonschema import Draft202012Validator

    schema = read_json_file(schema_path(schema_file), SCHEMA_BYTES)
    return Draft202012Validator(schema)


@lru_cache(maxsize=None)
def _first_pass(schema_file: str) -> Any:
    # deferred: as jsonschema, a database that passed before needs neither
    from jsonschema_rs import Draft202012Validator as CompiledValidator

    schema = read_json_file(schema_path(schema_file), SCHEMA_BYTES)
    return CompiledValidator(schema, validate_formats=False)  # as jsonschema: formats are notes


def _json_path(parts: Any) -> str:
    out = "$"
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


def _sort_key(parts: Any) -> list[tuple[int, Any]]:
    # Numeric indices sort as numbers: $.cards[2] before $.cards[10].
    return [(0, p) if isinstance(p, int) else (1, str(p)) for p in parts]


def schema_problems(path: str, data: Any, schema_file: str) -> list[Problem]:
    """Check `data` against a bundled schema; return one problem per violation, no repeats.

    A compiled validator (jsonschema-rs) makes the first pass: about 100 times faster than
    jsonschema, which matters for databases of tens of thousands of cards. jsonschema stays the
    reference for what is said: it explains whatever the first pass found — only the cards that
    failed, when every failure lies inside a card, else the whole file.
    """
    found = [list(e.instance_path) for e in _first_pass(schema_file).iter_errors(data)]
    if not found:
        return []
    subject, index_of = data, None
    if all(len(p) >= 2 and p[0] == "cards" and isinstance(p[1], int) for p in found):
        index_of = sorted({p[1] for p in found})
        subject = {**data, "cards": [data["cards"][i] for i in index_of]}
    located = []
    for err in _validator(schema_file).iter_errors(subject):
        parts = list(err.absolute_path)
        if index_of is not None:
            if len(parts) < 2 or parts[0] != "cards" or not isinstance(parts[1], int):
                continue  # a failure of the shortened list, not of the file
            parts[1] = index_of[parts[1]]
        located.append((parts, err))
    located.sort(key=lambda pe: _sort_key(pe[0]))
    problems: list[Problem] = []
    seen: set[Problem] = set()
    for parts, err in located:
        card_id = None
        if len(parts) >= 2 and parts[0] == "cards" and isinstance(parts[1], int):
            card = data["cards"][parts[1]]
            if isinstance(card, dict) and isinstance(card.get("id"), str):
                card_id = clipped(card["id"], _QUOTED)
        for where, message in _messages(err, parts):
            problem = Problem(severity="error", path=path, message=message, cards=one_card(card_id),
                              json_path=_json_path(where), rule="schema")
            if problem not in seen:
                seen.add(problem)
                problems.append(problem)
    return problems


def _messages(err: Any, parts: list[Any]) -> list[tuple[list[Any], str]]:
    """Return (json path parts, message) for a schema error, worded for people who edit cards.

    A long string is quoted clipped (`display.clipped`), never whole.
    """
    if err.validator == "maxLength" and isinstance(err.instance, str):
        return [(parts, f"too long: {len(err.instance):,} characters, at most {err.validator_value} "
                        f"(it starts {err.instance[:40]!r})")]
    if isinstance(err.instance, str) and len(err.instance) > _QUOTED:
        return [(parts, err.message.replace(repr(err.instance), quoted(err.instance, _QUOTED)))]
    if err.validator == "enum" and isinstance(err.validator_value, list):
        choices = ", ".join(map(str, err.validator_value))
        return [(parts, f"{err.instance!r} is not one of: {choices}")]
    if err.validator == "additionalProperties" and isinstance(err.instance, dict):
        allowed = set(err.schema.get("properties", {}))
        extras = [k for k in err.instance if k not in allowed]
        if extras:  # one problem per unknown field, pointing at the field itself
            return [(parts + [k], f"unknown field {k!r}") for k in extras]
    if err.validator == "required" and isinstance(err.instance, dict):
        missing = [k for k in err.validator_value if k not in err.instance]
        return [(parts, f"missing field {k!r}") for k in missing]
    return [(parts, err.message)]


def card_lines(text: str) -> list[int]:
    """Return the line each element of the top-level `cards` array starts on ([] if none).

    `json` gives no positions, so walk the (already valid) text with `raw_decode`.
    """
    decoder = json.JSONDecoder()
    newlines = [m.start() for m in re.finditer("\n", text)]

    def line(pos: int) -> int:
        return bisect_right(newlines, pos - 1) + 1

    def skip(i: int) -> int:
        while i < len(text) and text[i] in " \t\r\n":
            i += 1
        return i

    try:
        i = skip(0)
        if text[i] != "{":
            return []
        i = skip(i + 1)
        while text[i] != "}":
            key, i = decoder.raw_decode(text, i)
            i = skip(skip(i) + 1)  # past the colon
            if key == "cards" and text[i] == "[":
                out = []
                i = skip(i + 1)
                while text[i] != "]":
                    out.append(line(i))
                    _, i = decoder.raw_decode(text, i)
                    i = skip(i)
                    if text[i] == ",":
                        i = skip(i + 1)
                return out
            _, i = decoder.raw_decode(text, i)
            i = skip(i)
            if text[i] == ",":
                i = skip(i + 1)
    except (ValueError, IndexError):
        pass
    return []


_CARD_INDEX = re.compile(r"^\$\.cards\[(\d+)\]")


def _card_index(problem: Problem) -> int | None:
    m = _CARD_INDEX.match(problem.json_path)
    return int(m.group(1)) if m else None


def game_of(data: Any) -> str:
    """Return the game a parsed card database is for (its `meta.game`; SENGOKU YUGI when unsaid)."""
    if isinstance(data, dict) and isinstance(data.get("meta"), dict):
        game = data["meta"].get("game")
        if isinstance(game, str):
            return game
    return DEFAULT_GAME


def check_data(path: str, data: Any, text: str | None = None) -> list[Problem]:
    """Return every schema and semantic problem of a parsed card database.

    Semantic checks still run on the cards that passed the schema, so one bad card does not
    hide the others' problems. With the file's `text`, problems carry the card's line.
    """
    # deferred: start-up time of the runs whose database passed before (`read_checked`): they
    # never check it again
    from sengoku.carddb.card_checks import run_checks
    from sengoku.carddb.generic import run_checks as generic_checks
    from sengoku.carddb.strings import string_problems

    game = game_of(data)
    code = game_code(game)
    if code is None:
        return [Problem(rule="schema", severity="error", path=path,
                        message=f"unknown game {game!r} (known: {', '.join(sorted(REGISTRY))})",
                        json_path="$.meta.game")]
    problems = schema_problems(path, data, code.card_schema)
    cards = data.get("cards") if isinstance(data, dict) else None
    if code.card_model == "sengoku" and isinstance(cards, list):
        broken = {_card_index(p) for p in problems}
        valid = {i for i in range(len(cards)) if i not in broken}
        problems.extend(run_checks(path, cards, valid))
    elif isinstance(cards, list):  # issue 5: the other games' common checks
        broken = {_card_index(p) for p in problems}
        problems.extend(generic_checks(path, cards, {i for i in range(len(cards)) if i not in broken}))
    problems.extend(string_problems(path, data, text))  # every game: no hidden character, no blank name
    problems.sort(key=lambda p: (_card_index(p) if _card_index(p) is not None else -1, p.json_path))
    if text is not None and problems:  # lines are found only for problems to show
        lines = card_lines(text)
        problems = [
            replace(p, line=lines[idx]) if (idx := _card_index(p)) is not None and idx < len(lines) else p
            for p in problems
        ]
    return problems


def check_cards_file(path: Path | str) -> list[Problem]:
    """Return every problem of one cards file; raise DataError if it cannot be read as JSON."""
    return read_and_check(path)[1]


def read_and_check(path: Path | str) -> tuple[Any, list[Problem]]:
    """Return a cards file's parsed data and every problem of it (for checks of other files that
    need the cards too: one parse of a large file); raise DataError if it cannot be read as JSON."""
    path = Path(path)
    data, text, _ = _read_json_text(path)
    return data, check_data(str(path), data, text)


def read_checked(cards_file: Path) -> tuple[Any, bytes]:
    """Read a cards file and check it, unless these very bytes passed before (`pass_cache`);
    return its parsed data and bytes, or raise CardDBError listing every error.

    Every reader of a card database for use (`load_card_db`, the validator's catalog) loads
    through here, so each pays the schema check once per file content, not once per run.
    """
    text, raw = read_text_input(cards_file, CARD_DB_BYTES)
    digest = sha256_hex(raw)
    # Bytes that passed before (under their game's schema; the game is known only once parsed)
    # passed the duplicate-key check too: parsed without it, a third faster.
    first = REGISTRY[DEFAULT_GAME].card_schema  # the likeliest: asked first
    schemas = [first, *sorted({c.card_schema for c in REGISTRY.values()} - {first})]
    known = any(passed_before(digest_key(digest, schema_path(s))) for s in schemas)
    data = loads_json(text, cards_file, unique_keys=not known)
    code = game_code(game_of(data))
    key = digest_key(digest, schema_path(code.card_schema)) if code is not None else None
    if key is None or not passed_before(key):
        if known:  # passed under another game's schema only: the keys are checked now
            loads_json(text, cards_file)
        problems = [p for p in check_data(str(cards_file), data, text) if p.severity == "error"]
        if problems:
            raise CardDBError(cards_file, problems)
        if key is not None:
            remember_pass(key)
    return data, raw


def load_card_db(path: Path | str | None = None) -> CardDatabase:
    """Load and check a card database (file, folder, or the bundled/$SENGOKU_DB default)."""
    cards_file = resolve_cards_file(path)
    data, raw = read_checked(cards_file)
    code = game_code(game_of(data))
    # deferred: pydantic and the card models' validators are most of a run's start-up; the
    # validator reads checked cards as plain dicts (`carddb.catalog`) and never needs them
    from sengoku.carddb.models import CardDatabase

    model: Any = CardDatabase
    if code is None or code.card_model != "sengoku":
        # deferred: start-up time of SENGOKU YUGI's runs (pydantic builds the model as it is imported)
        from sengoku.carddb.generic import GenericCardDatabase

        model = GenericCardDatabase  # issue 5: the other games' cards share one generic model
    try:
        db = model.model_validate(
            {**data, "path": str(cards_file), "content_hash": sha256_hex(raw)}
        )
    except ValueError as exc:  # pydantic's ValidationError: the checks should have caught it first
        raise CardDBError(cards_file, _model_problems(str(cards_file), data, exc)) from None
    return db


def _model_problems(path: str, data: Any, exc: ValueError) -> list[Problem]:
    """Word the card model's refusals as problems (never pydantic's raw text): what a check missed."""
    errors = exc.errors() if hasattr(exc, "errors") else [{"loc": (), "msg": str(exc)}]
    problems = []
    for error in errors:
        node, parts = data, []
        for part in error.get("loc", ()):  # the model's own tags (a card's kind) are no JSON keys
            if isinstance(node, dict) and part in node:
                node = node[part]
            elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
                node = node[part]
            else:
                continue
            parts.append(part)
        problems.append(Problem(severity="error", path=path, rule="schema", json_path=_json_path(parts),
                                message=str(error.get("msg", "refused by the card model"))))
    return problems
