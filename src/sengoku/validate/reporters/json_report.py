"""JSON report: the card database used, one object per file, and a summary.

Shape (documented in docs/validation.md): `{"card_db": {name, version, hash}, "card_dbs": [...],
"strict": bool, "results": [{path, game, mode, format, deck_name, deck_hash, valid, violations:
[{rule, severity, message, line, column, cards}], sections}], "summary": {files, passed, failed,
errors, warnings}}`. `valid` follows `--strict` (warnings fail under it). `deck_hash` is defined
in `sengoku.validate.deck_hash` (null when the deck's cards are not known).
"""

from __future__ import annotations

from typing import Any, TextIO

from sengoku.validate.reporters.spool import Document, Spool, Spooled, json_document, spool_json_item


def result_dict(r: Any, strict: bool) -> dict[str, Any]:
    """Return one file's result as its documented JSON-ready dict."""
    return {
        "path": r.path,
        "game": r.game,
        "mode": r.mode,
        "format": r.format,
        "deck_name": r.name,
        "deck_hash": r.deck_hash,
        "valid": r.passed(strict),
        "violations": [
            {"rule": v.rule, "severity": v.severity, "message": v.message, "line": v.line,
             "column": v.column, "cards": list(v.cards)}
            for v in r.violations
        ],
        "sections": r.sections,
        **({"info": r.info} if r.info else {}),
    }


class Report:
    """Spool each file's result as it is checked; write the whole document at the end."""

    def __init__(self, out: TextIO, strict: bool = False):
        self.strict = strict
        self._results = Spool()

    def add(self, result: Any) -> None:
        spool_json_item(self._results, result_dict(result, self.strict), default=str)

    def finish(self, tally: Any) -> Document:
        dbs = tally.card_dbs()
        document = json_document({
            "card_db": ({k: dbs[0][k] for k in ("name", "version", "hash")} if dbs else None),
            "card_dbs": dbs,
            "strict": self.strict,
            "results": Spooled(self._results),
            "summary": tally.summary(),
        }, default=str)  # hidden characters as \u escapes
        document.parts.append("\n")
        return document
