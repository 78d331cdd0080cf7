"""The docs site builds with `mkdocs build --strict`: every page in the nav, no link to a missing
page or anchor, no page left out of the nav.

Needs the docs tools (`pip install -e '.[docs]'`): the `mkdocs` beside this Python, or the one
$SENGOKU_MKDOCS names. Without them the test is skipped, except where SENGOKU_REQUIRE_DOCS=1 (CI,
.ci/run), where it fails.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

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


def test_the_site_builds_strictly(tmp_path: Path) -> None:
    mkdocs = _mkdocs()
    if mkdocs is None:
        if os.environ.get("SENGOKU_REQUIRE_DOCS") == "1":
            pytest.fail("SENGOKU_REQUIRE_DOCS=1 but no mkdocs: pip install -e '.[docs]' or set SENGOKU_MKDOCS")
        pytest.skip("mkdocs not installed (pip install -e '.[docs]')")
    site = tmp_path / "site"
    done = subprocess.run([*mkdocs, "build", "--strict", "--site-dir", str(site)], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert done.returncode == 0, done.stdout + done.stderr
    for page in ("index.html", "cli/index.html", "validation/index.html", "rules/index.html"):
        assert (site / page).is_file(), page
    assert "sengoku goldfish" in (site / "cli" / "index.html").read_text(encoding="utf-8")


def test_every_page_is_in_the_nav() -> None:
    """--strict fails on a page left out of the nav (`omitted_files: warn`); this says which, without mkdocs."""
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    pages = sorted(p.name for p in (ROOT / "docs").glob("*.md"))
    assert [p for p in pages if f": {p}" not in config] == []
