"""What `tune` refuses before it plays (issue 33, classes 2 and 6): numbers past their bound, a local
cluster larger than the machine, and a pool of another game's cards."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_run import run_sengoku
from sengoku.goldfish.other_games import MAX_RUNS
from sengoku.goldfish.options import usable_cores
from sengoku.paths import data_dir

ROOT = Path(__file__).resolve().parents[2]
WEAKENED = ROOT / "decklists" / "tune" / "no-level4.toml"


def _tune(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = run_sengoku("tune", str(WEAKENED), *args)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("option", ["--check", "--verify"])
@pytest.mark.parametrize("runs", [MAX_RUNS + 1, 10 ** 14, -1])
def test_check_and_verify_stop_where_runs_stops(capsys: pytest.CaptureFixture[str], option: str, runs: int) -> None:
    """10**14 grew to gigabytes and a MemoryError traceback; now one line, exit 2, before any game."""
    code, out, err = _tune(capsys, option, str(runs), "--budget", "100", "--jobs", "1")
    assert (code, out) == (2, "")
    assert f"error: {option} takes a number of runs from 0 to {MAX_RUNS:,}, not {runs}" in err
    assert "Traceback" not in err and "MemoryError" not in err


def test_check_at_its_bound_is_accepted() -> None:
    from sengoku.tune.tuner import Tuner

    tuner = Tuner(WEAKENED, budget=10, check_runs=MAX_RUNS, verify_runs=MAX_RUNS)
    assert (tuner.check_runs, tuner.verify_runs) == (MAX_RUNS, MAX_RUNS)


def test_a_local_cluster_has_at_most_a_worker_a_core() -> None:
    """local:N starts N processes of this machine: past its cores they only queue (a billion exhausted its
    memory), so N is cut to the cores, with a note, as --jobs is."""
    from sengoku.tune.executors import local_workers

    cores = usable_cores()
    assert local_workers("1") == (1, None)
    assert local_workers(str(cores)) == (cores, None)
    for asked in (cores + 1, 1_000_000_000, 10 ** 30):
        workers, note = local_workers(str(asked))
        assert workers == cores
        assert note == f"--cluster local:{asked} is more than the {cores} core(s) this process may use; using {cores}"


@pytest.mark.parametrize("count", ["0", "-3", "two", "²", "1.5", ""])
def test_a_local_cluster_needs_a_whole_number_of_workers(capsys: pytest.CaptureFixture[str], count: str) -> None:
    code, out, err = _tune(capsys, "--cluster", f"local:{count}", "--budget", "10")
    assert (code, out) == (2, "")
    assert "local:N needs a number of workers N of at least 1" in err and "Traceback" not in err


def test_a_pool_of_another_games_cards_is_refused_naming_file_and_cards(capsys: pytest.CaptureFixture[str]) -> None:
    """A Senjutsu decklist as --pool was tuned with 22 cards the card database does not know."""
    senjutsu = data_dir("decklists") / "senjutsu" / "valid" / "ronin-forty.toml"
    if not senjutsu.exists():
        senjutsu = ROOT / "decklists" / "senjutsu" / "valid" / "ronin-forty.toml"
    code, out, err = _tune(capsys, "--pool", str(senjutsu), "--budget", "100", "--check", "0", "--jobs", "1")
    assert (code, out) == (2, "")
    assert f"error: {senjutsu}: not a pool of SENGOKU YUGI cards: a Senjutsu" in err
    assert "(game = 'senjutsu')" in err and "Dash Down Strike" in err and "(22 card(s))" in err
    assert "games in" not in err  # refused before any game


def test_a_pool_names_only_cards_the_database_knows(tmp_path: Path) -> None:
    """Whatever path a pool takes, every card id it gives is one of the database's."""
    from sengoku.carddb.load import load_card_db
    from sengoku.tune.candidates import read_pool

    card_db = load_card_db(None)
    known = {c.id for c in card_db.cards}
    listing = tmp_path / "pool.txt"
    listing.write_text("Soma Lv4\nKagetora Lv4\n", encoding="utf-8")
    pool = read_pool(listing, card_db)
    assert pool and set(pool) <= known
