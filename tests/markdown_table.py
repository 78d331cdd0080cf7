"""Read a `validate -o markdown` report back as GitHub renders it: table rows, list items, tags, links.

The renderer is cmark-gfm (GitHub's fork of cmark, through `cmarkgfm`) with GitHub's extensions:
tables, strikethrough, the tag filter and the autolink extension, which makes links of bare
`www.` domains, URLs and e-mail addresses. `visible` is the text a reader sees: zero-width
characters (the WORD JOINER that breaks an e-mail autolink) have no glyph.
"""

from __future__ import annotations

from html.parser import HTMLParser

import cmarkgfm

HEADER = ["File", "Status", "Errors", "Warnings", "Deck", "Deck hash"]


class _Tables(HTMLParser):
    """Collect the text of every table cell (rows of cells) and every list item of rendered HTML."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.items: list[str] = []
        self.tags: list[str] = []
        self.links: list[dict[str, str | None]] = []  # the attributes of every <a>
        self._cell: list[str] | None = None
        self._item: list[str] | None = None

    def handle_starttag(self, tag: str, attrs) -> None:
        self.tags.append(tag)
        if tag == "a":
            self.links.append(dict(attrs))
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
        data = visible(data)
        for part in (self._cell, self._item):
            if part is not None:
                part.append(data)


ZERO_WIDTH = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff"))


def visible(text: str) -> str:
    """Return `text` as it reads: without the zero-width characters."""
    return text.translate(ZERO_WIDTH)


def render(markdown: str) -> str:
    """Return the HTML GitHub's renderer makes of `markdown` (raw HTML passed through, as in a job summary)."""
    return cmarkgfm.github_flavored_markdown_to_html(markdown, options=cmarkgfm.Options.CMARK_OPT_UNSAFE)


def parse(markdown: str) -> _Tables:
    """Render `markdown` as GitHub does; the cells and items hold the visible text."""
    parser = _Tables()
    parser.feed(render(markdown))
    return parser


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def shown(markdown: str) -> str:
    """Return the visible text of `markdown` as GitHub renders it (tags dropped, entities decoded)."""
    parser = _Text()
    parser.feed(render(markdown))
    parser.close()
    return visible("".join(parser.parts))
