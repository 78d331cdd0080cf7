"""SARIF 2.1.0, for GitHub code scanning and other static-analysis dashboards.

One run with the tool's rules (id, short description, default level, rules-digest id) and one
result per violation with its physical location (file, line, column).

Games share rule ids (`deck-size` is a rule of each), with their own meaning. A game's rule is
therefore `<game>/<rule id>` (`senjutsu/deck-size`), so that a result in a folder of several
games points at its own game's rule; the rules kept in code, the same for every game (`syntax`,
`unknown-card`, the format rules), keep their plain id.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, TextIO
from urllib.parse import quote

from sengoku.display import json_text, printable
from sengoku.games import bundled_games
from sengoku.validate.ruledocs import CODE_RULES, RuleDoc, rule_docs
from sengoku.version import __version__

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def _uri(path: str | None) -> str:
    if not path:
        return "decklist"
    p = Path(path)
    # A URI reference: spaces, '%', ',' and non-ASCII letters in a relative path are percent-encoded,
    # as `as_uri()` already does for an absolute one.
    return p.as_uri() if p.is_absolute() else quote(p.as_posix())


def as_dict(run: Any) -> dict[str, Any]:
    """Return the run as a SARIF 2.1.0 log."""
    games = bundled_games()
    shared = {d.id for d in CODE_RULES}
    docs: dict[str, tuple[RuleDoc, str | None]] = {d.id: (d, None) for d in CODE_RULES}
    for game_id in dict.fromkeys(r.game for r in run.results if r.game in games):
        for doc in rule_docs([games[game_id]]).values():
            if doc.id not in shared:
                docs.setdefault(f"{game_id}/{doc.id}", (doc, game_id))

    def sarif_id(game: str | None, rule: str) -> str:
        return rule if rule in shared or f"{game}/{rule}" not in docs else f"{game}/{rule}"

    for result in run.results:  # ids from elsewhere (e.g. format files) still get a rule entry
        for v in result.violations:
            docs.setdefault(sarif_id(result.game, v.rule), (RuleDoc(v.rule, v.severity, v.rule), None))
    ids = list(docs)
    rules = []
    for rule_id in ids:
        doc, game = docs[rule_id]
        rule: dict[str, Any] = {"id": rule_id, "name": doc.id,
                                "shortDescription": {"text": printable(doc.description)},
                                "defaultConfiguration": {"level": doc.severity}}
        properties = {k: v for k, v in (("game", game), ("spec", doc.spec)) if v}
        if properties:
            rule["properties"] = properties
        rules.append(rule)
    results = []
    for result in run.results:
        for v in result.violations:
            rule_id = sarif_id(result.game, v.rule)
            region: dict[str, int] = {"startLine": v.line or 1}
            if v.column is not None:
                region["startColumn"] = v.column
            item: dict[str, Any] = {
                "ruleId": rule_id,
                "ruleIndex": ids.index(rule_id),
                "level": "error" if v.severity == "error" else "warning",
                "message": {"text": printable(v.message + (f" [{', '.join(v.cards)}]" if v.cards else ""))},
                "locations": [{"physicalLocation": {"artifactLocation": {"uri": _uri(result.path)},
                                                    "region": region}}],
            }
            if v.cards:
                item["properties"] = {"cards": list(v.cards)}
            results.append(item)
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "sengoku", "version": __version__, "rules": rules}},
            "results": results,
            "properties": {"card_dbs": run.card_dbs()},
        }],
    }


def write(run: Any, stream: TextIO) -> None:
    """Write the run as an indented SARIF 2.1.0 JSON log."""
    stream.write(json_text(as_dict(run), indent=2))  # hidden characters as \u escapes
    stream.write("\n")
