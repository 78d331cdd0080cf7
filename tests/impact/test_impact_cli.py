"""`sengoku impact` end to end: the same JSON for --jobs 1, --jobs 2 and a Dask LocalCluster, its schema, the
text report's answer first, and unusable input refused with the right exit code."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from cli_run import run_captured
from impact_planted import DEFAULT_DECK, ROOT

SCHEMA = Draft202012Validator(json.loads((ROOT / "schemas" / "impact.schema.json").read_text(encoding="utf-8")))
CLUSTER_REQUIRED = os.environ.get("SENGOKU_REQUIRE_CLUSTER") == "1"
SMALL = [str(DEFAULT_DECK), "--card", "Soma Lv1", "--card", "Kagetora Lv2", "--card", "Ronin", "--precision", "0.05",
         "--json"]


def _impact(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sengoku", "impact", *args], capture_output=True, text=True,
                          timeout=600, cwd=ROOT)


@pytest.fixture(scope="module")
def one_process() -> str:
    proc = _impact(*SMALL, "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_the_json_follows_its_schema(one_process: str) -> None:
    result = json.loads(one_process)
    SCHEMA.validate(result)
    assert [c["label"] for c in result["cards"]][-1] == "Ronin Lv1"  # the card that cannot be measured comes last
    assert result["cards"][-1]["verdict"] == "cannot be measured"
    assert result["options"]["going"] == "first" and result["opponent"]["deck"] == "mirror"
    assert result["games"] == sum(look["runs"] * (look["racing"] + 1) for look in _spans(result["looks"]))


def _spans(looks: list[dict]) -> list[dict]:
    """Each look's own runs (the JSON gives the runs so far)."""
    before = 0
    out = []
    for look in looks:
        out.append({"runs": look["runs"] - before, "racing": look["racing"]})
        before = look["runs"]
    return out


def test_two_processes_give_the_same_report(one_process: str) -> None:
    proc = _impact(*SMALL, "--jobs", "2")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == one_process
    assert "on 2 local processes" in proc.stderr


def test_a_dask_local_cluster_gives_the_same_report(one_process: str) -> None:
    try:
        import dask.distributed  # noqa: F401
    except ImportError:
        if CLUSTER_REQUIRED:
            pytest.fail("SENGOKU_REQUIRE_CLUSTER=1 but dask.distributed is not installed")
        pytest.skip("dask.distributed is not installed (the optional cluster extra)")
    proc = _impact(*SMALL, "--cluster", "local:2")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == one_process
    assert "Dask cluster local:2" in proc.stderr


def test_the_text_report_names_everything_first_and_answers_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    got = run_captured(capsys, "impact", str(DEFAULT_DECK), "--card", "Soma Lv1", "--card", "Ronin", "--precision",
                       "0.1", "--jobs", "1", "--going", "first", "--seed", "7")
    assert got.code == 0, got.err
    lines = got.out.splitlines()
    assert lines[0].startswith("Impact of each card of ")
    assert lines[2] == "Options: turns 8, seed 7, going first, policy greedy, standard mode, Commander Soma (S1)."
    assert lines[3] == "Opponent: a mirror of the full deck, for every card's deck, not defending."
    assert lines[5].startswith("Correction: the words are corrected for the cards measured: Bonferroni over the 1 card(s)")
    assert lines[7].endswith(":") and lines[8].startswith("  ")  # the answer, in words, before the table
    assert "Cannot be measured (no legal deck to measure it with):" in lines
    assert lines[-1].startswith("Associations, not effects:")


@pytest.mark.parametrize(("args", "code", "says"), [
    (["--filler", "No Such Card"], 2, "error: --filler 'No Such Card': no card"),
    (["--card", "Nene Lv3"], 2, "the deck holds no such card"),
    (["--jobs", "2", "--cluster", "local:2"], 2, "--jobs and --cluster exclude each other"),
    (["--objective", "fastest"], 2, "--objective must be 'kill-turn' or 'won-by:T'"),
    (["--turns", "0"], 2, "turns must be between 1 and 200"),
    (["--going", "third"], 2, "going must be 'first' or 'second'"),
    (["--budget", "5"], 2, "less than the first look needs"),
])
def test_unusable_options_exit_2_with_a_message(capsys: pytest.CaptureFixture[str], args: list[str], code: int,
                                                 says: str) -> None:
    got = run_captured(capsys, "impact", str(DEFAULT_DECK), "--jobs", "1", *args)
    assert got.code == code, got.err
    assert says in got.err and "Traceback" not in got.err
    assert got.out == ""


def test_an_invalid_deck_exits_1_with_the_validator_s_report(capsys: pytest.CaptureFixture[str],
                                                             tmp_path: Path) -> None:
    deck = tmp_path / "short.toml"
    deck.write_text('name = "Short"\n[[main]]\nname = "Soma"\nlevel = 1\ncount = 3\n', encoding="utf-8")
    got = run_captured(capsys, "impact", str(deck), "--jobs", "1")
    assert got.code == 1
    assert "deck-size" in got.err and got.out == ""


def test_won_by_reads_its_words_the_other_way(capsys: pytest.CaptureFixture[str]) -> None:
    """won-by:T is higher-is-better: a card whose removal wins more runs by turn T is dead weight (Soma Lv2 under
    the default policy: with one copy fewer, about 4.6 points more of the runs are won by turn 3)."""
    args = ("impact", str(DEFAULT_DECK), "--card", "Soma Lv2", "--objective", "won-by:3", "--precision", "0.05",
            "--jobs", "1")
    got = run_captured(capsys, *args, "--json")
    assert got.code == 0, got.err
    [card] = json.loads(got.out)["cards"]
    assert card["corrected"][0] > 0 and card["effect"] > 0
    assert card["verdict"] == "dead weight"
    text = run_captured(capsys, *args).out
    assert "Dead weight (the deck wins more often with one copy fewer):" in text
