"""`goldfish --html FILE`: what the page holds, how it is written, and how a real browser shows it."""

from __future__ import annotations

import os
import re
import shlex
import stat
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

from sengoku.goldfish.api import goldfish
from sengoku.goldfish.reports.html_report import CSP, render_html, reproduce_command
from sengoku.goldfish.reports.svg import Band, Line, chart, nice_top
from sengoku.paths import data_dir

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the browser helper sits in tests/
from headless_browser import needs_browser, png_pixels, show  # noqa: E402

RUNS = ("--runs", "100", "--turns", "6", "--policy", "random", "--seed", "3", "--jobs", "1")


class Page(HTMLParser):
    """The tags, attributes and text of a page, flat."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):  # type: ignore[no-untyped-def]
        self.tags.append((tag, dict(attrs)))

    def handle_startendtag(self, tag, attrs):  # type: ignore[no-untyped-def]
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):  # type: ignore[no-untyped-def]
        self.text.append(data)

    def all(self, tag: str) -> list[dict[str, str | None]]:
        return [a for t, a in self.tags if t == tag]


@pytest.fixture(scope="module")
def result():
    return goldfish(runs=300, turns=12, policy="random", seed=3, jobs=1, wants=["Soma:2"])


@pytest.fixture(scope="module")
def page_text(result) -> str:
    return render_html(result, reproduce_command(result, html="report.html"))


def test_the_page_holds_the_deck_the_database_and_the_run(result, page_text: str) -> None:
    text = " ".join(Page(page_text).text)
    for section in result.deck["sections"].values():
        for card in section:
            assert re.search(rf"<td class=\"num\">{card['count']}</td><td>{re.escape(card['name'])}</td>"
                             rf"<td class=\"num\">{card['level']}</td><td>{card['id']}</td>", page_text), card
    assert sum(c["count"] for c in result.deck["sections"]["main"]) == result.deck["main_cards"] == 52
    for key in ("name", "version", "sha256"):
        assert result.card_db[key] in text
    assert "0.3" in text and f"sengoku {result.to_dict()['sengoku_version']}" in text
    for p in result.opening_hand["probabilities"]:  # exact, simulated and the interval, as shown
        lo, hi = p["ci95"]
        assert f"{100 * p['exact']:.1f}%" in text and f"{100 * p['simulated']:.1f}%" in text
        assert f"{100 * lo:.1f}% – {100 * hi:.1f}%" in text
    for row in result.kill_turn["by_turn"]:
        assert f"{100 * row['cumulative']['fraction']:.1f}%" in text


def test_the_page_loads_nothing_and_names_every_chart_and_column(page_text: str) -> None:
    page = Page(page_text)
    assert not page.all("script") and not page.all("link") and not page.all("img") and not page.all("iframe")
    assert not re.search(r"\b(src|href)\s*=|url\(|@import|https?://(?!www\.w3\.org/2000/svg)", page_text)
    assert {"http-equiv": "Content-Security-Policy", "content": CSP} in page.all("meta")
    assert "default-src 'none'" in CSP
    svgs = page.all("svg")
    assert len(svgs) == 5  # kill turn, AP, allies, highest level, opponent's Stronghold HP
    ids = [a["id"] for _, a in page.tags if a.get("id")]
    assert len(ids) == len(set(ids))
    for svg in svgs:
        assert svg["role"] == "img"
        title, desc = str(svg["aria-labelledby"]).split()
        assert title in ids and desc in ids
    assert len(page.all("title")) == 1 + 5 and len(page.all("desc")) == 5
    assert len(page.all("table")) == len(page.all("thead")) + 1  # every table headed; the facts by row
    assert all(th.get("scope") in ("col", "row") for th in page.all("th"))
    assert "@media print" in page_text


def test_charts_tell_series_apart_without_colour() -> None:
    svg = chart("c", "T", "D", xs=[1, 2, 3, 4], x_label="turn", y_label="y",
                lines=[Line("mean", [1, None, 3, 4], 0), Line("median", [2, 2, 2, 2], 1)],
                band=Band("p10–p90", [0, None, 1, 1], [2, None, 5, 6]))
    assert svg.count("<polyline") == 3  # a turn no game played leaves a gap: two pieces for the mean
    assert svg.count("<polygon") == 2
    assert 'stroke-dasharray="7 4"' in svg and "<rect x=" in svg and "<circle" in svg  # dashes and marker shapes
    assert "<title id=\"c-title\">T</title>" in svg and "<desc id=\"c-desc\">D</desc>" in svg
    assert nice_top(37) == (40, 10) and nice_top(6) == (6, 2) and nice_top(0.4) == (0.4, 0.1)


def test_the_command_shown_reproduces_the_file(cli, tmp_path: Path, monkeypatch) -> None:
    first, again = tmp_path / "first", tmp_path / "again"
    first.mkdir()
    again.mkdir()
    monkeypatch.chdir(first)
    r = cli("goldfish", *RUNS, "--want", "Soma:2", "--going", "second", "--html", "report.html")
    assert r.code == 0, r.err
    assert "HTML report written to report.html" in r.err
    html = (first / "report.html").read_text(encoding="utf-8")
    command = re.search(r"<pre><code>(.*?)</code></pre>", html, re.S)
    assert command
    args = shlex.split(command.group(1).replace("&#x27;", "'").replace("&quot;", '"').replace("&amp;", "&"))
    assert args[:2] == ["sengoku", "goldfish"] and "--jobs" not in args
    assert args[args.index("--going") + 1] == "second" and args[args.index("--want") + 1] == "Soma:2"
    monkeypatch.chdir(again)
    r = cli(*args[1:])
    assert r.code == 0, r.err
    assert (again / "report.html").read_bytes() == (first / "report.html").read_bytes()


def test_the_command_spells_out_every_option_given(result) -> None:
    other = data_dir("decklists") / "ultimate.toml"
    r = goldfish(other, runs=20, turns=3, policy="charge", jobs=1, commander="soma", opponent=other,
                 opponent_defends=True, play_on=True, wants=["Oichi", "Soma:2"])
    args = shlex.split(reproduce_command(r, db="my db", html="out.html"))
    assert args == ["sengoku", "goldfish", str(other), "--runs", "20", "--turns", "3", "--seed", "0",
                    "--going", "first", "--policy", "charge", "--mode", "ultimate", "--commander", "Soma",
                    "--opponent", str(other), "--opponent-defends", "--play-on", "--want", "Oichi",
                    "--want", "Soma:2", "--db", "my db", "--html", "out.html"]
    assert reproduce_command(result).split()[2] == "--runs"  # the bundled default deck needs no path


def test_an_existing_file_is_kept_without_force_and_checked_before_the_games(cli, tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    out.write_text("keep me", encoding="utf-8")
    r = cli("goldfish", *RUNS, "--html", str(out))
    assert r.code == 2 and "already exists" in r.err and "--force" in r.err
    assert "games ×" not in r.err and r.out == ""  # refused before the simulation
    assert out.read_text(encoding="utf-8") == "keep me"
    r = cli("goldfish", *RUNS, "--html", str(out), "--force")
    assert r.code == 0 and out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_or_folder_is_never_replaced(cli, tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.html"
    os.mkfifo(fifo)
    for target in (fifo, tmp_path):
        r = cli("goldfish", *RUNS, "--html", str(target), "--force")
        assert r.code == 2 and "not a regular file" in r.err and "games ×" not in r.err
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe.html"]  # no temporary file left


def test_the_file_gets_the_umasks_mode(cli, tmp_path: Path) -> None:
    old = os.umask(0o027)
    try:
        r = cli("goldfish", *RUNS, "--html", str(tmp_path / "r.html"))
    finally:
        os.umask(old)
    assert r.code == 0 and stat.S_IMODE(os.stat(tmp_path / "r.html").st_mode) == 0o640


def test_another_games_deck_is_refused(cli, tmp_path: Path) -> None:
    deck = next(data_dir("decklists").glob("senjutsu/valid/*.toml"))
    r = cli("goldfish", str(deck), "--runs", "50", "--html", str(tmp_path / "r.html"))
    assert r.code == 2 and "--html drives SENGOKU YUGI's turn-by-turn engine" in r.err
    assert not (tmp_path / "r.html").exists()


# -- in a real browser ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def shown(tmp_path_factory, page_text: str):
    return show(tmp_path_factory.mktemp("html"), "report.html", page_text)


@needs_browser
def test_a_browser_shows_it_with_no_error_and_no_request(shown) -> None:
    assert shown.errors == []
    assert shown.requests == []


@needs_browser
def test_a_browser_draws_every_chart(shown) -> None:
    ids = [c["id"] for c in shown.charts]
    assert ids == ["g-kill-turn", "g-ap_main", "g-allies", "g-highest_level", "g-opp_stronghold_hp"]
    for c in shown.charts:
        assert c["width"] > 300 and c["height"] > 150, c
        assert c["title"] and len(c["desc"]) > 40, c
        assert c["drawn"] >= 2 and c["legend"] >= 2 and c["texts"] >= 10, c  # data, legend, axes
    assert [c["series"] for c in shown.charts] == [1, 2, 2, 2, 2]


@needs_browser
def test_the_screenshot_is_not_blank(shown) -> None:
    width, height, pixels = png_pixels(shown.screenshot)
    assert (width, height) == (round(shown.size[0] / 4), round(shown.size[1] / 4))
    inked = sum(1 for p in pixels if min(p) < 200)
    assert inked > 0.03 * len(pixels)
    assert len(set(pixels)) > 100
    # the win chart, full size: the bars' fill and the win curve's vermillion are painted
    _, _, chart_pixels = png_pixels(shown.chart_screenshot)

    def near(rgb: tuple[int, int, int]) -> int:
        return sum(1 for p in chart_pixels if max(abs(a - b) for a, b in zip(p, rgb)) < 24)

    assert near((0x9E, 0xCA, 0xE1)) > 500 and near((0xD5, 0x5E, 0x00)) > 100


@needs_browser
def test_the_browser_check_catches_errors_and_requests(tmp_path: Path) -> None:
    """The harness itself: a page that fetches and logs an error is reported, so a pass means something."""
    report = show(tmp_path, "bad.html", '<!DOCTYPE html><html><body><img src="http://127.0.0.1:9/x.png">'
                  '<svg class="chart" id="c" width="10" height="10"></svg>'
                  '<script>console.error("boom")</script></body></html>')
    assert "http://127.0.0.1:9/x.png" in report.requests
    assert any("boom" in e for e in report.errors)
