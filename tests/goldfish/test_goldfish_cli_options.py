"""goldfish option values a user can get wrong: refused up front (exit 2), before any game is played."""

from __future__ import annotations

from pathlib import Path

import pytest


def test_plot_into_a_missing_folder_is_refused_before_simulating(cli, tmp_path: Path) -> None:
    target = tmp_path / "no-such-folder" / "curve.svg"
    r = cli("goldfish", "--runs", "10", "--turns", "1", "--plot", str(target))
    assert r.code == 2
    assert str(target) in r.err and "no such folder" in r.err
    assert r.out == ""  # no report printed before the refusal
    assert "games ×" not in r.err  # and no games played


def test_plot_onto_a_folder_is_refused(cli, tmp_path: Path) -> None:
    folder = tmp_path / "curve.svg"
    folder.mkdir()
    r = cli("goldfish", "--runs", "10", "--turns", "1", "--plot", str(folder))
    assert (r.code, r.out) == (2, "")
    assert "is a folder" in r.err


@pytest.mark.parametrize("jobs", ["0", "-3"])
def test_jobs_below_one_is_a_usage_error(cli, jobs: str) -> None:
    r = cli("goldfish", "--runs", "10", "--turns", "1", "--jobs", jobs)
    assert (r.code, r.out) == (2, "")
    assert f"jobs must be at least 1, not {jobs}" in r.err


def test_absurd_runs_are_refused_like_other_games(cli) -> None:
    # 10**23 games would run for geological time; the other games' path already caps --runs.
    r = cli("goldfish", "--runs", str(10**23), "--json")
    assert (r.code, r.out) == (2, "")
    assert "--runs must be from 1 to 10,000,000" in r.err


def test_another_games_db_for_the_engine_is_a_clear_error(cli) -> None:
    from sengoku.paths import data_dir

    senjutsu = data_dir("card_db") / "senjutsu"
    r = cli("goldfish", "--runs", "10", "--turns", "1", "--db", str(senjutsu))
    assert (r.code, r.out) == (2, "")
    assert "Traceback" not in r.err
    assert str(senjutsu / "cards.json") in r.err and "a senjutsu card database" in r.err


@pytest.mark.parametrize("typed", ["kagetora", "ＫＡＧＥＴＯＲＡ", " Kagetora "])
def test_commander_and_want_names_are_read_like_decklist_names(cli, typed: str) -> None:
    import json

    r = cli("goldfish", "--runs", "20", "--turns", "1", "--json", "--commander", typed, "--want", typed + ":1")
    assert r.code == 0, r.err
    data = json.loads(r.out)
    assert data["commander"]["name"] == "Kagetora" and data["commander"]["chosen"] == "named"
    assert [p["event"] for p in data["opening_hand"]["probabilities"]][3] == "want:Kagetora:1"


def test_a_want_with_two_counts_says_so(cli) -> None:
    r = cli("goldfish", "--runs", "10", "--want", "Soma:2:3")
    assert r.code == 2
    assert "one count per want" in r.err and "no character card" not in r.err


def test_jobs_above_the_cores_are_capped_with_a_note(cli, monkeypatch) -> None:
    from sengoku.goldfish import options

    monkeypatch.setattr(options, "usable_cores", lambda: 2)
    r = cli("goldfish", "--runs", "50", "--turns", "2", "--jobs", "5000", "--json")
    assert r.code == 0
    assert "--jobs 5000 is more than the 2 core(s)" in r.err and "up to 2 job(s)" in r.err


def test_shell_completion_is_on(cli, monkeypatch) -> None:
    # the shell named, not detected from the processes above the test run (there may be no shell there)
    monkeypatch.setenv("_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION", "1")
    r = cli("--show-completion", "bash")
    assert r.code == 0 and "complete" in r.out and "sengoku" in r.out.lower()


def test_a_card_whose_name_holds_a_colon_can_be_wanted(cli, tmp_path: Path) -> None:
    """The same deck with Yukimura renamed 'Yukimura: Red Demon': the same exact probability."""
    import json

    from sengoku.paths import data_dir

    root = Path(__file__).resolve().parents[2]
    cards = json.loads((data_dir("card_db") / "sengoku" / "cards.json").read_text(encoding="utf-8"))
    renamed = "Yukimura: Red Demon"
    for card in cards["cards"]:
        if card.get("name") == "Yukimura":
            card["name"] = renamed
    (tmp_path / "cards.json").write_text(json.dumps(cards), encoding="utf-8")
    deck = tmp_path / "deck.toml"
    deck.write_text((root / "decklists" / "default.toml").read_text(encoding="utf-8")
                    .replace('name = "Yukimura"', f'name = "{renamed}"'), encoding="utf-8")

    def chance(*args: str) -> float:
        r = cli("goldfish", *args, "--runs", "50", "--turns", "1", "--json")
        assert r.code == 0, r.err
        return json.loads(r.out)["opening_hand"]["probabilities"][-1]

    plain = chance(str(root / "decklists" / "default.toml"), "--want", "Yukimura:2")
    for typed in (f"{renamed}:2", f'"{renamed}":2'):
        colon = chance(str(deck), "--db", str(tmp_path), "--want", typed)
        assert colon["event"] == f"want:{renamed}:2"
        assert colon["label"] == f"≥2 {renamed}"
        assert {k: v for k, v in colon.items() if k not in ("event", "label")} == \
            {k: v for k, v in plain.items() if k not in ("event", "label")}
    assert chance(str(deck), "--db", str(tmp_path), "--want", renamed)["event"] == f"want:{renamed}:1"
