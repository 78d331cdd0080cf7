"""No input crashes the checks: whatever a hand-edited card database holds, `check_data` returns
problems (schema, then semantic checks on the cards that passed it) and never raises."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from sengoku.carddb.load import check_data

BASE = json.loads((Path(__file__).parent / "valid" / "every_kind.json").read_text(encoding="utf-8"))
FIELDS = sorted({k for card in BASE["cards"] for k in card})
JUNK = st.one_of(st.none(), st.booleans(), st.integers(-5, 99), st.text(max_size=12),
                 st.sampled_from(["main", "support", "nameless", "familiar", "Harbee", "Soma", "T-001"]),
                 st.lists(st.integers(0, 9), max_size=3), st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))


@settings(max_examples=300, deadline=None)
@given(edits=st.lists(st.tuples(st.integers(0, len(BASE["cards"]) - 1), st.sampled_from(FIELDS), st.booleans(), JUNK),
                      min_size=1, max_size=5),
       extra=st.lists(JUNK, max_size=2))
def test_mangled_cards_never_crash_the_checks(edits, extra) -> None:
    data = json.loads(json.dumps(BASE))
    for index, field, remove, value in edits:
        if remove:
            data["cards"][index].pop(field, None)
        else:
            data["cards"][index][field] = value
    data["cards"].extend(extra)
    problems = check_data("x.json", data, json.dumps(data, indent=1))
    for p in problems:
        assert p.path == "x.json" and p.json_path.startswith("$") and p.message


@settings(max_examples=100, deadline=None)
@given(value=JUNK)
def test_any_top_level_value_is_a_problem_not_a_crash(value) -> None:
    problems = check_data("x.json", value, json.dumps(value))
    assert problems and all(p.severity == "error" for p in problems)
