"""Markdown report: one table of every file, then the findings under it.

Made for an organiser's page: `$GITHUB_STEP_SUMMARY` in GitHub Actions, a tournament page, an
issue comment. The table has one row per file (status, errors, warnings, the deck's name and
its deck hash); the findings follow, file by file, with their rule id and line.

File names, deck names and messages come from strangers: each goes through
`sengoku.display.markdown_text` (hidden characters escaped, markup and autolinks broken), so a
deck name cannot break the table, hide a row, inject HTML or become a link.
"""

from __future__ import annotations

from typing import Any, TextIO

from sengoku.display import markdown_text as md
from sengoku.validate.reporters.spool import Document, Spool

STATUS = {"valid": "✅ valid", "invalid": "❌ invalid", "unreadable": "⛔ unreadable"}
NONE = "—"  # a cell with nothing to show (no deck name, no deck hash)

def status(result: Any, strict: bool) -> str:
    """Return `valid`, `invalid` or `unreadable` for one file."""
    if result.unreadable:
        return "unreadable"
    return "valid" if result.passed(strict) else "invalid"


def _finding(v: Any) -> str:
    cards = f" [{', '.join(v.cards)}]" if v.cards else ""
    where = "" if v.line is None else f", line {v.line}" + ("" if v.column is None else f", column {v.column}")
    return f"- **{v.severity}** {md(v.rule)}{where}: {md(v.message + cards)}"


class Report:
    """Spool the table's rows and the findings as each file is checked; write them under the
    summary (which needs the totals) at the end."""

    def __init__(self, out: TextIO, strict: bool = False):
        self.strict = strict
        self._rows = Spool()
        self._findings = Spool()

    def add(self, r: Any) -> None:
        cells = [md(r.path or "<decklist>"), STATUS[status(r, self.strict)], str(len(r.errors)),
                 str(len(r.warnings)), md(r.name) if r.name else NONE,
                 f"`{r.deck_hash}`" if r.deck_hash else NONE]
        self._rows.write("| " + " | ".join(cells) + " |\n")
        notes = [note for note in r.info.values() if isinstance(note, str)]
        if r.violations or notes:
            lines = ["", f"#### {md(r.path or '<decklist>')}", ""]
            lines += [_finding(v) for v in r.violations]
            lines += [f"- note: {md(note)}" for note in notes]
            self._findings.write("\n".join(lines) + "\n")

    def finish(self, tally: Any) -> Document:
        s = tally.summary()
        strict = " (strict: warnings fail)" if self.strict else ""
        lines = ["## sengoku validate", "",
                 f"{s['files']} file(s): {s['passed']} valid, {s['failed']} invalid; "
                 f"{s['errors']} error(s), {s['warnings']} warning(s){strict}.", ""]
        for db in tally.card_dbs():
            lines.append(f"Card database ({md(str(db['game']))}): {md(str(db['name']))} {md(str(db['version']))}, "
                         f"SHA-256 `{db['hash']}`")
            lines.append("")
        lines += ["| File | Status | Errors | Warnings | Deck | Deck hash |",
                  "| --- | --- | ---: | ---: | --- | --- |"]
        parts: list[str | Spool] = ["\n".join(lines) + "\n", self._rows]
        if not self._findings.empty:
            parts += ["\n### Findings\n", self._findings]
        return Document(parts)
