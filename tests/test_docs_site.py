"""The docs site builds with `mkdocs build --strict`: every page in the nav, no link to a missing
page or anchor, no page left out of the nav.

Needs the docs tools (`pip install -e '.[docs]'`): the `mkdocs` beside this Python, or the one
$SENGOKU_MKDOCS names. Without them the test is skipped, except where SENGOKU_REQUIRE_DOCS=1 (CI,
.ci/run), where it fails.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from html import unescape
from pathlib import Path
from urllib.parse import urlparse

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]


def _mkdocs() -> list[str] | None:
    named = os.environ.get("SENGOKU_MKDOCS")
    if named:
        return [named]
    beside = Path(sys.executable).with_name("mkdocs")
    if beside.is_file():
        return [str(beside)]
    if importlib.util.find_spec("mkdocs") is not None:
        return [sys.executable, "-m", "mkdocs"]
    found = shutil.which("mkdocs")
    return [found] if found else None


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built once with --strict for the tests of this module."""
    mkdocs = _mkdocs()
    if mkdocs is None:
        if os.environ.get("SENGOKU_REQUIRE_DOCS") == "1":
            pytest.fail("SENGOKU_REQUIRE_DOCS=1 but no mkdocs: pip install -e '.[docs]' or set SENGOKU_MKDOCS")
        pytest.skip("mkdocs not installed (pip install -e '.[docs]')")
    site = tmp_path_factory.mktemp("docs") / "site"
    done = subprocess.run([*mkdocs, "build", "--strict", "--site-dir", str(site)], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert done.returncode == 0, done.stdout + done.stderr
    return site


def _cells(html: str) -> list[str]:
    """The text of every table cell of a built page, tags dropped and entities read."""
    return [unescape(re.sub(r"<[^>]+>", "", cell)) for cell in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", html, re.S)]


def test_the_site_builds_strictly(site: Path) -> None:
    for page in ("index.html", "cli/index.html", "validation/index.html", "rules/index.html"):
        assert (site / page).is_file(), page
    assert "sengoku goldfish" in (site / "cli" / "index.html").read_text(encoding="utf-8")


def test_a_bar_in_a_table_cells_code_is_a_bar_on_the_site(site: Path) -> None:
    """GitHub needs `\\|` for a bar in code in a table; the site must show the bar alone (copied commands work)."""
    cells = {page: _cells((site / page).read_text(encoding="utf-8"))
             for page in ("index.html", "goldfish/index.html", "cli/index.html")}
    assert [(page, c) for page, found in cells.items() for c in found if "\\|" in c] == []
    for page, shown in [("index.html", "-o text|json|github|junit|sarif|markdown"),
                        ("index.html", "[--jobs N | --cluster ADDRESS]"),
                        ("index.html", "sengoku cards | head -1"),
                        ("goldfish/index.html", "--going first|second"),
                        ("cli/index.html", "--objective kill-turn|won-by:T")]:
        assert any(shown in c for c in cells[page]), (page, shown)
    markdown = "".join((ROOT / "docs" / name).read_text(encoding="utf-8") for name in ("index.md", "cli.md"))
    assert "text\\|json" in markdown  # the source keeps GitHub's escape: the hook, not the page, changes it


def test_the_site_knows_its_address_and_its_repository(site: Path) -> None:
    """site_url and repo_url: a sitemap with addresses, a 404 page that works under the site's sub-path,
    and the pages' links to repository files as links to the repository."""
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    site_url, repo_url = config["site_url"], config["repo_url"]
    sitemap = (site / "sitemap.xml").read_text(encoding="utf-8")
    assert f"<loc>{site_url}</loc>" in sitemap and f"<loc>{site_url}rules/</loc>" in sitemap
    sub_path = urlparse(site_url).path  # /sengoku/: 404.html is served for any missing path below it
    assert f'href="{sub_path}assets/' in (site / "404.html").read_text(encoding="utf-8")
    rules = (site / "rules" / "index.html").read_text(encoding="utf-8")
    links = re.findall(rf'href="{re.escape(repo_url)}/blob/main/([^"#]+)', rules)
    assert len(links) > 100 and all((ROOT / link).exists() for link in set(links))


def test_the_api_reference_is_built_from_the_docstrings(site: Path) -> None:
    import sengoku

    page = (site / "api-reference" / "index.html").read_text(encoding="utf-8")
    headings = re.findall(r'<h3 id="([\w.]+)"', page)
    assert len(headings) == len(sengoku.__all__) - 1  # every public name but __version__
    assert {h.rsplit(".", 1)[1] for h in headings} == set(sengoku.__all__) - {"__version__"}
    goldfish = _cells_free(page.split('id="sengoku.goldfish.api.goldfish"', 1)[1].split("<h3", 1)[0])
    assert "runs=" in goldfish and "options=" in goldfish  # the signature, not (*args, **kwargs)
    assert "GoldfishResult" in goldfish  # and the docstring


def _cells_free(html: str) -> str:
    return unescape(re.sub(r"<[^>]+>", "", html))


def test_the_nav_is_by_reader() -> None:
    nav = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))["nav"]
    sections = {next(iter(item)): next(iter(item.values())) for item in nav}
    assert list(sections)[:5] == ["Getting started", "Tournament organisers", "Deck builders", "How it works", "Python API"]

    def pages(section: str) -> set[str]:
        entries = sections[section]
        return {next(iter(e.values())) for e in entries} if isinstance(entries, list) else {entries}

    assert pages("Tournament organisers") >= {"validation.md", "formats-and-ci.md"}
    assert pages("Deck builders") == {"goldfish.md", "compare.md", "tune.md", "impact.md", "trace.md"}
    assert pages("How it works") >= {"policies.md", "common-random-numbers.md", "simulation-checks.md", "rules.md",
                                      "architecture.md"}


def test_every_page_is_in_the_nav() -> None:
    """--strict fails on a page left out of the nav (`omitted_files: warn`); this says which, without mkdocs."""
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    pages = sorted(p.name for p in (ROOT / "docs").glob("*.md"))
    assert [p for p in pages if f": {p}" not in config] == []
