"""MkDocs hooks: links from a docs page to a file of the repository outside docs/, and bars in
table cells' code.

The pages link to source files, schemas and tests by relative path (`../src/sengoku/...`), which
works where the Markdown is read in the repository, and which tests/test_rules_reference.py
checks. The built site has no such files: with `repo_url` set in mkdocs.yml such a link becomes
a link to the file in the repository, otherwise the path is shown as code. Every other link is
left to MkDocs, whose --strict build fails on a link to nothing.

A bar inside code in a table cell is written `\\|`, as GitHub's Markdown (GFM) needs it there: it
splits cells on every unescaped bar, code or not, and drops the backslash. Python-Markdown's
tables never split on a bar inside code and keep the backslash, so the site showed `text\\|json`
and a copied command was wrong. The hook gives Python-Markdown the bare bar, in table rows only;
the pages stay right for GitHub (tests/test_docs_site.py reads the built cells).
"""

from __future__ import annotations

import posixpath
import re
from typing import Any

_CODE = re.compile(r"(`+)(.+?)\1")
_FENCE = re.compile(r"^\s*(```|~~~)")
_LINK = re.compile(r"(?<!!)\[([^\]\n]+)\]\((\.\./[^)\s#]+)(#[^)\s]*)?\)")


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    base = posixpath.dirname(page.file.src_uri)
    repo = (config.get("repo_url") or "").rstrip("/")

    def outside(match: re.Match[str]) -> str:
        text, target, anchor = match.group(1), match.group(2), match.group(3) or ""
        path = posixpath.normpath(posixpath.join("docs", base, target))
        if path.startswith("docs/") or path.startswith(".."):
            return match.group(0)  # a page of the site, or outside the repository: MkDocs judges it
        if repo:
            return f"[{text}]({repo}/blob/main/{path}{anchor})"
        return text if text.startswith("`") else f"{text} (`{path}`)"

    return _table_code_bars(_LINK.sub(outside, markdown))


def _table_code_bars(markdown: str) -> str:
    """Turn `\\|` into `|` inside code spans of table rows (lines starting with `|`), outside fences."""
    lines, fenced = markdown.split("\n"), False
    for i, line in enumerate(lines):
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced and line.lstrip().startswith("|"):
            lines[i] = _CODE.sub(lambda m: m.group(1) + m.group(2).replace("\\|", "|") + m.group(1), line)
    return "\n".join(lines)
