"""Untrusted input, read side: every read bounded, every path that cannot be read reported.

Each test here failed before the shared reader (`sengoku.files`) and folder search
(`sengoku.folders`): a MemoryError or hang, a traceback, a silent skip with exit 0.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sengoku.paths import data_dir

BUNDLED = data_dir("card_db") / "sengoku"
DECK = data_dir("decklists") / "default.toml"
ZERO = "/dev/zero"
needs_dev_zero = pytest.mark.skipif(not os.path.exists(ZERO), reason="needs /dev/zero")
needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")


def sengoku(*args: str, stdin: object = subprocess.DEVNULL, env: dict[str, str] | None = None
            ) -> subprocess.CompletedProcess[bytes]:
    """Run the CLI in a child process (an endless read there cannot take the test run down)."""
    return subprocess.run([sys.executable, "-m", "sengoku", *args], stdin=stdin, capture_output=True,
                          timeout=120, env={**os.environ, **(env or {})})


def copy_db(tmp_path: Path) -> Path:
    folder = tmp_path / "db"
    shutil.copytree(BUNDLED, folder)
    return folder


# 1. Unbounded reads -------------------------------------------------------------------------

@needs_dev_zero
@pytest.mark.parametrize("args", [["db", "check", ZERO], ["validate", str(DECK), "--db", ZERO],
                                  ["goldfish", str(DECK), "--db", ZERO, "-n", "1"]])
def test_an_endless_card_database_is_refused_at_its_limit(args: list[str]) -> None:
    done = sengoku(*args)
    assert done.returncode == 2
    assert done.stderr.decode() == f"error: {ZERO}: the input goes on past the 128 MB limit: not read\n"


@needs_dev_zero
@pytest.mark.parametrize("command", ["fmt", "import"])
def test_endless_standard_input_is_refused_at_the_decklist_limit(command: str) -> None:
    with open(ZERO, "rb") as zero:
        done = sengoku(command, "-", stdin=zero)
    assert done.returncode == 2 and done.stdout == b""
    assert "<stdin>: the input goes on past the 1 MB limit: not read" in done.stderr.decode()


@pytest.mark.parametrize("name, size, limit", [("cards.json", 130, "128 MB"), ("board.json", 130, "128 MB"),
                                         ("game.toml", 30, "1 MB"), ("formats/big.toml", 30, "1 MB")])
def test_every_file_of_a_database_is_read_up_to_its_limit(cli, tmp_path: Path, name: str, size: int,
                                                          limit: str) -> None:
    db = copy_db(tmp_path)
    with open(db / name, "wb") as f:
        f.truncate(size * 1_000_000)  # sparse: zero bytes that take no disk
    code, out, err = cli("db", "check", str(db))
    assert code == 2
    assert f"the file is {size}.0 MB, over the {limit} limit: not read" in out + err


# 2. Numbers past Python's limits -------------------------------------------------------------

HUGE = "9" * 5000


def test_a_5000_digit_number_in_cards_json_is_a_message_with_its_line(cli, tmp_path: Path) -> None:
    db = copy_db(tmp_path)
    text = (db / "cards.json").read_text(encoding="utf-8")
    (db / "cards.json").write_text(text.replace('"atk": 6', f'"atk": {HUGE}', 1), encoding="utf-8")
    line = next(n for n, t in enumerate((db / "cards.json").read_text().splitlines(), 1) if HUGE in t)
    code, out, err = cli("db", "check", str(db / "cards.json"))
    assert code == 2
    assert f"cards.json:{line}:" in err and "not valid JSON: a number with more than 4300 digits" in err
    code, out, err = cli("validate", str(DECK), "--db", str(db))
    assert code == 2 and "a number with more than 4300 digits" in err and "Traceback" not in err


def test_a_5000_digit_count_in_a_decklist_is_a_syntax_problem_on_its_line(cli, tmp_path: Path) -> None:
    deck = tmp_path / "deck.toml"
    deck.write_text(f'[[main]]\nname = "Soma"\ncount = {HUGE}\n', encoding="utf-8")
    code, out, err = cli("validate", str(deck))
    assert code == 1
    assert out.splitlines()[0] == f"{deck}:3:9 error syntax not valid TOML: a number with more than 4300 digits"
    code, out, err = cli("fmt", "--check", str(deck))
    assert code == 2 and "a number with more than 4300 digits" in err


def test_a_5000_digit_number_in_a_format_or_rule_file_is_a_message(cli, tmp_path: Path) -> None:
    db = copy_db(tmp_path)
    (db / "formats" / "huge.toml").write_text(f"x = {HUGE}\n", encoding="utf-8")
    code, out, err = cli("db", "check", str(db))
    assert code == 2 and "huge.toml" in out + err and "more than 4300 digits" in out + err
    (db / "formats" / "huge.toml").unlink()
    (db / "game.toml").write_text((db / "game.toml").read_text() + f"x = {HUGE}\n", encoding="utf-8")
    code, out, err = cli("db", "check", str(db))
    assert code == 2 and "game.toml" in out + err and "more than 4300 digits" in out + err


# 3. Paths -------------------------------------------------------------------------------------

def test_a_folder_1000_levels_deep_is_reported_not_a_recursion_error(cli, tmp_path: Path) -> None:
    folder = tmp_path / "deep"
    levels = [str(folder)]
    for _ in range(1000):  # one level at a time: os.makedirs recurses, and would break here too
        levels.append(os.path.join(levels[-1], "d"))
    for level in levels:
        os.mkdir(level)
    try:
        shutil.copy(DECK, os.path.join(levels[-1], "deck.toml"))
        shutil.copy(DECK, folder / "top.toml")
        code, out, err = cli("validate", str(folder))
        assert code == 2
        lines = out.splitlines()
        assert "a folder more than 32 levels below" in lines[0]
        assert lines[1].startswith(f"{folder / 'top.toml'} valid")
        code, out, err = cli("fmt", "--check", str(folder))
        assert code == 2 and "a folder more than 32 levels below" in err
    finally:  # shutil.rmtree (and so pytest's clean-up) recurses too
        os.remove(os.path.join(levels[-1], "deck.toml"))
        for level in reversed(levels[1:]):
            os.rmdir(level)


def test_a_file_name_that_is_not_utf8_gives_a_whole_json_document(tmp_path: Path) -> None:
    folder = tmp_path / "decks"
    folder.mkdir()
    try:
        shutil.copy(DECK, os.fsdecode(bytes(folder) + b"/bad\xff.toml"))
    except (OSError, UnicodeError):
        pytest.skip("the file system refuses a name that is not UTF-8")
    done = sengoku("validate", str(folder), "-o", "json", env={"PYTHONIOENCODING": "utf-8"})  # strict encoding
    assert done.returncode == 0, done.stderr
    (result,) = json.loads(done.stdout)["results"]
    assert result["path"] == str(folder / "bad\\xff.toml")


def _odd_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "decks"
    folder.mkdir()
    shutil.copy(DECK, folder / "ok.toml")
    (folder / "dangling.toml").symlink_to(folder / "gone.toml")
    if hasattr(os, "mkfifo"):
        os.mkfifo(folder / "pipe.toml")
    return folder


def test_dangling_links_and_fifos_in_a_folder_are_reported_with_the_others(cli, tmp_path: Path) -> None:
    folder = _odd_folder(tmp_path)
    code, out, err = cli("validate", str(folder))
    assert code == 2
    got = out.splitlines()
    assert got[0] == f"{folder / 'dangling.toml'} error syntax a link to nothing (the file it names does not exist)"
    assert got[1].startswith(f"{folder / 'ok.toml'} valid")
    if hasattr(os, "mkfifo"):
        assert got[2].startswith(f"{folder / 'pipe.toml'} error syntax a FIFO, not a regular file")
    code, out, err = cli("fmt", "--check", str(folder))
    assert code == 2 and "dangling.toml: a link to nothing" in err


@pytest.fixture
def deny(monkeypatch: pytest.MonkeyPatch):
    """Make some paths unreadable, as for a user without permission (tests may run as root)."""
    denied: set[str] = set()
    real_open, real_access, real_scandir = os.open, os.access, os.scandir

    def refuse(path: object) -> None:
        if os.path.abspath(os.fspath(path)) in denied:  # type: ignore[arg-type]
            raise PermissionError(13, "Permission denied", os.fspath(path))  # type: ignore[arg-type]

    def fake_open(path, *args, **kwargs):  # type: ignore[no-untyped-def]
        refuse(path)
        return real_open(path, *args, **kwargs)

    def fake_access(path, mode, *args, **kwargs):  # type: ignore[no-untyped-def]
        return os.path.abspath(os.fspath(path)) not in denied and real_access(path, mode, *args, **kwargs)

    def fake_scandir(path="."):  # type: ignore[no-untyped-def]
        refuse(path)
        return real_scandir(path)

    monkeypatch.setattr(os, "open", fake_open)
    monkeypatch.setattr(os, "access", fake_access)
    monkeypatch.setattr(os, "scandir", fake_scandir)
    return lambda path: denied.add(os.path.abspath(path))


def test_an_unreadable_subfolder_is_reported_with_the_others(cli, tmp_path: Path, deny) -> None:
    folder = tmp_path / "decks"
    (folder / "locked").mkdir(parents=True)
    shutil.copy(DECK, folder / "ok.toml")
    shutil.copy(DECK, folder / "locked" / "hidden.toml")
    deny(folder / "locked")
    code, out, err = cli("validate", str(folder))
    assert code == 2
    assert out.splitlines()[0] == f"{folder / 'locked'} error syntax cannot read this folder: Permission denied"
    assert out.splitlines()[1].startswith(f"{folder / 'ok.toml'} valid")


def test_an_unreadable_file_named_on_the_command_line_is_reported_with_the_others(cli, tmp_path: Path,
                                                                                   deny) -> None:
    locked = tmp_path / "locked.toml"
    shutil.copy(DECK, locked)
    deny(locked)
    code, out, err = cli("validate", str(DECK), str(locked))
    assert code == 2  # not a usage error before any report
    assert out.splitlines()[0].startswith(f"{DECK} valid")
    assert out.splitlines()[1] == f"{locked} error syntax cannot read: Permission denied"


# 2. Strings nobody can read: control characters, NUL, bidi overrides, blank names ----------

HIDDEN_NAMES = {"So\x1b[31mma": "U+001B", "So\x00ma": "U+0000", "So\u202ema": "U+202E", "So\u2066ma": "U+2066"}


def _db_with_names(tmp_path: Path, names: list[str]) -> Path:
    db = copy_db(tmp_path)
    data = json.loads((db / "cards.json").read_text(encoding="utf-8"))
    for card, name in zip(data["cards"], names):
        card["name"] = name
    (db / "cards.json").write_text(json.dumps(data, indent=1), encoding="utf-8")
    return db


def _shown_raw(text: str) -> list[str]:
    return [c for c in "\x1b\x00\u202e\u2066" if c in text]


def test_hidden_characters_and_blank_names_are_db_check_problems_with_their_json_path(cli, tmp_path: Path) -> None:
    db = _db_with_names(tmp_path, [*HIDDEN_NAMES, "   "])
    code, out, err = cli("db", "check", str(db), "--json")
    assert code == 1
    problems = {p["json_path"]: p for p in json.loads(out) if p["code"] in ("hidden-character", "blank")}
    for i, (name, point) in enumerate(HIDDEN_NAMES.items()):
        assert problems[f"$.cards[{i}].name"]["code"] == "hidden-character"
        assert point in problems[f"$.cards[{i}].name"]["message"]
    assert problems[f"$.cards[{len(HIDDEN_NAMES)}].name"]["code"] == "blank"
    code, out, err = cli("db", "check", str(db))
    assert code == 1 and "\\x1b[31m" in out and _shown_raw(out + err) == []


@pytest.mark.parametrize("command", [["cards"], ["validate", str(DECK)], ["goldfish", str(DECK), "-n", "1"]])
def test_a_database_with_hidden_characters_is_refused_and_never_printed_raw(cli, tmp_path: Path,
                                                                            command: list[str]) -> None:
    db = _db_with_names(tmp_path, list(HIDDEN_NAMES))
    code, out, err = cli(*command, "--db", str(db))
    assert code == 2
    assert "holds a control or invisible character" in err and _shown_raw(out + err) == []


@pytest.mark.parametrize("output", ["text", "github", "sarif", "junit", "json"])
def test_a_decklist_name_with_hidden_characters_is_printed_escaped(cli, tmp_path: Path, output: str) -> None:
    deck = tmp_path / "deck.toml"
    deck.write_text('[[main]]\nname = "So\\u001b[31mma\\u202e"\ncount = 3\n', encoding="utf-8")
    code, out, err = cli("validate", str(deck), "-o", output)
    assert code == 1
    assert _shown_raw(out + err) == []
    if output != "json":  # JSON escapes the ESC its own way (\u001b), which is as safe
        assert "\\x1b[31m" in out


def test_the_cards_suffix_of_github_annotations_is_escaped() -> None:
    from sengoku.validate.reporters.github import line_for
    from sengoku.problems import Problem

    line = line_for("d.toml", Problem("copy-limit", "error", "too many", 2, 1, cards=("SY1\x1b[2J", "X\u202e")))
    assert _shown_raw(line) == [] and line.endswith("[SY1\\x1b[2J, X\\u202e]")
