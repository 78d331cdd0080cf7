"""`sengoku goldfish` end to end on the bundled default deck: shape, determinism, idle baseline, errors."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import sengoku
from sengoku.paths import data_dir

MEASURES = ("ap_main", "ap_charge_base", "ap_charge_cards", "ap_growth_focus", "ap_spent", "ap_end",
            "allies", "highest_level", "hp_total", "hand", "stronghold",
            "opp_stronghold_hp", "attacks", "stronghold_hits", "allies_lost")


def test_json_shape(cli) -> None:
    r = cli("goldfish", "--runs", "300", "--turns", "5", "--json", "--jobs", "1")
    assert r.code == 0, r.err
    data = json.loads(r.out)
    for key in ("runs", "turns", "seed", "going", "policy", "mode", "commander", "opening_hand", "curve",
                "first_level3", "first_level4", "skipped_abilities", "card_db", "kill_turn", "play_on"):
        assert key in data, key
    assert (data["runs"], data["turns"], data["seed"], data["going"], data["policy"], data["mode"]) == \
        (300, 5, 0, "first", "greedy", "standard")
    assert [row["turn"] for row in data["curve"]] == [1, 2, 3, 4, 5]
    for row in data["curve"]:
        assert set(row) == {"turn", "games", *MEASURES}
        if row["games"] == 0:  # every game was won before this turn
            assert all(row[m] is None for m in MEASURES)
            continue
        for m in MEASURES:
            s = row[m]
            assert set(s) == {"mean", "p10", "p50", "p90"}
            assert s["p10"] <= s["p50"] <= s["p90"]
    probs = data["opening_hand"]["probabilities"]
    assert [p["event"] for p in probs] == ["commander_growth_focus", "level1", "turn1_deployable"]
    for p in probs:
        assert set(p) >= {"event", "exact", "simulated", "ci95"}
        assert p["ci95"][0] <= p["simulated"] <= p["ci95"][1]
    first3 = data["first_level3"]
    assert sum(row["games"] for row in first3["by_turn"]) + first3["never"]["games"] + first3["won_before"]["games"] == 300
    kill = data["kill_turn"]
    assert set(kill) == {"by_turn", "won", "never", "mean", "p10", "p50", "p90", "mean_all_games", "opponent"}
    assert [set(row) for row in kill["by_turn"]] == [{"turn", "games", "fraction", "cumulative"}] * 5
    assert kill["by_turn"][-1]["cumulative"]["games"] + kill["never"]["games"] == 300
    assert data["card_db"]["sha256"] and data["card_db"]["version"]
    assert data["sengoku_version"] == sengoku.__version__  # which games a seed gives is per version


def test_idle_policy_ap_is_start_plus_ten_per_turn(cli) -> None:
    # G2: idle never charges cards and never acts; S7 start AP + T2a 10 per turn, no spread at all
    for going, start in (("first", 0), ("second", 5)):
        r = cli("goldfish", "--runs", "200", "--turns", "6", "--policy", "idle", "--going", going, "--json")
        assert r.code == 0, r.err
        curve = json.loads(r.out)["curve"]
        for row in curve:
            want = start + 10 * row["turn"]
            assert row["ap_main"] == {"mean": want, "p10": want, "p50": want, "p90": want}
            assert row["ap_spent"]["p90"] == 0 and row["ap_charge_cards"]["p90"] == 0
            assert row["ap_charge_base"]["mean"] == 10


def test_same_seed_same_bytes_and_jobs_do_not_matter(cli, monkeypatch) -> None:
    from sengoku.goldfish.play import simulate

    monkeypatch.setattr(simulate, "MIN_RUNS_PER_JOB", 1)  # let a small run really use 2 processes
    args = ("goldfish", "--runs", "400", "--turns", "6", "--seed", "42", "--json", "--want", "Soma:2")
    one = cli(*args, "--jobs", "1")
    again = cli(*args, "--jobs", "1")
    two = cli(*args, "--jobs", "2")
    assert one.code == two.code == 0, (one.err, two.err)
    assert one.out == again.out
    assert one.out == two.out
    other = cli("goldfish", "--runs", "400", "--turns", "6", "--seed", "43", "--json", "--want", "Soma:2")
    assert other.out != one.out  # the seed matters


def test_text_report_has_tables_and_chart(cli) -> None:
    r = cli("goldfish", "--runs", "200", "--turns", "4")
    assert r.code == 0, r.err
    assert "Opening hand" in r.out and "AP at Main Phase start" in r.out
    assert "●" in r.out and "p10–p90" in r.out  # the terminal chart
    assert "games/s" in r.err  # the human summary goes to stderr


def test_invalid_deck_exit_1_with_validator_report(cli, tmp_path: Path) -> None:
    deck = tmp_path / "small.toml"
    deck.write_text('name = "too small"\nmode = "standard"\n\n[[main]]\nname = "Soma"\nlevel = 1\ncount = 3\n',
                    encoding="utf-8")
    r = cli("goldfish", str(deck), "--runs", "10")
    assert r.code == 1
    assert "not valid" in r.err
    assert "deck-size" in r.err  # the validator's rule id, from its report
    assert r.out == ""
    assert "Traceback" not in r.err


def test_unknown_want_exit_2(cli) -> None:
    r = cli("goldfish", "--runs", "10", "--want", "Nobunaga:2")
    assert r.code == 2
    assert "Nobunaga" in r.err and "no character card" in r.err
    assert "Traceback" not in r.err


def test_missing_deck_and_bad_options_exit_2(cli, tmp_path: Path) -> None:
    r = cli("goldfish", str(tmp_path / "nope.toml"), "--runs", "10")
    assert r.code == 2 and "nope.toml" in r.err
    assert cli("goldfish", "--runs", "10", "--policy", "clever").code == 2
    assert cli("goldfish", "--runs", "10", "--going", "third").code == 2
    assert cli("goldfish", "--runs", "0").code == 2
    r = cli("goldfish", "--runs", "10", "--commander", "Nobunaga")
    assert r.code == 2 and "Nobunaga" in r.err
    r = cli("goldfish", "--runs", "10", "--plot", str(tmp_path / "x.gif"))
    assert r.code == 2 and ".png or .svg" in r.err


def test_commander_can_be_pinned(cli) -> None:
    r = cli("goldfish", "--runs", "50", "--turns", "2", "--commander", "Kagetora", "--json")
    assert r.code == 0, r.err
    data = json.loads(r.out)
    assert data["commander"]["name"] == "Kagetora" and data["commander"]["chosen"] == "named"
    assert data["opening_hand"]["probabilities"][0]["label"].endswith("(Kagetora)")


def test_plot_svg(cli, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "curve.svg"
    r = cli("goldfish", "--runs", "100", "--turns", "3", "--json", "--plot", str(out))
    assert r.code == 0, r.err
    assert out.read_text(encoding="utf-8").lstrip().startswith("<?xml")
    assert [p.name for p in tmp_path.iterdir()] == ["curve.svg"]  # no temp file left behind


def test_plot_without_matplotlib_is_a_clear_error(cli, tmp_path: Path, monkeypatch) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "matplotlib" else real(name, *a))
    r = cli("goldfish", "--runs", "10", "--plot", str(tmp_path / "x.png"))
    assert r.code == 2
    assert "sengoku[plot]" in r.err
    assert not (tmp_path / "x.png").exists()


def test_default_deck_is_bundled() -> None:
    assert (data_dir("decklists") / "default.toml").is_file()


def test_same_bytes_across_processes_and_hash_seeds() -> None:
    # G3: nothing may depend on the process (string hashing, set order, fork vs. fresh start)
    import os
    import subprocess
    import sys

    outs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run([sys.executable, "-m", "sengoku", "goldfish", "--runs", "300", "--turns", "4",
                               "--json", "--want", "Oichi:1", "--want", "Soma:2", "--jobs", "1"],
                              capture_output=True, text=True, env=env)
        assert done.returncode == 0, done.stderr
        outs.append(done.stdout)
    assert outs[0] == outs[1]


def test_choice_words_ignore_case(cli) -> None:
    r = cli("goldfish", "--runs", "50", "--turns", "2", "--policy", "IDLE", "--going", " Second",
            "--mode", "Standard", "--json")
    assert r.code == 0, r.err
    data = json.loads(r.out)
    assert (data["policy"], data["going"], data["mode"]) == ("idle", "second", "standard")
    assert data["curve"][1]["ap_main"]["mean"] == 5 + 10 * 2  # idle, going second (S7, T2a)


def test_the_summary_line_says_when_the_engine_runs_as_pure_python(cli) -> None:
    # A build without a C compiler falls back to pure Python (hatch_build.py): about half the
    # speed, same games. The stderr summary says so, so a slow run explains itself.
    from sengoku.build import engine_compiled

    r = cli("goldfish", "--runs", "50", "--json")
    assert r.code == 0, r.err
    assert "50 games × 8 turns in " in r.err
    assert ("pure-Python engine" in r.err) == (not engine_compiled())


def test_a_deck_name_shows_no_hidden_character_in_the_text_report(cli, tmp_path: Path) -> None:
    """A bidi override or a terminal escape in a decklist's name is shown escaped, not obeyed."""
    root = Path(__file__).resolve().parents[2]
    deck = tmp_path / "deck.toml"
    text = (root / "decklists" / "default.toml").read_text(encoding="utf-8")
    deck.write_text(re.sub(r'^name = ".*"$', 'name = "ab\\\\u202ecd\\\\u001b[31m"', text, count=1, flags=re.M),
                    encoding="utf-8")
    r = cli("goldfish", str(deck), "--runs", "10", "--turns", "1")
    assert r.code == 0, r.err
    assert r.out.splitlines()[0].startswith("Goldfish ab\\u202ecd\\x1b[31m — ")
    assert "\u202e" not in r.out and "\x1b" not in r.out
