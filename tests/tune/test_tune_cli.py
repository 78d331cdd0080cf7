"""`sengoku tune` end to end: the JSON and its schema, any --jobs or cluster gives the same path, the files it
writes and refuses, Ctrl-C, and a small quality check (the full one: benchmarks/tune_bench.py)."""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from cli_run import run_sengoku
from processes import start_sengoku, wait_for_workers  # tests/processes.py
from sengoku.decklist.fmt import canonical_decklist
from sengoku.goldfish.compare import compare
from sengoku.goldfish.statistics.differences import KILL_TURN_MEAN
from sengoku.carddb.load import load_card_db
from sengoku.decklist.read import read_decklist
from sengoku.tune.deck import Change, Deck, decklist
from sengoku.validate.api import Validator

ROOT = Path(__file__).resolve().parents[2]
WEAKENED = ROOT / "decklists" / "tune" / "no-level4.toml"
BUDGET = 12_000
SCHEMA = Draft202012Validator(json.loads((ROOT / "schemas" / "tune.schema.json").read_text(encoding="utf-8")))


def _tune(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = run_sengoku("tune", *args)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def small(level4_pool: Path, tmp_path_factory: pytest.TempPathFactory) -> dict:
    """One small tune of the weakened deck (--jobs 1), its JSON and the deck it wrote.

    Seed 3's first race accepts a change within 12,000 games and the second race is cut by the
    budget, so every stage the path can show (screen, confirm, accepted, budget) is in it; a budget
    of 40,000 accepts the same one change and only plays the second race longer. Two search runs
    verify as ten would (the fields, fresh runs after the check's), at a fifth of their cost."""
    folder = tmp_path_factory.mktemp("small")
    out = folder / "tuned.toml"
    args = [str(WEAKENED), "--pool", str(level4_pool), "--budget", str(BUDGET), "--check", "4000",
            "--verify", "2", "--seed", "3", "--json"]
    proc = subprocess.run([sys.executable, "-m", "sengoku", "tune", *args, "--jobs", "1", "-o", str(out)],
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr
    return {"args": args, "json": proc.stdout, "result": json.loads(proc.stdout), "out": out}


def test_the_json_follows_its_schema_and_the_deck_is_written_canonical(small: dict) -> None:
    result = small["result"]
    SCHEMA.validate(result)
    text = small["out"].read_text(encoding="utf-8")
    assert text == result["decklist"]
    assert canonical_decklist(text).changed is False
    assert result["tuned_for"]["policy"] == "greedy" and result["games"] <= BUDGET
    assert result["changes"] and result["notice"] is None  # changes were accepted: nothing to warn of
    verify = result["verify"]  # --verify: the final deck against the start with the search policy
    assert verify["policy"] == "search" and verify["runs"] == 2
    assert verify["run_start"] == result["check"]["run_start"] + 4000  # fresh runs, after the check's


def test_each_change_is_confirmed_on_fresh_runs_at_the_corrected_level(small: dict) -> None:
    """Screening and confirmation play consecutive blocks of fresh run indices; a change's runs are its
    confirmation's, after every screening of its race, and its level is alpha * 6/(pi^2 a^2) / m * 6/(pi^2 j^2)."""
    result = small["result"]
    accepted = [r for r in result["races"] if r["outcome"] == "accepted"]
    assert len(accepted) == len(result["changes"])
    six = 6 / math.pi ** 2
    for race, change in zip(accepted, result["changes"]):
        blocks: dict[tuple[str, int], int] = {}  # (stage, attempt) -> runs it played, in order
        for look in race["looks"]:
            blocks[(look["stage"], look["attempt"])] = look["runs"]
        *before, last = blocks.items()
        assert last[0] == ("confirm", change["attempt"]) and last[1] == change["runs"]
        assert ("screen", change["attempt"]) in blocks  # every attempt screens before it confirms
        assert change["run_start"] == race["run_start"] + sum(runs for _, runs in before)
        screened = [look["racing"] for look in race["looks"] if look["stage"] == "screen"
                    and look["attempt"] == change["attempt"]]
        assert change["finalists"] == screened[-1] <= 4
        level = result["error_rate"] * six / change["attempt"] ** 2 / change["finalists"] * six / change["look"] ** 2
        assert change["level"] == pytest.approx(level, rel=1e-12)
        assert change["bound"] > 0 and change["diff"] < 0


def test_the_small_tune_finds_a_faster_deck_that_a_4x_check_confirms(small: dict) -> None:
    """The quality check in small: changes accepted, the final deck faster on fresh runs, no change worse
    when played again on 4x its runs with another master seed."""
    result = small["result"]
    assert result["changes"], result["races"]
    check = result["check"]
    assert check["diff"] < 0 and check["ci95"][1] < 0  # faster, the interval excludes 0
    db = load_card_db(None)
    like, syntax = read_decklist(WEAKENED)
    deck = Deck.from_sections(Validator(db).validate_deck(like, syntax).sections)
    start = deck
    for step in result["changes"]:
        after = deck.apply(Change(step["section"], (step["out"] or {}).get("id"), (step["in"] or {}).get("id")))
        again = compare([decklist(deck, like), decklist(after, like)], runs=4 * step["runs"], seed=1000, jobs=1,
                        opponent=decklist(start, like))
        row = again.rows(KILL_TURN_MEAN)[0]
        assert row["ci95"][0] <= 0, (step["label"], row)  # never worse on 4x the runs
        deck = after


def test_the_same_seed_gives_the_same_path_for_any_jobs(small: dict, tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "sengoku", "tune", *small["args"], "--jobs", "2"],
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == small["json"]


def test_the_same_seed_gives_the_same_path_on_a_dask_cluster(small: dict, dask_scheduler: str) -> None:
    proc = subprocess.run([sys.executable, "-m", "sengoku", "tune", *small["args"], "--cluster", dask_scheduler],
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == small["json"]


def test_text_and_html_reports(level4_pool: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    html = tmp_path / "tune.html"
    code, out, err = _tune(capsys, str(WEAKENED), "--pool", str(level4_pool), "--budget", "3000", "--check", "0",
                           "--jobs", "1", "--objective", "won-by:3", "--html", str(html))
    assert code == 0, err
    assert "share of runs won by the end of turn 3" in out and "Final deck (canonical form" in out
    assert "Tuned" in out and "policy greedy" in out
    page = html.read_text(encoding="utf-8")
    assert 'id="t-path-table"' in page and "<svg" in page and "sengoku tune" in page
    assert "http://" not in page.replace("http://www.w3.org/2000/svg", "") and "https://" not in page


def test_outputs_that_must_not_be_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    existing = tmp_path / "out.toml"
    existing.write_text("keep\n", encoding="utf-8")
    code, _, err = _tune(capsys, str(WEAKENED), "-o", str(existing), "--budget", "10")
    assert code == 2 and "already exists" in err and "--force" in err
    assert existing.read_text(encoding="utf-8") == "keep\n"
    copy = tmp_path / "start.toml"
    copy.write_bytes(WEAKENED.read_bytes())
    code, _, err = _tune(capsys, str(copy), "-o", str(copy), "--force", "--budget", "10")
    assert code == 2 and "is the decklist of this run" in err and "not even with --force" in err
    assert copy.read_bytes() == WEAKENED.read_bytes()
    code, _, err = _tune(capsys, str(WEAKENED), "--objective", "won-by:12", "--budget", "10")
    assert code == 2 and "won-by:T" in err and "Traceback" not in err
    code, _, err = _tune(capsys, str(WEAKENED), "--jobs", "2", "--cluster", "local:2", "--budget", "10")
    assert code == 2 and "exclude each other" in err


def test_cluster_without_the_extra_names_it(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "dask", None)  # import dask.distributed now raises ImportError
    monkeypatch.setitem(sys.modules, "dask.distributed", None)
    code, _, err = _tune(capsys, str(WEAKENED), "--cluster", "local:2", "--budget", "10")
    assert code == 2
    assert "pip install 'sengoku[cluster]'" in err and "Traceback" not in err


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc for the workers")
def test_ctrl_c_writes_the_best_deck_so_far_and_exits_130(tmp_path: Path) -> None:
    out = tmp_path / "best.toml"
    p = start_sengoku("tune", str(WEAKENED), "--budget", "5000000", "--jobs", "2", "-o", str(out),
                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        if len(wait_for_workers(p, 2, 120)) < 2:
            pytest.skip("fewer than two worker processes started (one core?)")
        time.sleep(1.0)
        os.killpg(p.pid, signal.SIGINT)
        stdout, stderr = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    assert p.returncode == 130, stderr
    assert "Traceback" not in stderr
    assert "interrupted (Ctrl-C, SIGTERM or SIGHUP): the best deck so far" in stdout
    assert f"Final deck written to {out}" in stdout
    assert canonical_decklist(out.read_text(encoding="utf-8")).changed is False


def test_tune_explains_the_shared_play_options_as_goldfish_does() -> None:
    import typer.main

    import sengoku.cli.goldfish  # noqa: F401  (each command module adds its command to the application)
    import sengoku.cli.tune  # noqa: F401
    from sengoku.cli.root import app

    group = typer.main.get_command(app)

    def options(name: str) -> dict[str, tuple[object, str | None]]:
        return {opt: (p.default, p.help) for p in group.commands[name].params for opt in p.opts}  # type: ignore[attr-defined]

    goldfish, tune = options("goldfish"), options("tune")
    for opt in ("--seed", "--opponent-defends", "--play-on", "--db"):
        assert tune[opt] == goldfish[opt], opt
    # --jobs: tune's pool is sized by games, not runs (tests/test_jobs_help.py holds each text to the code)
    for opt in ("--going", "--policy", "--turns", "--mode", "--opponent", "--jobs"):
        assert opt in tune, opt


def test_the_budget_is_never_passed(level4_pool: Path) -> None:
    """Every game counts, the incumbent's too (once per group of candidates): a look is cut to fit."""
    from sengoku.tune.tuner import Tuner

    result = Tuner(WEAKENED, pool=level4_pool, budget=3000, check_runs=0).run()
    assert result.stopped == "budget"
    racing = result.races[0].looks[-1][3]  # the candidates of the look the budget cut
    assert 3000 - (racing + 1) < result.games <= 3000  # cut to the last whole run it could pay
    assert result.games == sum(r.games for r in result.races)


def test_a_budget_the_first_look_does_not_fit_is_refused_before_any_game(
        level4_pool: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 34: a budget that stopped the first screening look printed "0 change(s) accepted", which reads
    as "the deck is already the best". Refused up front (exit 2), with the least budget that fits the look."""
    from sengoku.tune.tuner import BudgetTooSmallError, Tuner

    tuner = Tuner(WEAKENED, pool=level4_pool, budget=1000, check_runs=0)
    with pytest.raises(BudgetTooSmallError) as caught:
        tuner.run()
    assert tuner.games == 0  # refused before any game
    n = caught.value.candidates
    assert n > 40 and caught.value.needed == 50 * (n + -(-n // 32))  # 50 runs of each, the start deck once per 32
    code, out, err = _tune(capsys, str(WEAKENED), "--pool", str(level4_pool), "--budget", "1000", "--jobs", "1")
    assert code == 2 and out == ""
    assert f"--budget 1,000 is less than the first screening look needs: {n:,} candidates" in err
    assert f"Give --budget {caught.value.needed:,} or more" in err and "Traceback" not in err
    # the least budget it names is enough: the first look is played whole
    result = Tuner(WEAKENED, pool=level4_pool, budget=caught.value.needed, check_runs=0).run()
    assert result.races[0].looks[0][:3] == ("screen", 1, 50) and result.games == caught.value.needed


def test_a_budget_spent_before_the_race_decided_says_so(level4_pool: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A budget past the first look that runs out before anything was accepted or ruled out: the text and
    the JSON say the start deck is not shown to be the best."""
    args = [str(WEAKENED), "--pool", str(level4_pool), "--budget", "3000", "--jobs", "1", "--check", "0"]
    code, out, err = _tune(capsys, *args, "--json")
    assert code == 0, err
    data = json.loads(out)
    SCHEMA.validate(data)
    assert data["changes"] == [] and data["stopped"] == "budget" and data["races"][-1]["outcome"] == "budget"
    last = data["races"][-1]["looks"][-1]
    assert data["notice"] == (
        f"the budget ran out before the race could decide ({last['racing']:,} of {data['races'][-1]['candidates']:,} "
        f"candidates still racing after {last['runs']:,} runs of screening): no change was accepted, but none was "
        "ruled out either, so the start deck is not shown to be the best; a larger --budget races on")
    code, out, err = _tune(capsys, *args)
    assert code == 0, err
    assert f"Notice: {data['notice']}." in out.splitlines()
    assert "0 change(s) accepted" in err
    # the start figure names the runs it was measured on, which no other figure shares
    assert (f"Start: {data['start_value']:.2f} turns on the first screening look's 50 runs; each change and check "
            'below plays fresh runs of its own, so its "before" or "start" differs from this by chance.') in out
