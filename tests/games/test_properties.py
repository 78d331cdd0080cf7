"""Property: no decklist of the four games makes the validator or the opening-hand report crash."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games_support import GAMES, ROOT
from sengoku.decklist.read import parse_decklist
from sengoku.errors import SengokuError
from sengoku.goldfish.other_games import opening_hand_report

NAMES = {g: [c["name"] for c in json.loads((ROOT / "card_db" / g / "cards.json").read_text(encoding="utf-8"))["cards"]]
         for g in GAMES}
SECTIONS = {"senjutsu": ["deck"], "fe-tcg": ["deck"], "clan-tactics": ["deck"], "champions": ["main", "champions"]}


@st.composite
def decklists(draw):  # type: ignore[no-untyped-def]
    game = draw(st.sampled_from(GAMES))
    lines = [f'game = "{game}"']
    if game == "champions" and draw(st.booleans()):
        lines.append(f"players = {draw(st.integers(-2, 9))}")
    if draw(st.booleans()):
        lines.append(f"starting_life = {draw(st.integers(-5, 100))}")
    for _ in range(draw(st.integers(0, 12))):
        section = draw(st.sampled_from(SECTIONS[game] + ["bogus"]))
        name = draw(st.one_of(st.sampled_from(NAMES[game]), st.text(max_size=12)))
        lines += [f"[[{section}]]", f"name = {json.dumps(name)}", f"count = {draw(st.integers(-1, 120))}"]
    return "\n".join(lines) + "\n"


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=decklists())
def test_never_raises(text: str, validator) -> None:  # type: ignore[no-untyped-def]
    deck, syntax = parse_decklist(text, "<prop>")
    result = validator.validate_deck(deck, syntax)
    assert all(v.rule and v.message for v in result.violations)
    try:
        report = opening_hand_report(deck, runs=20, seed=0)
    except SengokuError:
        return  # no hand in this game, an invalid deck, ...: a clear refusal
    assert result.valid and 0 <= min(e["exact"] for e in report["events"]) <= 1
