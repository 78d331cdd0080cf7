"""SARIF 2.1.0, for GitHub code scanning and other static-analysis dashboards.

One run with the tool's rules (id, short description, default level, rules-digest id) and one
result per violation with its physical location (file, line, column). The run's properties
name the card databases and every decklist's deck name and deck hash.

Games share rule ids (`deck-size` is a rule of each), with their own meaning. A game's rule is
therefore `<game>/<rule id>` (`senjutsu/deck-size`), so that a result in a folder of several
games points at its own game's rule; the rules kept in code, the same for every game (`syntax`,
`unknown-card`, the format rules), keep their plain id.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import quote

from sengoku.display import printable
from sengoku.games import bundled_games
from sengoku.validate.reporters.spool import Document, Spool, Spooled, json_document, spool_json_item
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


class Report:
    """Spool each file's violations and deck entry as it is checked; at the end, when every game
    and rule id of the run is known, write the rules, then the results with their rule index."""

    def __init__(self, out: TextIO, strict: bool = False):
        self._games: dict[str, None] = {}  # the bundled games met, in order
        self._known = bundled_games()
        self._violations = Spool()  # one compact JSON line per violation, read back at the end
        self._decks = Spool()

    def add(self, result: Any) -> None:
        if result.game in self._known:
            self._games.setdefault(result.game)
        for v in result.violations:
            self._violations.write(json.dumps([result.game, result.path, v.rule, v.severity, v.message, v.line,
                                               v.column, list(v.cards)]) + "\n")
        # one entry per decklist, valid or not: its deck hash, for the registered list
        spool_json_item(self._decks, {"uri": _uri(result.path), "deck_name": result.name,
                                      "deck_hash": result.deck_hash})

    def _spooled(self) -> Iterator[list[Any]]:
        return (json.loads(line) for line in self._violations.lines())

    def finish(self, tally: Any) -> Document:
        shared = {d.id for d in CODE_RULES}
        docs: dict[str, tuple[RuleDoc, str | None]] = {d.id: (d, None) for d in CODE_RULES}
        for game_id in self._games:
            for doc in rule_docs([self._known[game_id]]).values():
                if doc.id not in shared:
                    docs.setdefault(f"{game_id}/{doc.id}", (doc, game_id))

        def sarif_id(game: str | None, rule: str) -> str:
            return rule if rule in shared or f"{game}/{rule}" not in docs else f"{game}/{rule}"

        for game, _, rule, severity, *_ in self._spooled():  # ids from elsewhere (e.g. format files)
            docs.setdefault(sarif_id(game, rule), (RuleDoc(rule, severity, rule), None))  # still get a rule entry
        index = {rule_id: i for i, rule_id in enumerate(docs)}
        rules = []
        for rule_id, (doc, game) in docs.items():
            rule: dict[str, Any] = {"id": rule_id, "name": doc.id,
                                    "shortDescription": {"text": printable(doc.description)},
                                    "defaultConfiguration": {"level": doc.severity}}
            properties = {k: v for k, v in (("game", game), ("spec", doc.spec)) if v}
            if properties:
                rule["properties"] = properties
            rules.append(rule)
        results = Spool()
        for game, path, rule, severity, message, line, column, cards in self._spooled():
            rule_id = sarif_id(game, rule)
            region: dict[str, int] = {"startLine": line or 1}
            if column is not None:
                region["startColumn"] = column
            item: dict[str, Any] = {
                "ruleId": rule_id,
                "ruleIndex": index[rule_id],
                "level": "error" if severity == "error" else "warning",
                "message": {"text": printable(message + (f" [{', '.join(cards)}]" if cards else ""))},
                "locations": [{"physicalLocation": {"artifactLocation": {"uri": _uri(path)},
                                                    "region": region}}],
            }
            if cards:
                item["properties"] = {"cards": cards}
            spool_json_item(results, item)
        self._violations.close()
        document = json_document({
            "$schema": SARIF_SCHEMA,
            "version": "2.1.0",
            "runs": [{
                "tool": {"driver": {"name": "sengoku", "version": __version__, "rules": rules}},
                "results": Spooled(results),
                "properties": {"card_dbs": tally.card_dbs(), "decks": Spooled(self._decks)},
            }],
        })  # hidden characters as \u escapes
        document.parts.append("\n")
        return document
