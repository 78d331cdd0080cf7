"""Registration sheets (`validate --html FILE`): one printable page per decklist, for the organiser's desk.

Each sheet shows the deck's own name, the file, game and mode, the verdict (in words, never by
colour alone), the deck hash and the card database it was checked against, the cards of each
section (count, card, id) and the findings, then lines for the player's name and signature and
the organiser's. One self-contained HTML file: inline CSS, no script, nothing loaded from the
network, a print stylesheet that starts each deck on its own page.

Deck names, card names, file names and messages come from strangers: shown through
`printable` (hidden characters escaped) and HTML-escaped.
"""

from __future__ import annotations

import html
import io
from typing import Any, TextIO

from sengoku.display import printable
from sengoku.validate.reporters import write_run
from sengoku.validate.reporters.markdown import status
from sengoku.validate.reporters.spool import Document, Spool
from sengoku.version import __version__

VERDICT = {"valid": "✔ VALID", "invalid": "✘ INVALID", "unreadable": "✘ UNREADABLE: the file could not be read"}

CSS = """
:root { color-scheme: light; }
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", Arial, sans-serif;
       font-size: 12pt; line-height: 1.4; color: #111; background: #fff; margin: 0; }
.sheet { max-width: 48rem; margin: 1.5rem auto; padding: 1.5rem; border: 1px solid #999; }
h1 { font-size: 1.6rem; margin: 0 0 .75rem; }
h2 { font-size: 1.15rem; margin: 1.25rem 0 .4rem; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; margin: 0; }
dl.facts dt { font-weight: bold; }
dl.facts dd { margin: 0; }
code, .hash { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; }
.hash { word-break: break-all; font-size: 11pt; }
.verdict { font-weight: bold; }
.verdict.valid { color: #05551f; }
.verdict.invalid, .verdict.unreadable { color: #8a0000; }
table { border-collapse: collapse; width: 100%; margin-bottom: .5rem; }
th, td { border: 1px solid #777; padding: .2rem .45rem; text-align: left; vertical-align: top; }
thead th { background: #e8e8e8; }
td.count, th.count { text-align: right; width: 4rem; font-variant-numeric: tabular-nums; }
tfoot td { font-weight: bold; }
ul.findings li { margin-bottom: .2rem; }
.signatures { margin-top: 2rem; display: grid; grid-template-columns: 1fr 1fr; gap: 1.75rem 2rem; }
.signatures p { margin: 0; padding-top: 2rem; border-bottom: 1px solid #111; }
.signatures span { display: block; position: relative; top: 1.6rem; font-size: 10pt; }
footer { margin-top: 3rem; font-size: 10pt; color: #333; }
@page { size: A4; margin: 14mm; }
@media print {
  body { font-size: 11pt; }
  .sheet { border: none; margin: 0; padding: 0; max-width: none; break-after: page; page-break-after: always; }
  .sheet:last-of-type { break-after: auto; page-break-after: auto; }
  thead { display: table-header-group; }
  tr { break-inside: avoid; }
}
"""


def text(value: object) -> str:
    """Return a stranger's text as HTML: hidden characters escaped, then HTML-escaped."""
    return html.escape(printable(str(value)))


def _card_cells(card_id: str, card: dict[str, Any]) -> str:
    name = card.get("name", card_id)
    details = []
    level = card.get("level")
    if isinstance(level, int) and not isinstance(level, bool):
        details.append(f"Level {level}")
    if card.get("epithet"):
        details.append(f"“{card['epithet']}”")
    shown = text(name) + (f" <small>({text(', '.join(details))})</small>" if details else "")
    return f"<td>{shown}</td><td><code>{text(card_id)}</code></td>"


def _section(anchor: str, section: str, counts: dict[str, int], cards: dict[str, dict[str, Any]]) -> str:
    total = sum(counts.values())
    rows = "\n".join(f'<tr><td class="count">{n}</td>{_card_cells(card_id, cards.get(card_id, {}))}</tr>'
                     for card_id, n in counts.items())
    return (f'<section aria-labelledby="{anchor}">\n'
            f'<h2 id="{anchor}">[[{text(section)}]]: {total} card(s)</h2>\n'
            f'<table aria-labelledby="{anchor}">\n'
            '<thead><tr><th scope="col" class="count">Count</th><th scope="col">Card</th>'
            '<th scope="col">Id</th></tr></thead>\n'
            f"<tbody>\n{rows}\n</tbody>\n"
            f'<tfoot><tr><td class="count">{total}</td><td colspan="2">total</td></tr></tfoot>\n</table>\n</section>')


def _finding(v: Any) -> str:
    where = "" if v.line is None else f", line {v.line}"
    cards = f" [{', '.join(v.cards)}]" if v.cards else ""
    return f"<li><strong>{text(v.severity)}</strong> <code>{text(v.rule)}</code>{where}: {text(v.message + cards)}</li>"


def sheet(index: int, result: Any, strict: bool) -> str:
    """Return the registration sheet of one decklist as an `<article>`."""
    verdict = status(result, strict)
    title = text(result.name) if result.name else "<i>(the deck has no name)</i>"
    facts = [("File", f"<code>{text(result.path or '<decklist>')}</code>"),
             ("Game", text(result.game) + (f", {text(result.mode)} mode" if result.mode else "")),
             ("Format", text(result.format) if result.format else "none"),
             ("Verdict", f'<span class="verdict {verdict}">{html.escape(VERDICT[verdict])}</span> '
                         f"({len(result.errors)} error(s), {len(result.warnings)} warning(s)"
                         f"{'; warnings fail under --strict' if strict else ''})"),
             ("Deck hash", f'<span class="hash">{result.deck_hash}</span>' if result.deck_hash
              else "none: the deck's cards are not all known"),
             ("Card database", f"{text(result.db_name or '')} {text(result.db_version or '')}, SHA-256 "
                               f'<span class="hash">{text(result.db_hash)}</span>' if result.db_hash else "none")]
    parts = [f'<article class="sheet" aria-labelledby="deck{index}">',
             f'<h1 id="deck{index}">{title}</h1>',
             '<dl class="facts">' + "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in facts) + "</dl>"]
    parts += [_section(f"deck{index}-section{n}", s, counts, result.cards)
              for n, (s, counts) in enumerate(result.sections.items(), 1)]
    notes = [n for n in result.info.values() if isinstance(n, str)]
    if result.violations or notes:
        parts.append('<section><h2>Findings</h2>\n<ul class="findings">\n'
                     + "\n".join([_finding(v) for v in result.violations]
                                 + [f"<li>note: {text(n)}</li>" for n in notes]) + "\n</ul>\n</section>")
    parts.append('<div class="signatures">'
                 "<p><span>Player's name</span></p><p><span>Player's signature and date</span></p>"
                 "<p><span>Checked by (organiser)</span></p><p><span>Organiser's signature and date</span></p></div>")
    parts.append(f"<footer>Checked with sengoku {__version__} (<code>sengoku validate</code>). Recompute the deck "
                 "hash from <code>sengoku validate -o json</code> to confirm the list was not changed.</footer>")
    parts.append("</article>")
    return "\n".join(parts)


class Report:
    """Spool each decklist's sheet as it is checked; write the page (whose title counts the decks) at the end."""

    def __init__(self, out: TextIO | None = None, strict: bool = False):
        self.strict = strict
        self._sheets = Spool()
        self._count = 0

    def add(self, result: Any) -> None:
        self._count += 1
        self._sheets.write(("\n" if self._count > 1 else "") + sheet(self._count, result, self.strict))

    def finish(self, tally: Any) -> Document:
        return Document([
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>Registration sheets: {self._count} deck(s)</title>\n<style>{CSS}</style>\n</head>\n"
            "<body>\n<main>\n", self._sheets, "\n</main>\n</body>\n</html>\n"])


def render(run: Any) -> str:
    """Return the registration sheets of every decklist of a run as one HTML document."""
    buffer = io.StringIO()
    write_run(Report, run, buffer)
    return buffer.getvalue()
