"""The quick screen of a database's strings finds what the full walk finds, at the same paths."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sengoku.carddb.strings as strings

TEXTS = st.one_of(st.sampled_from(["", " ", "Soma", "a\tb", "line\nbreak", "\u00a0", "\x1b[31m", "x\u202ey"]),
                  st.text(max_size=4))
KEYS = st.sampled_from(["id", "name", "epithet", "set", "text", "note", "kind", "cards", "meta"])
VALUES = st.recursive(st.one_of(TEXTS, st.integers(), st.none()),
                      lambda inner: st.one_of(st.lists(inner, max_size=3),
                                              st.dictionaries(KEYS, inner, max_size=3)),
                      max_leaves=12)
DATABASES = st.one_of(VALUES, st.fixed_dictionaries({"meta": st.dictionaries(KEYS, TEXTS, max_size=3),
                                                     "cards": st.lists(st.dictionaries(KEYS, VALUES, max_size=4),
                                                                       max_size=4)}))


def full_walk(data: Any) -> list[Any]:
    with pytest.MonkeyPatch.context() as m:
        m.setattr(strings, "_suspect", lambda value: True)
        return strings.string_problems("cards.json", data)


@settings(max_examples=200, deadline=None)
@given(DATABASES)
def test_screened_walk_reports_what_the_full_walk_reports(data: Any) -> None:
    assert strings.string_problems("cards.json", data) == full_walk(data)


def test_a_blank_name_and_a_hidden_character_in_the_thousandth_card_are_found() -> None:
    cards = [{"id": f"C{i}", "name": f"Card {i}", "text": "a\nb"} for i in range(1000)]
    cards[998]["name"] = " "
    cards[999]["epithet"] = "x\u200by"
    found = strings.string_problems("cards.json", {"meta": {"name": "set"}, "cards": cards})
    assert [(p.json_path, p.rule, p.card_id) for p in found] == [
        ("$.cards[998].name", "blank", "C998"), ("$.cards[999].epithet", "hidden-character", "C999")]


@settings(max_examples=300, deadline=None)
@given(DATABASES, st.booleans(), st.sampled_from([None, 0, 1, 2]))
def test_a_database_passed_on_its_text_has_nothing_the_walk_would_report(data: Any, ascii_only: bool,
                                                                          indent: int | None) -> None:
    import json

    text = json.dumps(data, ensure_ascii=ascii_only, indent=indent)
    assert strings.string_problems("cards.json", data, text) == full_walk(data)


@pytest.mark.parametrize("text", ['{"name": " "}', '{"id" :\n ""}', '{"text": "a\\u0007b"}', '{"note": "x\u2028y"}',
                                  '{"epithet": "\\t"}', '{"set": "\u3000"}'])
def test_the_text_screen_looks_closer_at_each_kind_of_finding(text: str) -> None:
    import json

    assert not strings._clean_text(text)
    assert strings.string_problems("cards.json", json.loads(text), text) == full_walk(json.loads(text)) != []
