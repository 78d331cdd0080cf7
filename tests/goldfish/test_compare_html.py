"""`compare --html FILE`: the page against the JSON of the same comparison, how it is written, a real browser."""

from __future__ import annotations

import json
import math
import os
import re
import shlex
import stat
import sys
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

import pytest

from sengoku.goldfish.compare import compare
from sengoku.goldfish.reports.compare_html import render_compare_html, reproduce_command
from sengoku.goldfish.reports.html_report import CSP
from sengoku.paths import data_dir
from sengoku.version import __version__

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the browser helper sits in tests/
from headless_browser import needs_browser, png_pixels, show  # noqa: E402

DECKS = data_dir("decklists")
DEFAULT, ONE_CARD, NO_LEVEL4 = DECKS / "default.toml", DECKS / "compare" / "one-card.toml", \
    DECKS / "compare" / "no-level4.toml"
RUNS = ("--runs", "100", "--turns", "6", "--policy", "random", "--seed", "3", "--jobs", "1")
TABLES = {"kill_turn_mean": "c-diff-kill_turn_mean", "won_by_turn": "c-diff-won_by_turn",
          "ap_main": "c-diff-ap_main", "allies": "c-diff-allies", "opening_hand": "c-diff-opening_hand"}


class Page(HTMLParser):
    """The tags of a page, its text, and every table with an id as (header cells, body rows of cell text)."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []
        self.tables: dict[str, tuple[list[str], list[list[str]]]] = {}
        self._table: str | None = None
        self._row: list[str] | None = None
        self._cell: list[str] | None = None
        self.feed(text)

    def handle_starttag(self, tag, attrs):  # type: ignore[no-untyped-def]
        a = dict(attrs)
        self.tags.append((tag, a))
        if tag == "table" and a.get("id"):
            self._table = a["id"]
            self.tables[self._table] = ([], [])
        elif tag == "tr" and self._table:
            self._row = []
        elif tag in ("td", "th") and self._row is not None:
            self._cell = []

    def handle_startendtag(self, tag, attrs):  # type: ignore[no-untyped-def]
        self.tags.append((tag, dict(attrs)))

    def handle_endtag(self, tag):  # type: ignore[no-untyped-def]
        if tag in ("td", "th") and self._cell is not None and self._row is not None:
            self._row.append("".join(self._cell))
            self._cell = None
        elif tag == "tr" and self._row is not None and self._table:
            head, body = self.tables[self._table]
            if head:
                body.append(self._row)
            else:
                head.extend(self._row)
            self._row = None
        elif tag == "table":
            self._table = None

    def handle_data(self, data):  # type: ignore[no-untyped-def]
        self.text.append(data)
        if self._cell is not None:
            self._cell.append(data)

    def all(self, tag: str) -> list[dict[str, str | None]]:
        return [a for t, a in self.tags if t == tag]


@pytest.fixture(scope="module")
def result():
    return compare([DEFAULT, ONE_CARD, NO_LEVEL4], runs=150, turns=8, seed=4, policy="random", jobs=1,
                   wants=["Soma:2"])


@pytest.fixture(scope="module")
def page_text(result) -> str:
    return render_compare_html(result, reproduce_command(result, html="compare.html"))


def _number(cell: str) -> float:
    return float(cell.replace("%", "").replace(",", ""))


def test_every_difference_of_the_json_is_a_row_with_its_verdict(result, page_text: str) -> None:
    data = json.loads(result.to_json())
    page = Page(page_text)
    events = {p["event"]: p["label"] for p in data["decks"][0]["opening_hand"]["probabilities"]}
    label = {d["deck"]: f"[{k}]" for k, d in enumerate(data["decks"])}
    seen: dict[str, int] = {}
    for row in data["differences"]:
        measure, _, event = row["measure"].partition(":")
        table_id = TABLES[measure]
        seen[table_id] = seen.get(table_id, 0) + 1
        head, body = page.tables[table_id]
        key = events[event] if event else row["turn"]
        found = [cells for cells in body if cells[0] == label[row["deck"]]
                 and (key is None or cells[1] == str(key))]
        assert len(found) == 1, row
        cells = dict(zip(head, found[0]))
        # an undefined interval gives no verdict, and the page says why
        why = f" ({row['no_interval']})" if row["no_interval"] else ""
        assert cells["verdict"] == row["verdict"] + why, row
        diff_col = next(h for h in head if h.startswith("diff") or h.startswith("simulated diff"))
        scale, digits = {"won_by_turn": (100, 1), "opening_hand": (100, 2)}.get(measure, (1, 2))
        assert _number(cells[diff_col]) == pytest.approx(scale * row["diff"], abs=0.51 * 10 ** -digits), row
        shown = cells[next(h for h in head if h.startswith("95% interval"))]
        if row["ci95"] is None:
            assert shown == "none", row
            continue
        lo, hi = shown.split(" to ")
        assert (_number(lo), _number(hi)) == pytest.approx([scale * x for x in row["ci95"]], abs=0.51 * 10 ** -digits)
    assert seen == {t: len(page.tables[t][1]) for t in TABLES.values()}  # no row the JSON lacks
    assert {r["verdict"] for r in data["differences"]} >= {"worse", "no difference detectable at this precision"}
    verdicts = [dict(zip(page.tables["c-verdict-table"][0], cells)) for cells in page.tables["c-verdict-table"][1]]
    assert [(v["deck"], v["mean kill turn (lower is better)"], v["won by the end of turn 8 (higher is better)"])
            for v in verdicts] == [(f"{label[v['deck']]} {v['deck']}", v["kill_turn"], v["won_by_last_turn"])
                                   for v in data["verdicts"]]
    assert verdicts[1]["mean kill turn (lower is better)"] == "worse"  # no Level 4: known to be weaker


def test_the_decks_stand_side_by_side_with_the_database_and_the_options(result, page_text: str) -> None:
    text = " ".join(Page(page_text).text)
    for k, deck in enumerate(result.decks):
        column = re.search(rf'<section id="d{k}-deck">(.*?)</section>', page_text, re.S)
        assert column, k
        for section in deck.deck["sections"].values():
            for card in section:
                assert re.search(rf"<td class=\"num\">{card['count']}</td><td>{re.escape(card['name'])}</td>"
                                 rf"<td class=\"num\">{card['level']}</td><td>{card['id']}</td>", column.group(1))
        assert f"Commander (S1): {deck.commander['name']}" in text
    assert page_text.index('id="d0-deck"') < page_text.index('id="d1-deck"') < page_text.index('id="d2-deck"')
    for key in ("name", "version", "sha256"):
        assert result.baseline.card_db[key] in text
    assert f"sengoku {__version__}" in text and "random" in text
    for k, deck in enumerate(result.decks):  # each deck's kill-turn table, by its end
        section = re.search(rf'<section id="d{k}-kill-turn-section">(.*?)</section>', page_text, re.S)
        assert section
        for row in deck.kill_turn["by_turn"]:
            assert f"<td class=\"num\">{100 * row['cumulative']['fraction']:.1f}%</td>" in section.group(1)


def test_the_page_loads_nothing_and_names_every_chart(page_text: str) -> None:
    page = Page(page_text)
    assert not page.all("script") and not page.all("link") and not page.all("img") and not page.all("iframe")
    assert not re.search(r"\b(src|href)\s*=|url\(|@import|https?://(?!www\.w3\.org/2000/svg)", page_text)
    assert {"http-equiv": "Content-Security-Policy", "content": CSP} in page.all("meta")
    ids = [a["id"] for _, a in page.tags if a.get("id")]
    assert len(ids) == len(set(ids))
    svgs = page.all("svg")
    assert [s["id"] for s in svgs] == ["c-win-curve", "d0-kill-turn", "d1-kill-turn", "d2-kill-turn"]
    for svg in svgs:
        title, desc = str(svg["aria-labelledby"]).split()
        assert title in ids and desc in ids
    assert all(th.get("scope") in ("col", "row") for th in page.all("th"))


def test_the_win_curves_share_one_chart_told_apart_without_colour(result, page_text: str) -> None:
    svg = re.search(r'<svg[^>]*id="c-win-curve".*?</svg>', page_text, re.S)
    assert svg
    series = re.findall(r'<polyline class="series" points="([^"]*)"[^>]*?(stroke-dasharray="[^"]*")?/>', svg.group(0))
    assert len(series) == 3
    assert len({dash for _, dash in series}) == 3  # solid, dashed, dotted
    legend = re.findall(r'<g class="legend"[^>]*>(.*?)</g>', svg.group(0), re.S)
    assert [re.search(r"<text[^>]*>(.*?)</text>", g).group(1) for g in legend] == ["[0] baseline", "[1]", "[2]"]
    assert len({re.sub(r'fill="[^"]*"|x="[^"]*"|y="[^"]*"|x1="[^"]*"|x2="[^"]*"', "", g) for g in legend}) == 3
    for k, deck in enumerate(result.decks):  # the description carries every point, for screen readers too
        for row in deck.kill_turn["by_turn"]:
            assert f"turn {row['turn']} {100 * row['cumulative']['fraction']:.1f}%" in unescape(svg.group(0))


def test_the_command_shown_reproduces_the_file(cli, tmp_path: Path, monkeypatch) -> None:
    first, again = tmp_path / "first", tmp_path / "again"
    first.mkdir()
    again.mkdir()
    monkeypatch.chdir(first)
    r = cli("compare", str(DEFAULT), str(ONE_CARD), *RUNS, "--runs", "400", "--precision", "0.4", "--going",
            "second", "--want", "Soma:2", "--opponent-defends", "--html", "compare.html")
    assert r.code == 0, r.err
    assert "HTML report written to compare.html" in r.err
    html = (first / "compare.html").read_text(encoding="utf-8")
    command = re.search(r"<pre><code>(.*?)</code></pre>", html, re.S)
    assert command
    args = shlex.split(unescape(command.group(1)))
    assert args[:4] == ["sengoku", "compare", str(DEFAULT), str(ONE_CARD)] and "--jobs" not in args
    assert args[args.index("--precision") + 1] == "0.4" and "--opponent-defends" in args
    assert args[args.index("--going") + 1] == "second" and args[args.index("--want") + 1] == "Soma:2"
    monkeypatch.chdir(again)
    r = cli(*args[1:])
    assert r.code == 0, r.err
    assert (again / "compare.html").read_bytes() == (first / "compare.html").read_bytes()


def test_an_existing_file_is_kept_without_force_and_checked_before_the_games(cli, tmp_path: Path) -> None:
    out = tmp_path / "compare.html"
    out.write_text("keep me", encoding="utf-8")
    r = cli("compare", str(DEFAULT), str(ONE_CARD), *RUNS, "--html", str(out))
    assert r.code == 2 and "already exists" in r.err and "--force" in r.err
    assert "runs ×" not in r.err and r.out == ""  # refused before the simulation
    assert out.read_text(encoding="utf-8") == "keep me"
    old = os.umask(0o027)
    try:
        r = cli("compare", str(DEFAULT), str(ONE_CARD), *RUNS, "--html", str(tmp_path / "new.html"))
    finally:
        os.umask(old)
    assert r.code == 0 and stat.S_IMODE(os.stat(tmp_path / "new.html").st_mode) == 0o640
    r = cli("compare", str(DEFAULT), str(ONE_CARD), *RUNS, "--html", str(out), "--force")
    assert r.code == 0 and out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_or_folder_is_never_replaced(cli, tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.html"
    os.mkfifo(fifo)
    for target in (fifo, tmp_path):
        r = cli("compare", str(DEFAULT), str(ONE_CARD), *RUNS, "--html", str(target), "--force")
        assert r.code == 2 and "not a regular file" in r.err and "runs ×" not in r.err
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe.html"]  # no temporary file left


# -- in a real browser ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def shown(tmp_path_factory, page_text: str):
    return show(tmp_path_factory.mktemp("html"), "compare.html", page_text)


@needs_browser
def test_a_browser_shows_it_with_no_error_and_no_request(shown) -> None:
    assert shown.errors == []
    assert shown.requests == []


@needs_browser
def test_a_browser_draws_every_chart(shown) -> None:
    assert [c["id"] for c in shown.charts] == ["c-win-curve", "d0-kill-turn", "d1-kill-turn", "d2-kill-turn"]
    for c in shown.charts:
        assert c["width"] > 300 and c["height"] > 150, c
        assert c["title"] and len(c["desc"]) > 40, c
        assert c["drawn"] >= 1 and c["legend"] >= 2 and c["texts"] >= 10, c
    assert [c["series"] for c in shown.charts] == [3, 1, 1, 1]
    assert shown.charts[0]["drawn"] == 3 and shown.charts[0]["legend"] == 3


@needs_browser
def test_the_screenshot_is_not_blank(shown) -> None:
    width, height, pixels = png_pixels(shown.screenshot)
    # a quarter of the page, each side rounded one way or the other (7066 / 4 = 1766.5 came out as 1767)
    assert all(math.floor(side / 4) <= got <= math.ceil(side / 4) for got, side in zip((width, height), shown.size))
    assert sum(1 for p in pixels if min(p) < 200) > 0.03 * len(pixels)
    assert len(set(pixels)) > 100
    # the win-curve chart, full size: the three decks' colours are painted (blue, vermillion, green)
    _, _, chart_pixels = png_pixels(shown.chart_screenshot)

    def near(rgb: tuple[int, int, int]) -> int:
        return sum(1 for p in chart_pixels if max(abs(a - b) for a, b in zip(p, rgb)) < 24)

    assert near((0x00, 0x72, 0xB2)) > 100 and near((0xD5, 0x5E, 0x00)) > 20 and near((0x00, 0x9E, 0x73)) > 20


def test_a_long_legend_wraps_inside_the_chart() -> None:
    from sengoku.goldfish.reports.svg import HEIGHT, STYLES, WIDTH, Line, chart

    names = ["[0] baseline", *(f"[{k}]" for k in range(1, 12))]
    svg = chart("w", "T", "D", xs=[1, 2], x_label="turn", y_label="%",
                lines=[Line(n, [k, k + 1], style=k) for k, n in enumerate(names)], y_max=100)
    height = int(re.search(r'<svg[^>]* height="(\d+)"', svg).group(1))
    assert height > HEIGHT and f'viewBox="0 0 {WIDTH} {height}"' in svg
    where = r'<g class="legend" transform="translate\(([\d.]+) ([\d.]+)\)"'
    spots = [(float(x), float(y)) for x, y in re.findall(where, svg)]
    assert len(spots) == 12 and len({y for _, y in spots}) >= 2
    assert all(x + 44 + 7.8 * len(n) - 16 <= WIDTH for (x, _), n in zip(spots, names))
    assert len(set(STYLES)) == len(STYLES) == 6 and len({(d, m) for _, d, m in STYLES}) == 6  # dash and marker
