"""`sengoku games` and `sengoku cards --game NAME`."""

from __future__ import annotations

import json

import pytest

from games_support import GAMES, ROOT, run


def test_games_lists_all_five_from_their_data() -> None:
    out = run("games", "--json")
    assert out.returncode == 0, out.stderr
    games = {g["id"]: g for g in json.loads(out.stdout)}
    assert list(games) == ["sengoku-yugi", *sorted(GAMES)]
    for game_id, g in games.items():
        folder = "sengoku" if game_id == "sengoku-yugi" else game_id
        cards = json.loads((ROOT / "card_db" / folder / "cards.json").read_text(encoding="utf-8"))["cards"]
        assert g["cards"] == len(cards) and g["sample"] is True
    assert games["senjutsu"]["sections"] == ["deck"]
    assert games["champions"]["sections"] == ["main", "champions"]
    assert games["senjutsu"]["opening_hand"]["size"] == 5 and games["senjutsu"]["opening_hand"]["per_round"] == 1
    assert games["fe-tcg"]["opening_hand"] is None and games["clan-tactics"]["goldfish"] == "none"
    assert games["sengoku-yugi"]["goldfish"] == "engine"
    assert {"deck-size", "jade-limit", "copy-limit", "passive-card"} <= set(games["senjutsu"]["rules"])


def test_games_table() -> None:
    out = run("games")
    assert out.returncode == 0
    for word in ("sengoku-yugi", "senjutsu", "fe-tcg", "clan-tactics", "champions", "5 from [[deck]]"):
        assert word in out.stdout
    assert out.stderr.strip() == "5 games"


@pytest.mark.parametrize("game", GAMES)
def test_cards_game_json_shows_every_card_with_its_fields(game: str) -> None:
    out = run("cards", "--game", game, "--json")
    assert out.returncode == 0, out.stderr
    cards = json.loads((ROOT / "card_db" / game / "cards.json").read_text(encoding="utf-8"))["cards"]
    assert json.loads(out.stdout) == cards


def test_cards_game_filters_and_table() -> None:
    out = run("cards", "--game", "senjutsu", "--kind", "passive", "--json")
    assert [c["id"] for c in json.loads(out.stdout)] == ["SJ-P1", "SJ-P2", "SJ-P3", "SJ-P4"]
    out = run("cards", "--game", "champions", "naira")
    assert out.returncode == 0 and "Naira, Herald of Yggdrasil" in out.stdout and "life modifier" in out.stdout
    assert out.stderr.strip() == "1 of 30 cards"


@pytest.mark.parametrize(("args", "says"), [
    (("--game", "chess"), "unknown game 'chess'"),
    (("--game", "fe-tcg", "--kind", "spell"), "valid: item, land, surprise, tome, unit, weapon"),
    (("--game", "fe-tcg", "--level", "2"), "--level filters SENGOKU YUGI cards only"),
    (("--game", "senjutsu", "--db", str(ROOT / "card_db/fe-tcg")), "is for 'fe-tcg', not 'senjutsu'"),
])
def test_cards_game_usage_errors_exit_2(args, says) -> None:  # type: ignore[no-untyped-def]
    out = run("cards", *args)
    assert out.returncode == 2 and says in out.stderr and "Traceback" not in out.stderr
