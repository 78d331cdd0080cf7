"""SARIF 2.1.0, for GitHub code scanning and other static-analysis dashboards.

One run with the tool's rules (id, short description, default level, rules-digest id) and one
result per violation with its physical location (file, line, column).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import quote

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
    from sengoku.version import __version__
    from sengoku.games import bundled_games
    from sengoku.validate.ruledocs import RuleDoc, rule_docs

    games = bundled_games()
    docs = rule_docs(games[r.game] for r in run.results if r.game in games)
    for result in run.results:  # ids from elsewhere (e.g. format files) still get a rule entry
        for v in result.violations:
            docs.setdefault(v.rule, RuleDoc(v.rule, v.severity, v.rule))
    ids = list(docs)
    rules = []
    for rule_id in ids:
        doc = docs[rule_id]
        rule: dict[str, Any] = {"id": rule_id, "shortDescription": {"text": doc.description},
                                "defaultConfiguration": {"level": doc.severity}}
        if doc.spec:
            rule["properties"] = {"spec": doc.spec}
        rules.append(rule)
    results = []
    for result in run.results:
        for v in result.violations:
            region: dict[str, int] = {"startLine": v.line or 1}
            if v.column is not None:
                region["startColumn"] = v.column
            item: dict[str, Any] = {
                "ruleId": v.rule,
                "ruleIndex": ids.index(v.rule),
                "level": "error" if v.severity == "error" else "warning",
                "message": {"text": v.message + (f" [{', '.join(v.cards)}]" if v.cards else "")},
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
    json.dump(as_dict(run), stream, indent=2, ensure_ascii=False)
    stream.write("\n")
