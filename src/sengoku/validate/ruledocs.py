"""What each rule id means, for reports that describe their rules (SARIF) and the docs table.

Rules written in a game's `game.toml` describe themselves (`description`, `spec`); the rules
kept in code are described here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sengoku.games import Game
from sengoku.validate.code_checks import CODE_CHECKS


@dataclass(frozen=True)
class RuleDoc:
    """One rule id: its default severity, a one-line description and the rules-digest id."""

    id: str
    severity: str
    description: str
    spec: str = ""


# Rules kept in code: reading the file, resolving entries, and tournament formats.
CODE_RULES: tuple[RuleDoc, ...] = (
    RuleDoc("syntax", "error", "The file is a decklist: UTF-8 TOML of the documented shape (known keys, "
            "right types, counts from 1 to 99)"),
    RuleDoc("unknown-card", "error", "Every entry names a card of the database (by name, level, epithet or id)"),
    RuleDoc("ambiguous-card", "error", "Every entry names exactly one card (give level, epithet or id)"),
    RuleDoc("duplicate-entry", "warning", "The same card is listed twice in a section (the counts are added up)"),
    RuleDoc("unknown-format", "error", "The decklist's `format` names a known tournament format"),
    RuleDoc("banned", "error", "Tournament format: no banned card"),
    RuleDoc("restricted", "error", "Tournament format: at most 1 copy of a restricted card, N of a limited one"),
    RuleDoc("not-legal", "error", "Tournament format: every card comes from an allowed set"),
)


def rule_docs(games: Iterable[Game]) -> dict[str, RuleDoc]:
    """Return every rule id of the given games (their rule files and code checks) and the code rules."""

    docs: dict[str, RuleDoc] = {d.id: d for d in CODE_RULES}
    for game in games:
        for raw in game.raw.get("rules", []):
            rule_id = raw.get("id")
            if not isinstance(rule_id, str) or rule_id in docs:
                continue  # a repeated id (e.g. wrong-section per section) keeps its first description
            docs[rule_id] = RuleDoc(rule_id, raw.get("severity", "error"),
                                    raw.get("description", "") or rule_id, raw.get("spec", ""))
        for name in game.raw.get("checks", []):
            check = CODE_CHECKS.get(name)
            if check is not None and check.rule not in docs:
                docs[check.rule] = RuleDoc(check.rule, check.severity, check.description, check.spec)
    return docs
