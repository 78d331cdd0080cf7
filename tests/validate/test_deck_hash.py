"""The deck hash: unchanged by anything `fmt` changes, changed by any card, count, mode or card database."""

from __future__ import annotations

import hashlib
import json
import random
import re
import shutil
import tomllib
from pathlib import Path

import pytest
import tomli_w
from hypothesis import given, settings, strategies as st

from sengoku.decklist.fmt import canonical_decklist
from sengoku.validate import validate_file
from sengoku.validate.reporters import render
from sengoku.validate.api import validate_paths

DECKLISTS = Path(__file__).resolve().parents[2] / "decklists"


def default_text() -> str:
    return (DECKLISTS / "default.toml").read_text(encoding="utf-8")


DEFAULT = tomllib.loads(default_text())


def _text(data: dict, comments: bool = False) -> str:
    text = tomli_w.dumps(data)
    if comments:
        text = "# registered for the spring open\n" + text.replace("[[main]]\n", "[[main]] # a card\n")
    return text


def _hash(write, text: str, **kwargs) -> str | None:
    return validate_file(write(text), **kwargs).deck_hash


def test_every_machine_output_carries_the_deck_hash() -> None:
    run = validate_paths([DECKLISTS / "default.toml"])
    (expected,) = [r.deck_hash for r in run.results]
    assert expected is not None and len(expected) == 64 and int(expected, 16) >= 0
    assert json.loads(render("json", run))["results"][0]["deck_hash"] == expected
    sarif = json.loads(render("sarif", run))
    assert sarif["runs"][0]["properties"]["decks"][0]["deck_hash"] == expected
    import xml.etree.ElementTree as ET

    props = {p.get("name"): p.get("value") for p in ET.fromstring(render("junit", run)).iter("property")}
    assert props == {"deck_hash": expected, "deck_name": DEFAULT["name"]}


def test_the_readme_definition_recomputes_it_from_the_json_report() -> None:
    # What the validation page tells an organiser to compute, from the JSON report alone.
    report = json.loads(render("json", validate_paths([DECKLISTS / "default.toml", DECKLISTS / "ultimate.toml"])))
    assert len(report["results"]) == 2
    for r in report["results"]:
        content = {"card_db": report["card_db"]["hash"], "game": r["game"], "mode": r["mode"],
                   "sections": r["sections"]}
        text = json.dumps(content, sort_keys=True, separators=(",", ":"))
        assert hashlib.sha256(text.encode("utf-8")).hexdigest() == r["deck_hash"]


def test_the_readme_recipe_recomputes_it(tmp_path, monkeypatch, capsys) -> None:
    readme = (DECKLISTS.parent / "docs" / "validation.md").read_text(encoding="utf-8")
    (recipe,) = [b for b in re.findall(r"```python\n(.*?)```", readme, re.S) if '"deck_hash"' in b]
    run = validate_paths([DECKLISTS / "default.toml", DECKLISTS / "ultimate.toml"])
    (tmp_path / "report.json").write_text(render("json", run), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    exec(compile(recipe, "docs/validation.md", "exec"), {})
    lines = capsys.readouterr().out.splitlines()
    assert [line.rsplit(" ", 1)[1] for line in lines] == ["True", "True"]


def test_reformatting_reordering_renaming_and_comments_keep_it(write) -> None:
    original = _hash(write, default_text())
    data = json.loads(json.dumps(DEFAULT))
    data["name"] = "Another name for the same list"
    main = data["main"]
    random.Random(7).shuffle(main)
    # one card named by id instead of name + level, one split in two entries (summed, D3)
    kagetora = next(e for e in main if e["name"] == "Kagetora" and e["level"] == 1)
    kagetora.clear()
    kagetora.update(id="SY1-005", count=3)
    soma = next(e for e in main if e.get("name") == "Soma" and e.get("level") == 1)
    soma["count"] = 1
    main.append({"name": "Soma", "level": 1, "count": 2})
    scrambled = _text(data, comments=True)
    assert scrambled != default_text()
    assert _hash(write, scrambled) == original
    formatted = canonical_decklist(scrambled).formatted
    assert formatted != scrambled
    assert _hash(write, formatted) == original


@settings(max_examples=25, deadline=None)
@given(st.randoms(use_true_random=False), st.booleans())
def test_any_order_of_entries_keeps_it(tmp_path_factory, rnd, comments) -> None:
    folder = tmp_path_factory.mktemp("order")
    data = json.loads(json.dumps(DEFAULT))
    rnd.shuffle(data["main"])
    rnd.shuffle(data["nameless"])
    path = folder / "deck.toml"
    path.write_text(_text(data, comments), encoding="utf-8")
    assert validate_file(path).deck_hash == validate_file(DECKLISTS / "default.toml").deck_hash


def _changed(mutate) -> str:
    data = json.loads(json.dumps(DEFAULT))
    mutate(data)
    return _text(data)


@pytest.mark.parametrize("what, mutate", [
    ("a count", lambda d: d["main"][0].update(count=d["main"][0]["count"] - 1)),
    ("a card", lambda d: d["main"][0].update(name="Oichi" if d["main"][0]["name"] != "Oichi" else "Soma")),
    ("a card's level", lambda d: d["main"][0].update(level=2)),
    ("a card added", lambda d: d["nameless"].append({"id": "SY1-001"})),
    ("a section", lambda d: d.setdefault("nameless", []).append(d["main"].pop(0))),
    ("the mode", lambda d: d.update(mode="ultimate")),
])
def test_any_card_count_section_or_mode_changes_it(write, what, mutate) -> None:
    original = _hash(write, default_text())
    changed = _hash(write, _changed(mutate))
    assert changed is not None and changed != original, what


def test_another_card_database_changes_it(write, scratch_db) -> None:
    deck = write(default_text())
    bundled = validate_file(deck).deck_hash
    assert validate_file(deck, db=scratch_db).deck_hash == bundled  # the same bytes: the same hash
    other = scratch_db.parent / "other-db"
    shutil.copytree(scratch_db, other)
    cards = other / "cards.json"
    cards.write_bytes(cards.read_bytes() + b"\n")  # the same cards, another file
    assert validate_file(deck, db=other).deck_hash not in (None, bundled)


def test_a_deck_whose_cards_are_not_known_has_none(write) -> None:
    unknown = _changed(lambda d: d["main"][0].update(name="Nobody"))
    assert _hash(write, unknown) is None
    assert _hash(write, default_text().replace("count = 3", "count = 'three'", 1)) is None  # a syntax error
    run = validate_paths([write(unknown)])
    assert json.loads(render("json", run))["results"][0]["deck_hash"] is None
