"""Read a `validate -o markdown` report back with a CommonMark parser: table rows and list items."""

from __future__ import annotations

from html.parser import HTMLParser

from markdown_it import MarkdownIt

HEADER = ["File", "Status", "Errors", "Warnings", "Deck", "Deck hash"]


class _Tables(HTMLParser):
    """Collect the text of every table cell (rows of cells) and every list item of rendered HTML."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.items: list[str] = []
        self.tags: list[str] = []
        self._cell: list[str] | None = None
        self._item: list[str] | None = None

    def handle_starttag(self, tag: str, attrs) -> None:
        self.tags.append(tag)
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self._cell = []
        elif tag == "li":
            self._item = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append("".join(self._cell))
            self._cell = None
        elif tag == "li" and self._item is not None:
            self.items.append("".join(self._item))
            self._item = None

    def handle_data(self, data: str) -> None:
        for part in (self._cell, self._item):
            if part is not None:
                part.append(data)


def parse(markdown: str) -> _Tables:
    parser = _Tables()
    parser.feed(MarkdownIt("commonmark").enable("table").render(markdown))
    return parser
