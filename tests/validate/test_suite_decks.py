"""The policy suite (decklists/suite/): at least eight valid decks of different kinds (`sengoku validate`).

benchmarks/policy_bench.py plays the default policy against `search` on every deck here; the
suite is only a fair test of the policies if it spans the kinds of deck users build.
"""

from __future__ import annotations

import tomllib
from collections import Counter
from pathlib import Path

import pytest

from sengoku.validate import validate_paths

SUITE = Path(__file__).resolve().parents[2] / "decklists" / "suite"
DECKS = sorted(SUITE.glob("*.toml"))


def read(path: Path) -> dict:
    return tomllib.loads(path.read_text(encoding="utf-8"))


def test_sengoku_validate_passes_every_suite_deck(cli):
    assert len(DECKS) >= 8
    code, out, err = cli("validate", str(SUITE))
    assert code == 0
    assert f"{len(DECKS)} file(s): {len(DECKS)} valid, 0 invalid; 0 error(s), 0 warning(s)" in out + err
    assert out.count(" valid (sengoku-yugi") == len(DECKS)


@pytest.mark.parametrize("path", DECKS, ids=lambda p: p.stem)
def test_each_suite_deck_is_valid(path):
    run = validate_paths([path], strict=True)
    assert run.exit_code == 0 and run.summary() == {"files": 1, "passed": 1, "failed": 0, "errors": 0, "warnings": 0}


def test_the_suite_holds_every_kind_of_deck():
    decks = {p.stem: read(p) for p in DECKS}
    size = {k: sum(e.get("count", 1) for e in d["main"]) for k, d in decks.items()}
    levels = {k: Counter() for k in decks}
    for k, d in decks.items():
        for e in d["main"]:
            levels[k][e["level"]] += e.get("count", 1)
    assert levels["low-curve"][3] + levels["low-curve"][4] == 0  # low curve: Level 1-2 only
    assert levels["high-level-supports"][3] + levels["high-level-supports"][4] >= 25
    assert any(e["name"] in ("Sorin", "Nene", "Kansuke") for e in decks["high-level-supports"]["main"])
    assert {e["name"] for e in decks["mat-heavy"]["nameless"]} >= {"Onmyoji"}  # magic stone, MAT 6
    assert 60 in size.values()
    commander_names = {e["name"] for e in decks["one-commander"]["main"] if e["level"] == 1}
    assert commander_names == {"Soma"}
    assert {e["level"] for e in decks["one-commander"]["main"] if e["name"] == "Soma"} == {1, 2, 3, 4}
    ultimate = [d for d in decks.values() if d["mode"] == "ultimate"]
    assert len(ultimate) >= 2
    lines = [frozenset(e["name"] for e in d["familiars"]) for d in ultimate]
    assert len(set(lines)) == len(lines) and not lines[0] & lines[1] - {"Radiant Stone of Red", "Hinoko"}
