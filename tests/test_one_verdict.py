"""One verdict per deck and per database: what `validate` or the engine refuses, every command refuses.

Each test failed before: goldfish played Senjutsu and champions decks that validate refused, a
decklist's `format` key opened any file it named, db check passed an Egg with a self-boost and
a board whose Perimeter cannot take the Nameless, and SARIF gave a rule id another game's text.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from sengoku.paths import data_dir

DECKS = data_dir("decklists")
BUNDLED = data_dir("card_db") / "sengoku"
VALID = [DECKS / "default.toml", *sorted(DECKS.glob("*/valid/*.toml"))]


def _misspelt_key(text: str) -> str:
    return 'nmae = "a misspelt key"\n' + text


def _count_zero(text: str) -> str:
    return re.sub(r"(?m)^count = \d+$", "count = 0", text, count=1)


@pytest.mark.parametrize("mutate", [_misspelt_key, _count_zero], ids=["misspelt-key", "count-0"])
@pytest.mark.parametrize("deck", VALID, ids=lambda p: p.relative_to(DECKS).as_posix())
def test_goldfish_refuses_what_validate_refuses_in_every_game(cli, tmp_path: Path, deck: Path, mutate) -> None:
    text = deck.read_text(encoding="utf-8")
    assert cli("validate", str(deck))[0] == 0  # the deck as bundled is valid
    bad = tmp_path / deck.name
    bad.write_text(mutate(text), encoding="utf-8")
    if bad.read_text(encoding="utf-8") == text:
        pytest.skip("no `count = N` line to change")
    code, out, err = cli("validate", str(bad))
    assert code == 1 and " error syntax " in out
    code, out, err = cli("goldfish", str(bad), "-n", "10")
    assert code in (1, 2) and out == ""  # refused (1: not valid; 2: this game deals no hand): never played
    assert "Traceback" not in err


# 6. A decklist's `format` is a name, never a path ------------------------------------------

@pytest.mark.parametrize("name", ["../../../../../../etc/passwd", "/etc/passwd", "../formats/sample-championship",
                                  "sample-championship.toml", "..", "/nonexistent/file"])
def test_a_decklists_format_key_is_never_opened_as_a_path(cli, tmp_path: Path, name: str) -> None:
    deck = tmp_path / "deck.toml"
    deck.write_text(f"format = {json.dumps(name)}\n" + (DECKS / "default.toml").read_text(encoding="utf-8"),
                    encoding="utf-8")
    code, out, err = cli("validate", str(deck), "-o", "json")
    assert code == 1
    (problem,) = [v for v in json.loads(out)["results"][0]["violations"] if v["rule"] == "unknown-format"]
    # the same words whether or not the file exists: nothing about the file system leaks
    assert problem["message"].startswith(f"format {name!r}: a decklist's `format` is a format name")
    assert "known formats: sample-championship" in problem["message"]


def test_a_format_named_in_a_decklist_is_still_found_in_the_formats_folder(cli, tmp_path: Path) -> None:
    deck = tmp_path / "deck.toml"
    deck.write_text('format = "sample-championship"\n' + (DECKS / "default.toml").read_text(encoding="utf-8"),
                    encoding="utf-8")
    code, out, err = cli("validate", str(deck), "-o", "json")
    assert json.loads(out)["results"][0]["format"] == "sample-championship"


# 8. db check catches what the engine would refuse -------------------------------------------

def _db(tmp_path: Path) -> Path:
    folder = tmp_path / "db"
    shutil.copytree(BUNDLED, folder)
    return folder


def test_an_egg_with_a_self_boost_is_a_db_check_problem(cli, tmp_path: Path) -> None:
    db = _db(tmp_path)
    data = json.loads((db / "cards.json").read_text(encoding="utf-8"))
    index, egg = next((i, c) for i, c in enumerate(data["cards"]) if c.get("is_egg"))
    egg["boost"]["physical"] = [1]
    (db / "cards.json").write_text(json.dumps(data, indent=1), encoding="utf-8")
    code, out, err = cli("db", "check", str(db), "--json")
    assert code == 1
    (problem,) = [p for p in json.loads(out) if p["code"] == "boost-level"]
    assert problem["json_path"] == f"$.cards[{index}].boost.physical" and problem["card_id"] == egg["id"]


def test_a_board_without_room_for_the_nameless_is_a_db_check_problem(cli, tmp_path: Path) -> None:
    db = _db(tmp_path)
    board = json.loads((db / "board.json").read_text(encoding="utf-8"))
    board["stronghold_perimeter"] = board["stronghold_perimeter"][:1]
    (db / "board.json").write_text(json.dumps(board, indent=1), encoding="utf-8")
    code, out, err = cli("db", "check", str(db), "--json")
    assert code == 1
    (problem,) = [p for p in json.loads(out) if p["code"] == "board-perimeter-too-small"]
    assert problem["json_path"] == "$.stronghold_perimeter" and "2 Nameless" in problem["message"]
    code, out, err = cli("goldfish", str(DECKS / "default.toml"), "--db", str(db), "-n", "1")
    assert code == 2 and "board-perimeter-too-small" not in err and "Perimeter has 1 usable" in err


def test_the_perimeter_needed_follows_the_folders_own_rule_file(cli, tmp_path: Path) -> None:
    db = _db(tmp_path)
    rules = (db / "game.toml").read_text(encoding="utf-8")
    three = rules.replace('min = 2\nmax = 2\nshow_cards = true\nmessage = "the deck has {count} Nameless cards; '
                          'it must have exactly 2"', 'min = 2\nmax = 6\nshow_cards = true\nmessage = "the deck has '
                          '{count} Nameless cards; it must have 2 to 6"')
    assert three != rules
    (db / "game.toml").write_text(three, encoding="utf-8")
    code, out, err = cli("db", "check", str(db), "--json")
    (problem,) = [p for p in json.loads(out) if p["code"] == "board-perimeter-too-small"]
    assert "has 5 usable space(s), but a deck's 6 Nameless" in problem["message"]


# 10. SARIF: each result points at its own game's rule --------------------------------------

def test_sarif_of_several_games_points_each_result_at_its_own_games_rule(cli) -> None:
    sengoku_deck, senjutsu_deck = DECKS / "invalid" / "deck-size.toml", DECKS / "senjutsu" / "invalid" / "thirty-nine.toml"
    code, out, err = cli("validate", str(sengoku_deck), str(senjutsu_deck), "-o", "sarif")
    (run,) = json.loads(out)["runs"]
    rules = run["tool"]["driver"]["rules"]
    assert len({r["id"] for r in rules}) == len(rules)  # unique ids
    by_file = {}
    for res in run["results"]:
        rule = rules[res["ruleIndex"]]
        assert rule["id"] == res["ruleId"]
        by_file.setdefault(res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], []).append(rule)
    (own,) = [r for r in by_file[sengoku_deck.as_uri()] if r["name"] == "deck-size"]
    (other,) = [r for r in by_file[senjutsu_deck.as_uri()] if r["name"] == "deck-size"]
    assert (own["id"], other["id"]) == ("sengoku-yugi/deck-size", "senjutsu/deck-size")
    assert "50 to 60" in own["shortDescription"]["text"] and "40" in other["shortDescription"]["text"]
