"""Load a card database: read JSON, check it against its schema and the semantic checks.

`check_card_db` collects every problem (for `sengoku db check`); `load_card_db` returns a
typed `CardDatabase` or raises `CardDBError` listing every problem.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from sengoku.carddb.problems import CheckReport, Problem
from sengoku.errors import DataError
from sengoku.paths import default_card_db, schema_path

CARDS_FILE = "cards.json"

# meta.game -> (schema file, semantic checks). Other games register here too.
SCHEMAS: dict[str, str] = {"sengoku-yugi": "sengoku-card-db.schema.json"}


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
    """Read a JSON file; raise DataError naming the line and column if it is not valid JSON."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise DataError(path, f"cannot read: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DataError(path, f"not UTF-8 text (byte {exc.start})") from None
    try:
        return json.loads(text), raw
    except json.JSONDecodeError as exc:
        raise DataError(path, f"not valid JSON: {exc.msg}", exc.lineno, exc.colno) from None


@lru_cache(maxsize=None)
def _validator(schema_file: str) -> Any:
    from jsonschema import Draft202012Validator

    schema = json.loads(schema_path(schema_file).read_text(encoding="utf-8"))
    return Draft202012Validator(schema)


def _json_path(parts: Any) -> str:
    out = "$"
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


def schema_problems(path: str, data: Any, schema_file: str) -> list[Problem]:
    """Check `data` against a bundled schema; return one problem per violation."""
    problems = []
    errors = sorted(_validator(schema_file).iter_errors(data), key=lambda e: list(map(str, e.absolute_path)))
    for err in errors:
        parts = list(err.absolute_path)
        card_id = None
        if len(parts) >= 2 and parts[0] == "cards" and isinstance(parts[1], int):
            card = data["cards"][parts[1]]
            if isinstance(card, dict) and isinstance(card.get("id"), str):
                card_id = card["id"]
        problems.append(Problem(path=path, message=err.message, card_id=card_id,
                                json_path=_json_path(parts), code="schema"))
    return problems


def _game_of(data: Any) -> str:
    if isinstance(data, dict) and isinstance(data.get("meta"), dict):
        game = data["meta"].get("game")
        if isinstance(game, str):
            return game
    return "sengoku-yugi"


def check_data(path: str, data: Any) -> list[Problem]:
    """Return every schema and semantic problem of a parsed card database."""
    game = _game_of(data)
    if game not in SCHEMAS:
        return [Problem(path=path, message=f"unknown game {game!r} (known: {', '.join(sorted(SCHEMAS))})",
                        json_path="$.meta.game")]
    problems = schema_problems(path, data, SCHEMAS[game])
    if problems:
        return problems
    if game == "sengoku-yugi":
        from sengoku.carddb.checks import run_checks

        problems.extend(run_checks(path, data["cards"]))
    return problems


def check_card_db(path: Path | str | None = None) -> CheckReport:
    """Check a card database file or folder; collect every problem. Raise DataError if unreadable."""
    cards_file = resolve_cards_file(path)
    data, _ = read_json(cards_file)
    return CheckReport(problems=check_data(str(cards_file), data), files=[str(cards_file)])


def load_card_db(path: Path | str | None = None) -> "CardDatabase":
    """Load and check a card database (file, folder, or the bundled/$SENGOKU_DB default)."""
    from sengoku.carddb.models import CardDatabase

    cards_file = resolve_cards_file(path)
    data, raw = read_json(cards_file)
    problems = [p for p in check_data(str(cards_file), data) if p.severity == "error"]
    if problems:
        raise CardDBError(cards_file, problems)
    db = CardDatabase.model_validate(
        {**data, "path": str(cards_file), "content_hash": hashlib.sha256(raw).hexdigest()}
    )
    return db


if False:  # pragma: no cover - for type checkers only
    from sengoku.carddb.models import CardDatabase
