"""Issue 25, part 3: the reports start with the answer, then the details.

The goldfish text report and page open with a short summary (the kill turn: mean, p50 and won
by each of the first turns; the opponent model; the opening-hand check); `compare`, text and
page, opens with its verdicts. The figures of the summary are checked against the result's own.
"""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

from sengoku.goldfish.api import goldfish
from sengoku.goldfish.compare import compare
from sengoku.goldfish.reports.compare_html import render_compare_html
from sengoku.goldfish.reports.compare_html import reproduce_command as compare_command
from sengoku.goldfish.reports.compare_report import render_text
from sengoku.goldfish.reports.html_report import render_html, reproduce_command
from sengoku.goldfish.reports.report import render
from sengoku.goldfish.reports.summary import SUMMARY_TURNS, summary_lines
from sengoku.paths import data_dir

DECKS = data_dir("decklists")


@pytest.fixture(scope="module")
def result():  # type: ignore[no-untyped-def]
    return goldfish(runs=200, turns=12, policy="random", seed=3, jobs=1)


@pytest.fixture(scope="module")
def compared():  # type: ignore[no-untyped-def]
    return compare([DECKS / "default.toml", DECKS / "compare" / "no-level4.toml"], runs=200, seed=2, jobs=1)


def text_report(result) -> list[str]:  # type: ignore[no-untyped-def]
    out = io.StringIO()
    render(result, Console(file=out, width=200, highlight=False))
    return out.getvalue().splitlines()


def test_the_text_report_starts_with_the_summary(result) -> None:  # type: ignore[no-untyped-def]
    lines = text_report(result)
    k = result.kill_turn
    assert lines[0].startswith("Goldfish Sample Standard: Four Banners — 200 runs × 12 turns")
    assert lines[1].startswith("Commander: Soma")  # what was run: two lines, then the answer
    assert lines[2] == (f"Kill turn: mean {k['mean']:.2f}, p50 {k['p50']} over the games won "
                        f"({100 * k['won']['fraction']:.1f}% won within 12 turns)")
    # won by the end of each of the first turns that saw a win, from the result's own curve
    shown = dict(re.findall(r"(\d+): ([\d.]+)%", lines[3].removeprefix("Won by the end of turn ")))
    first = min(row["turn"] for row in k["by_turn"] if row["games"])
    assert min(map(int, shown)) == first and 1 <= len(shown) <= SUMMARY_TURNS
    for row in k["by_turn"]:
        if str(row["turn"]) in shown:
            assert shown[str(row["turn"])] == f"{100 * row['cumulative']['fraction']:.1f}"
    assert lines[4] == "Opponent: a mirror of the deck, not defending"
    assert lines[5].startswith("Opening-hand check: ok (3 events, every exact binomial tail at or above 3.33e-07")
    assert lines[6] == ""
    # then the details: the kill-turn table comes before the opening-hand tables
    where = {name: next(i for i, line in enumerate(lines) if line.startswith(name))
             for name in ("Kill turn (G5)", "Opening hand:", "Per turn:")}
    assert 7 == where["Kill turn (G5)"] < where["Opening hand:"] < where["Per turn:"]


def test_the_summary_of_a_run_with_no_win() -> None:
    quiet = goldfish(runs=20, turns=1, policy="idle", jobs=1)  # no attack on turn 1 going first (S8)
    assert summary_lines(quiet)[:2] == ["Kill turn: no game won within 1 turn",
                                        "Opponent: a mirror of the deck, not defending"]


def section_ids(page: str) -> list[str]:
    return re.findall(r'<section id="([^"]+)"', page)


def test_the_page_starts_with_the_summary_and_ends_with_how_it_was_made(result) -> None:  # type: ignore[no-untyped-def]
    page = render_html(result, reproduce_command(result))
    ids = [i for i in section_ids(page) if i.startswith("g-")]
    assert ids[0] == "g-summary" and ids[1] == "g-kill-turn-section" and ids[-1] == "g-run"
    assert ids.index("g-opening-hand") < ids.index("g-curves") < ids.index("g-deck")
    summary = page[page.index('<section id="g-summary">'):page.index("</section>")]
    for line in summary_lines(result):
        assert f"<li>{line}</li>" in summary  # no character in these lines needs escaping


def test_compare_text_starts_with_the_verdicts(compared) -> None:  # type: ignore[no-untyped-def]
    lines = render_text(compared).splitlines()
    assert lines[0].startswith("Verdicts against the baseline [0]")
    verdict = compared.verdicts()[0]
    assert lines[2].startswith(f"      mean kill turn: {verdict['kill_turn']}; ")
    assert lines[3].startswith(f"      won by turn 8: {verdict['won_by_last_turn']}; ")
    assert lines[4].startswith("Opponent: the baseline [0] ")
    assert lines[5].startswith("Opening-hand check: ok (6 events")
    assert lines.index("Kill turn: mean over every run, a run not won within 8 turns counting as 9") > 5


def test_compare_page_starts_with_the_verdicts(compared) -> None:  # type: ignore[no-untyped-def]
    page = render_compare_html(compared, compare_command(compared))
    ids = [i for i in section_ids(page) if i.startswith("c-")]
    assert ids[0] == "c-verdicts" and ids[1] == "c-differences" and ids[-1] == "c-run"
    verdicts = page[page.index('<section id="c-verdicts">'):]
    assert "Opening-hand check: ok (6 events" in verdicts[:verdicts.index("</section>")]
    assert "<p>Opponent: the baseline [0] " in verdicts[:verdicts.index("</section>")]
