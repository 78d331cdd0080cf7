"""Compile a game's rule file (`game.toml`) into rules the checker runs: the vocabulary's meaning.

The vocabulary is documented in `docs/rule-vocabulary.md` and its shape is enforced by
`schemas/game-rules.schema.json`. Here each `where`/`when` filter becomes a Python predicate
and each message template is checked for placeholders the rule type cannot fill, once per
rule file; the checker (`sengoku.validate.deck_check`) then matches every card of a database
against every filter once, so validating a deck is only dictionary lookups and sums.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from sengoku.errors import DataError
from sengoku.files import RULES_BYTES, SCHEMA_BYTES, read_input, read_json_file, read_text_input
from sengoku.games import Game
from sengoku.paths import schema_path
from sengoku.pass_cache import PassKey, pass_key, passed_before, remember_pass
from sengoku.validate.code_checks import CODE_CHECKS

Predicate = Callable[[Mapping[str, Any]], bool]
SCHEMA_FILE = "game-rules.schema.json"
RULE_TYPES = ("count", "copies", "forbid")

_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?)\}")
# Placeholders each rule type fills; `card.<field>` (copies, forbid) and `key.<field>` (copies)
# are checked by prefix.
PLACEHOLDERS = {
    "count": {"count", "min", "max", "sections", "cards"},
    "copies": {"count", "max", "key", "cards", "sections", "card"},
    "forbid": {"card", "section"},
}


class RuleFileError(DataError):
    """A game rule file that breaks its schema or the vocabulary."""


@dataclass(frozen=True)
class Rule:
    """One compiled rule of a game file."""

    id: str
    type: str
    message: str
    sections: tuple[str, ...]
    severity: str = "error"
    where: Predicate | None = None
    when: Predicate | None = None
    min: int | str | None = None  # an int, or the name of a numeric top-level decklist key
    max: int | str | None = None
    per: tuple[str, ...] = ()
    limit_by: str | None = None
    limits: dict[Any, int] = field(default_factory=dict)
    show_cards: bool = True
    description: str = ""
    spec: str = ""


@dataclass(frozen=True)
class Info:
    """One compiled `[[info]]` table: a value reported per matching card (base + a card field)."""

    id: str
    sections: tuple[str, ...]
    add: str
    base: int | str = 0  # an int, or the name of a numeric top-level decklist key
    where: Predicate | None = None
    when: Predicate | None = None
    description: str = ""


@dataclass(frozen=True)
class RuleBook:
    """A game's compiled rules, reported values, and the named checks it keeps in code."""

    game: Game
    rules: tuple[Rule, ...]
    checks: tuple[str, ...] = ()
    info: tuple[Info, ...] = ()


# --- filters -------------------------------------------------------------------------------

def _same(a: Any, b: Any) -> bool:
    # TOML `true` must not equal a card's `1` (Python's True == 1).
    return a == b and (type(a) is bool) == (type(b) is bool)


def _holds(value: Any, wanted: Any) -> bool:
    """Equality, where a list-valued card field holds a value when it contains it."""
    if isinstance(value, list):
        return any(_same(v, wanted) for v in value)
    return _same(value, wanted)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def compile_condition(field_name: str, cond: Any) -> Predicate:
    """Compile one `field = condition` of a filter (scalar, array = any of, or operator table)."""
    if isinstance(cond, list):
        options = tuple(cond)
        return lambda card: any(_holds(card.get(field_name), o) for o in options)
    if not isinstance(cond, dict):
        return lambda card: _holds(card.get(field_name), cond)
    tests: list[Predicate] = []
    for op, arg in cond.items():
        if op == "not":
            inner = compile_condition(field_name, arg)
            tests.append(lambda card, inner=inner: not inner(card))  # type: ignore[misc]
        elif op == "in":
            tests.append(compile_condition(field_name, list(arg)))
        elif op == "not_in":
            inner = compile_condition(field_name, list(arg))
            tests.append(lambda card, inner=inner: not inner(card))  # type: ignore[misc]
        elif op == "min":
            tests.append(lambda card, arg=arg: _number(card.get(field_name)) and card[field_name] >= arg)  # type: ignore[misc]
        elif op == "max":
            tests.append(lambda card, arg=arg: _number(card.get(field_name)) and card[field_name] <= arg)  # type: ignore[misc]
        else:  # the schema rejects these; kept for filters built in code
            raise ValueError(f"unknown filter operator {op!r} (known: not, in, not_in, min, max)")
    return lambda card: all(t(card) for t in tests)


def compile_filter(where: Mapping[str, Any] | None) -> Predicate | None:
    """Compile a `where`/`when` table: every condition must hold. None matches everything."""
    if not where:
        return None
    tests = [compile_condition(k, v) for k, v in where.items()]
    if len(tests) == 1:
        return tests[0]
    return lambda card: all(t(card) for t in tests)


# --- messages ------------------------------------------------------------------------------

def placeholders(template: str) -> list[str]:
    """Return the `{placeholders}` of a message template."""
    return _PLACEHOLDER.findall(template)


def render(template: str, values: Mapping[str, Any]) -> str:
    """Fill `{name}` placeholders from `values`; unknown ones stay as written (never raises)."""
    def sub(m: re.Match[str]) -> str:
        value = values.get(m.group(1))
        return m.group(0) if value is None else str(value)

    return _PLACEHOLDER.sub(sub, template)


# --- loading -------------------------------------------------------------------------------

@lru_cache(maxsize=1)
def _schema_validator() -> Any:
    # deferred: jsonschema's start-up time, paid only when a file is checked
    from jsonschema import Draft202012Validator

    return Draft202012Validator(read_json_file(schema_path(SCHEMA_FILE), SCHEMA_BYTES))


def _where(path: Any) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


def _rule_line(path: Path, index: int) -> int | None:
    """Return the line of the index-th `[[rules]]` header of a rule file."""
    try:
        lines = read_text_input(path, RULES_BYTES)[0].splitlines()
    except DataError:
        return None
    seen = -1
    for n, line in enumerate(lines, 1):
        if re.match(r"^\s*\[\[\s*rules\s*\]\]", line):
            seen += 1
            if seen == index:
                return n
    return None


def rule_file_problems(game: Game) -> list[str]:
    """Return every problem of a game rule file: schema errors, then vocabulary errors.

    A rule file whose bytes passed before is not checked again (`sengoku.pass_cache`).
    """

    try:
        key: PassKey | None = pass_key(read_input(game.rule_file, RULES_BYTES), schema_path(SCHEMA_FILE))
    except OSError:
        key = None
    if key is not None and passed_before(key):
        return []
    problems = _rule_file_problems(game)
    if not problems and key is not None:
        remember_pass(key)
    return problems


def _rule_file_problems(game: Game) -> list[str]:
    problems = [f"{_where(e.absolute_path)}: {e.message}"
                for e in sorted(_schema_validator().iter_errors(game.raw), key=lambda e: list(map(str, e.absolute_path)))]
    if problems:
        return problems

    for name in game.raw.get("checks", []):
        if name not in CODE_CHECKS:
            problems.append(f"checks: unknown check {name!r} (known: {', '.join(sorted(CODE_CHECKS))})")
    for i, raw in enumerate(game.raw.get("rules", [])):
        where = f"rules[{i}] ({raw['id']})"
        allowed = PLACEHOLDERS[raw["type"]]
        for ph in placeholders(raw["message"]):
            head, _, tail = ph.partition(".")
            ok = (ph in allowed) or (tail and head == "card" and "card" in allowed) or (
                tail and head == "key" and raw["type"] == "copies" and tail in raw.get("per", []))
            if not ok:
                problems.append(f"{where}: message placeholder {{{ph}}} cannot be filled by a "
                                f"{raw['type']} rule (use: {', '.join(sorted(allowed))})")
        for section in raw.get("sections", []):
            if section not in game.sections:
                problems.append(f"{where}: section {section!r} is not one of this game's sections "
                                f"({', '.join(game.sections)})")
        for bound in ("min", "max"):
            value = raw.get(bound)
            if isinstance(value, str) and value not in game.keys:
                problems.append(f"{where}: {bound} = {value!r} names no top-level key declared in [keys]")
    for i, raw in enumerate(game.raw.get("info", [])):
        for section in raw.get("sections", []):
            if section not in game.sections:
                problems.append(f"info[{i}] ({raw['id']}): section {section!r} is not one of this game's sections")
        base = raw.get("base")
        if isinstance(base, str) and base not in game.keys:
            problems.append(f"info[{i}] ({raw['id']}): base = {base!r} names no top-level key declared in [keys]")
    return problems


def compile_rule(raw: Mapping[str, Any]) -> Rule:
    """Compile one schema-valid `[[rules]]` table."""
    return Rule(
        id=raw["id"],
        type=raw["type"],
        message=raw["message"],
        sections=tuple(raw["sections"]),
        severity=raw.get("severity", "error"),
        where=compile_filter(raw.get("where")),
        when=compile_filter(raw.get("when")),
        min=raw.get("min"),
        max=raw.get("max"),
        per=tuple(raw.get("per", ())),
        limit_by=raw.get("limit_by"),
        limits=dict(raw.get("limits", {})),
        show_cards=raw.get("show_cards", raw["type"] != "count"),
        description=raw.get("description", ""),
        spec=raw.get("spec", ""),
    )


def load_rules(game: Game) -> RuleBook:
    """Check and compile a game's rule file; raise RuleFileError listing every problem."""
    return _load_rules(game)


@lru_cache(maxsize=32)
def _load_rules(game: Game) -> RuleBook:
    problems = rule_file_problems(game)
    if problems:
        lines: list[int] = []
        shown = []
        for problem in problems:  # point at the [[rules]] table of each problem where we can
            m = re.match(r"rules\[(\d+)\]", problem)
            line = _rule_line(game.rule_file, int(m.group(1))) if m else None
            if line is not None:
                lines.append(line)
            shown.append(f"line {line}: {problem}" if line is not None else problem)
        raise RuleFileError(game.rule_file, f"the game rule file has {len(problems)} problem(s):\n  "
                            + "\n  ".join(shown), lines[0] if lines else None)
    rules = tuple(compile_rule(raw) for raw in game.raw.get("rules", []))
    info = tuple(Info(id=raw["id"], sections=tuple(raw["sections"]), add=raw["add"], base=raw.get("base", 0),
                      where=compile_filter(raw.get("where")), when=compile_filter(raw.get("when")),
                      description=raw.get("description", ""))
                 for raw in game.raw.get("info", []))
    return RuleBook(game=game, rules=rules, checks=tuple(game.raw.get("checks", [])), info=info)
