"""Every output of a run is checked before any work: against every input of the same run and every
other output (by file identity: through symlinks, `..` and hard links), and for a folder that can
take a file. `--force` replaces an old output, never an input of the run, never its other output.

Each case keeps what the fourth trust round found: the tuned deck replaced by its own page (`-o X
--html X`), `-o` onto the `--opponent` decklist or a file of the `--db`, `goldfish`, `compare` and
`validate --html` onto their own decklist, and an output folder that cannot be written found only
after a whole tune.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sengoku.errors import DataError
from sengoku.paths import data_dir

DECK = data_dir("decklists") / "tune" / "no-level4.toml"
QUICK = ("--budget", "100", "--check", "0", "--jobs", "1")


@pytest.fixture
def run_files(tmp_path: Path) -> Path:
    """A folder with a decklist, an opponent, a pool list and a copy of the card database."""
    shutil.copy(DECK, tmp_path / "deck.toml")
    shutil.copy(DECK, tmp_path / "opponent.toml")
    (tmp_path / "pool.txt").write_text("Soma Lv4\n", encoding="utf-8")
    shutil.copytree(data_dir("card_db") / "sengoku", tmp_path / "db")
    (tmp_path / "sub").mkdir()
    return tmp_path


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


# (command line with {d} for the folder, what the message says)
REFUSED = [
    # the tuned deck replaced by its own page, and the other way round
    ("tune {d}/deck.toml --budget 100 --check 0 --jobs 1 -o {d}/new.toml --html {d}/new.toml", "also the --output file"),
    ("tune {d}/deck.toml --budget 100 --check 0 --jobs 1 -o {d}/sub/../new.toml --html {d}/new.toml --force", "also the --output file"),
    # an input of the run, with --force: the start deck, the opponent, the pool, a file of the --db
    ("tune {d}/deck.toml --budget 100 --check 0 --jobs 1 -o {d}/sub/../deck.toml --force", "is the decklist of this run"),
    ("tune {d}/deck.toml --budget 100 --check 0 --jobs 1 --opponent {d}/opponent.toml -o {d}/opponent.toml --force", "the --opponent decklist"),
    ("tune {d}/deck.toml --budget 100 --check 0 --jobs 1 --pool {d}/pool.txt --html {d}/pool.txt --force", "the --pool file"),
    ("tune {d}/deck.toml --budget 100 --check 0 --jobs 1 --db {d}/db -o {d}/db/cards.json --force", "a file of the --db card database"),
    ("tune {d}/deck.toml --budget 100 --check 0 --jobs 1 --db {d}/db/cards.json --html {d}/db/game.toml --force", "a file of the --db card database"),
    ("tune {d}/deck.toml --budget 100 --check 0 --jobs 1 --db {d}/db -o {d}/db/formats/sample-championship.toml --force",
     "a file of the --db card database"),
    # goldfish, compare and validate onto their own decklists
    ("goldfish {d}/deck.toml --runs 10 --html {d}/deck.toml --force", "is the decklist of this run"),
    ("goldfish {d}/deck.toml --runs 10 --plot {d}/x.svg --html {d}/x.svg --force", "also the --plot file"),
    ("goldfish {d}/deck.toml --runs 10 --opponent {d}/opponent.toml --html {d}/opponent.toml --force",
     "the --opponent decklist"),
    ("compare {d}/deck.toml {d}/opponent.toml --runs 10 --html {d}/opponent.toml --force", "decklist 2 of 2"),
    ("compare {d}/deck.toml {d}/opponent.toml --runs 10 --db {d}/db --html {d}/db/board.json --force",
     "a file of the --db card database"),
    ("validate {d}/deck.toml --html {d}/deck.toml --force", "a decklist of this run"),
    ("validate {d} --html {d}/opponent.toml --force", "a decklist of this run"),  # a *.toml below a folder named
    ("validate {d}/deck.toml --db {d}/db --html {d}/db/cards.json --force", "a file of the --db card database"),
    ("import {d}/pool.txt --db {d}/db -o {d}/db/cards.json --force", "a file of the --db card database"),
]


@pytest.mark.parametrize("line,says", REFUSED)
def test_an_output_never_replaces_an_input_or_another_output(cli, run_files: Path, line: str, says: str) -> None:
    before = _snapshot(run_files)
    code, out, err = cli(*line.format(d=run_files).split())
    assert code == 2, err
    assert says in err and "refused, left as it was" in err, err
    assert "Traceback" not in err and "games in" not in err and "accepted" not in out
    assert _snapshot(run_files) == before  # nothing replaced, nothing made


def test_a_symlink_or_a_hard_link_to_an_input_is_that_input(cli, run_files: Path) -> None:
    (run_files / "sub" / "link.toml").symlink_to(run_files / "opponent.toml")
    os.link(run_files / "deck.toml", run_files / "hard.toml")
    (run_files / "dblink").symlink_to(run_files / "db", target_is_directory=True)
    before = _snapshot(run_files)
    for args, says in (
            (["--opponent", str(run_files / "opponent.toml"), "-o", str(run_files / "sub" / "link.toml")],
             "--opponent decklist"),
            (["--html", str(run_files / "hard.toml")], "the decklist of this run"),
            (["--db", str(run_files / "db"), "-o", str(run_files / "dblink" / "board.json")], "--db card database")):
        code, _, err = cli("tune", str(run_files / "deck.toml"), *args, "--force", *QUICK)
        assert code == 2 and says in err, err
    assert _snapshot(run_files) == before


def test_two_outputs_not_there_yet_are_one_file_through_a_linked_folder(run_files: Path) -> None:
    from sengoku.writes import Input, check_outputs, database_inputs

    (run_files / "alias").symlink_to(run_files / "sub", target_is_directory=True)
    with pytest.raises(DataError, match="also the -o file"):
        check_outputs({"-o": run_files / "sub" / "new.toml", "--html": run_files / "alias" / "new.toml"}, [],
                      replace=False)
    assert not (run_files / "sub" / "new.toml").exists()
    # different names in one folder, or a new file beside an input: both fine
    found = check_outputs({"-o": run_files / "sub" / "a.toml", "--html": run_files / "alias" / "b.html"},
                          [Input("the decklist", run_files / "deck.toml")] + database_inputs(run_files / "db"),
                          replace=False)
    assert found == {"-o": run_files / "sub" / "a.toml", "--html": run_files / "sub" / "b.html"}


def test_force_still_replaces_an_old_output(cli, run_files: Path) -> None:
    old = run_files / "page.html"
    old.write_text("an old page\n", encoding="utf-8")
    code, _, err = cli("validate", str(run_files / "deck.toml"), "--html", str(old), "--force")
    assert code == 0, err
    assert old.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    # and a file below a folder of decklists that validate does not read (not *.toml) is an old output
    code, _, err = cli("validate", str(run_files), "--html", str(old), "--force")
    assert code in (0, 1) and "refused" not in err


def test_import_onto_its_own_list_is_still_a_conversion_in_place(cli, run_files: Path) -> None:
    listing = run_files / "list.txt"
    listing.write_text("3 Soma Lv1\n", encoding="utf-8")
    code, _, err = cli("import", str(listing), "-o", str(listing), "--force")
    assert code == 0, err
    assert "[[main]]" in listing.read_text(encoding="utf-8")


@pytest.mark.parametrize("option", ["-o", "--html"])
def test_a_folder_that_cannot_be_written_is_refused_before_the_tune(unwritable_folder: Path, option: str) -> None:
    folder = unwritable_folder
    done = subprocess.run([sys.executable, "-m", "sengoku", "tune", str(DECK), option,
                           str(folder / "tuned.out"), "--budget", "3000", "--check", "0", "--jobs", "1"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 2, done.stderr
    assert f"cannot write in its folder {folder}" in done.stderr and "refused before any work" in done.stderr
    assert "games in" not in done.stderr and done.stdout == ""  # no game was played


@pytest.mark.parametrize("command", [["goldfish", str(DECK), "--runs", "10"], ["validate", str(DECK)]])
def test_goldfish_and_validate_refuse_an_unwritable_folder_first(cli, unwritable_folder: Path,
                                                                 command: list[str]) -> None:
    folder = unwritable_folder
    code, out, err = cli(*command, "--html", str(folder / "page.html"))
    assert (code, out) == (2, "") and "cannot write in its folder" in err
