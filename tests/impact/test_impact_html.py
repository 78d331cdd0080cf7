"""`impact --html FILE`: the page against the JSON of the same race, the command it shows, and a real browser."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from html import unescape
from pathlib import Path

import pytest

from cli_run import run_captured
from impact_planted import DEFAULT_DECK

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the browser helper sits in tests/
from headless_browser import needs_browser, png_pixels, show  # noqa: E402

ARGS = ("--card", "Soma Lv1", "--card", "Kagetora Lv2", "--card", "Ronin", "--precision", "0.1", "--jobs", "1",
        "--seed", "5")


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """One race written as JSON and as the page (same options, same race)."""
    folder = tmp_path_factory.mktemp("impact-html")
    page = folder / "impact.html"
    proc = subprocess.run([sys.executable, "-m", "sengoku", "impact", str(DEFAULT_DECK), *ARGS, "--json", "--html",
                           str(page)], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    return {"json": json.loads(proc.stdout), "page": page, "text": page.read_text(encoding="utf-8")}


def _text(html: str) -> str:
    return unescape(re.sub(r"<[^>]+>", " ", html))


def test_the_page_answers_first_then_shows_the_chart_the_table_and_the_options(made: dict) -> None:
    text = made["text"]
    assert text.index('id="i-answer"') < text.index('id="i-chart"') < text.index('id="i-table"') < text.index('id="i-run"')
    plain = " ".join(_text(text).split())
    result = made["json"]
    for card in result["cards"]:
        assert card["label"] in plain
    assert "Opponent: a mirror of the full deck, for every card's deck, not defending" in plain
    assert "seed 5, going first, policy greedy, standard mode" in plain
    assert result["correction"] in plain  # the correction, named
    assert "associations, not effects" in plain
    # every measured card's effect is a row of the table, as the JSON has it
    for card in result["cards"]:
        if card["effect"] is not None:
            assert f"{card['effect']:+.2f}" in plain


def test_the_command_shown_reproduces_the_page(made: dict, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    command = unescape(re.search(r"<pre><code>(sengoku impact [^<]+)</code></pre>", made["text"]).group(1))
    args = shlex.split(command)[1:]
    again = tmp_path / "again.html"
    args[args.index("--html") + 1] = str(again)
    got = run_captured(capsys, *args)
    assert got.code == 0, got.err
    assert again.read_text(encoding="utf-8") == made["text"].replace(str(made["page"]), str(again))


def test_an_existing_page_is_kept_without_force(made: dict, capsys: pytest.CaptureFixture[str]) -> None:
    before = made["page"].read_text(encoding="utf-8")
    got = run_captured(capsys, "impact", str(DEFAULT_DECK), *ARGS, "--html", str(made["page"]))
    assert got.code == 2 and "already exists" in got.err and "--force" in got.err
    assert made["page"].read_text(encoding="utf-8") == before


def test_the_html_file_is_never_the_deck_itself(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    deck = tmp_path / "deck.toml"
    deck.write_text(DEFAULT_DECK.read_text(encoding="utf-8"), encoding="utf-8")
    got = run_captured(capsys, "impact", str(deck), "--html", str(deck), "--force", "--jobs", "1")
    assert got.code == 2 and "--html" in got.err
    assert deck.read_text(encoding="utf-8") == DEFAULT_DECK.read_text(encoding="utf-8")


# -- in a real browser ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def shown(tmp_path_factory: pytest.TempPathFactory, made: dict):  # type: ignore[no-untyped-def]
    return show(tmp_path_factory.mktemp("html"), "impact.html", made["text"])


@needs_browser
def test_a_browser_shows_it_with_no_error_and_no_request(shown) -> None:  # type: ignore[no-untyped-def]
    assert shown.errors == []
    assert shown.requests == []


@needs_browser
def test_a_browser_draws_the_effects_and_their_intervals(shown, made: dict) -> None:  # type: ignore[no-untyped-def]
    assert [c["id"] for c in shown.charts] == ["i-effects"]
    chart = shown.charts[0]
    assert chart["width"] > 300 and chart["height"] > 150, chart
    assert chart["title"] == "Each card's effect, one copy fewer"
    measured = [c for c in made["json"]["cards"] if c["effect"] is not None]
    assert all(c["label"] in chart["desc"] for c in measured)
    assert chart["series"] == 2 and chart["drawn"] == 3 and chart["legend"] == 3  # effect, 0, and the band
    width, height, pixels = png_pixels(shown.screenshot)
    assert sum(1 for p in pixels if min(p) < 200) > 0.02 * len(pixels)
