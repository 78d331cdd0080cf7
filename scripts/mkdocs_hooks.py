"""MkDocs hook: links from a docs page to a file of the repository outside docs/.

The pages link to source files, schemas and tests by relative path (`../src/sengoku/...`), which
works where the Markdown is read in the repository, and which tests/test_rules_reference.py
checks. The built site has no such files: with `repo_url` set in mkdocs.yml such a link becomes
a link to the file in the repository, otherwise the path is shown as code. Every other link is
left to MkDocs, whose --strict build fails on a link to nothing.
"""

from __future__ import annotations

import posixpath
import re
from typing import Any

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

    return _LINK.sub(outside, markdown)
