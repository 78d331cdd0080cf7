"""The card database page's description of the bundled sample set states numbers; they must be the data's."""

from __future__ import annotations

import json
import re
from collections import defaultdict
from pathlib import Path

from sengoku.paths import data_dir

PAGE = Path(__file__).resolve().parents[2] / "docs" / "card-database.md"


def test_readme_sample_set_numbers_match_cards_json() -> None:
    text = " ".join(PAGE.read_text(encoding="utf-8").split())
    cards = json.loads((data_dir("card_db") / "sengoku" / "cards.json").read_text(encoding="utf-8"))["cards"]
    levels: dict[str, set[int]] = defaultdict(set)
    for c in cards:
        if c["kind"] in ("main", "support"):
            levels[c["name"]].add(c["level"])
    familiars = [c for c in cards if c["kind"] == "familiar"]
    stated = re.search(r"(\d+) cards in two sets .*? (\d+) character names \((\d+) with Levels 1–4\).*? "
                       r"(\d+) Nameless cards .*? (\d+) familiars with (\d+) Familiar Eggs", text)
    assert stated, "the page's sample-set sentence changed shape"
    assert [int(n) for n in stated.groups()] == [
        len(cards),
        len(levels),
        sum(1 for lv in levels.values() if lv == {1, 2, 3, 4}),
        sum(1 for c in cards if c["kind"] == "nameless"),
        len(familiars),
        sum(1 for c in familiars if c["is_egg"]),
    ]
