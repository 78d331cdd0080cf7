"""JSON report: the card database used, one object per file, and a summary.

Shape (documented in the README): `{"card_db": {name, version, hash}, "card_dbs": [...],
"strict": bool, "results": [{path, game, mode, format, deck_name, deck_hash, valid, violations:
[{rule, severity, message, line, column, cards}], sections}], "summary": {files, passed, failed,
errors, warnings}}`. `valid` follows `--strict` (warnings fail under it). `deck_hash` is defined
in `sengoku.validate.deck_hash` (null when the deck's cards are not known).
"""

from __future__ import annotations

from typing import Any, TextIO

from sengoku.display import json_text


def as_dict(run: Any) -> dict[str, Any]:
    """Return the run as the documented JSON-ready dict."""
    dbs = run.card_dbs()
    return {
        "card_db": ({k: dbs[0][k] for k in ("name", "version", "hash")} if dbs else None),
        "card_dbs": dbs,
        "strict": run.strict,
        "results": [
            {
                "path": r.path,
                "game": r.game,
                "mode": r.mode,
                "format": r.format,
                "deck_name": r.name,
                "deck_hash": r.deck_hash,
                "valid": r.passed(run.strict),
                "violations": [
                    {"rule": v.rule, "severity": v.severity, "message": v.message, "line": v.line,
                     "column": v.column, "cards": list(v.cards)}
                    for v in r.violations
                ],
                "sections": r.sections,
                **({"info": r.info} if r.info else {}),
            }
            for r in run.results
        ],
        "summary": run.summary(),
    }


def write(run: Any, stream: TextIO) -> None:
    """Write the run as indented JSON."""
    stream.write(json_text(as_dict(run), indent=2, default=str))  # hidden characters as \u escapes
    stream.write("\n")
