"""A resolved deck against a format list: banned, restricted, limited, allowed sets."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from sengoku.decklist.model import DeckEntry
from sengoku.formats.legality import format_violations
from sengoku.formats.load import load_format
from sengoku.formats.model import Format, FormatError, FormatList
from sengoku.paths import data_dir

CARDS = {c["id"]: c for c in json.loads((data_dir("card_db") / "sengoku" / "cards.json").read_text())["cards"]}


def entry(card_id: str, count: int, line: int, section: str = "main") -> tuple[DeckEntry, str]:
    return DeckEntry(section=section, count=count, id=card_id, line=line, column=1), card_id


def made_up(**lists: object) -> Format:
    return Format(name="t", title="Test Cup", game="sengoku-yugi",
                  lists=(FormatList(effective=dt.date(2026, 1, 1), source="test", **lists),))


def test_banned_is_reported_at_every_entry_line() -> None:
    fmt = made_up(banned=frozenset({"SY1-004"}))
    out = format_violations(fmt, [entry("SY1-001", 3, 5), entry("SY1-004", 1, 9), entry("SY1-004", 1, 14)], CARDS)
    assert [(v.rule, v.severity, v.line, v.cards) for v in out] == [
        ("banned", "error", 9, ("SY1-004",)), ("banned", "error", 14, ("SY1-004",))]
    assert 'Soma Lv4 "Lord of the Raging Sky" (SY1-004) is banned in Test Cup (list of 2026-01-01)' == out[0].message


def test_restricted_sums_copies_across_entries_and_points_at_the_first() -> None:
    fmt = made_up(restricted=frozenset({"SY1-008"}))
    ok = format_violations(fmt, [entry("SY1-008", 1, 4)], CARDS)
    assert ok == []
    out = format_violations(fmt, [entry("SY1-008", 1, 4), entry("SY1-001", 3, 8), entry("SY1-008", 1, 12)], CARDS)
    assert len(out) == 1
    v = out[0]
    assert (v.rule, v.line, v.column, v.cards) == ("restricted", 4, 1, ("SY1-008",))
    assert "restricted to 1 copy" in v.message and "the deck holds 2 (entries at lines 4, 12)" in v.message


@pytest.mark.parametrize(("copies", "expected"), [(1, 0), (2, 0), (3, 1)])
def test_limited_allows_up_to_n(copies: int, expected: int) -> None:
    fmt = made_up(limited={"SY1-004": 2})
    out = format_violations(fmt, [entry("SY1-004", copies, 20)], CARDS)
    assert len(out) == expected
    if out:  # one rule id for restricted and limited overruns (documented in legality.py)
        assert out[0].rule == "restricted" and "limited to 2 copies" in out[0].message
        assert "the deck holds 3" in out[0].message and out[0].line == 20


def test_sets_make_other_sets_and_setless_cards_not_legal() -> None:
    fmt = made_up(sets=frozenset({"SY1"}))
    cards = dict(CARDS)
    cards["X-1"] = {"id": "X-1", "name": "Nobody", "level": 1}  # a card without a set code
    out = format_violations(fmt, [entry("SY1-001", 3, 3), entry("SY2-001", 3, 7), entry("X-1", 1, 11)], cards)
    assert [(v.rule, v.line, v.cards) for v in out] == [("not-legal", 7, ("SY2-001",)), ("not-legal", 11, ("X-1",))]
    assert "its set 'SY2' is not among the allowed sets (SY1)" in out[0].message
    assert "carries no set code" in out[1].message


def test_all_rules_at_once_sorted_by_line() -> None:
    fmt = made_up(banned=frozenset({"SY2-012"}), restricted=frozenset({"SY1-008"}),
                  limited={"SY1-004": 2}, sets=frozenset({"SY1"}))
    out = format_violations(fmt, [entry("SY1-004", 3, 2), entry("SY1-008", 2, 6), entry("SY2-012", 1, 10)], CARDS)
    assert [(v.rule, v.line) for v in out] == [("restricted", 2), ("restricted", 6), ("banned", 10), ("not-legal", 10)]


def test_sample_format_on_two_dates() -> None:
    """The bundled default deck holds 2 Kagetora Lv4: restricted in the first list only."""
    fmt = load_format("sample-championship")
    deck = [entry("SY1-005", 3, 10), entry("SY1-008", 2, 44), entry("SY1-004", 2, 24)]
    early = format_violations(fmt, deck, CARDS, as_of="2026-03-01")
    assert [(v.rule, v.line, v.cards) for v in early] == [("restricted", 44, ("SY1-008",))]
    assert format_violations(fmt, deck, CARDS, as_of=dt.date(2026, 7, 1)) == []
    later = format_violations(fmt, [*deck, entry("SY2-012", 1, 60), entry("SY2-004", 1, 64)], CARDS, as_of="2026-07-01")
    assert [(v.rule, v.line) for v in later] == [("banned", 60)]
    with pytest.raises(FormatError, match="no list in force"):
        format_violations(fmt, deck, CARDS, as_of="2025-12-31")
