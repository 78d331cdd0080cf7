"""The command a report page prints to make it again runs as meant in a POSIX shell, for every command.

Paths here start with `-` (`-weak.toml`), hold spaces and quotes: the test reads the command
from the page, splits it as a shell does (`shlex.split`), removes the page and runs the command
line in this process. The same deck, options and seed give the same page, byte for byte, so the
second page is the first only if the command read the same decklists, pool and card database.
"""

from __future__ import annotations

import html
import re
import shlex
import shutil
from pathlib import Path

import pytest

from cli_run import run_sengoku  # tests/cli_run.py

ROOT = Path(__file__).resolve().parents[1]
WEAK = ROOT / "decklists" / "tune" / "no-level4.toml"
DEFAULT = ROOT / "decklists" / "default.toml"


def _command(page: Path) -> list[str]:
    found = re.search(r"<pre><code>(sengoku [^<]*)</code></pre>", page.read_text(encoding="utf-8"))
    assert found, "the page prints no command"
    return shlex.split(html.unescape(found.group(1)))


def _again(page: Path, capsys: pytest.CaptureFixture[str]) -> list[str]:
    """Run the page's command again (the page removed first); return its words after asserting the same page."""
    first = page.read_bytes()
    words = _command(page)
    page.unlink()
    assert words[0] == "sengoku"
    code = run_sengoku(*words[1:])
    err = capsys.readouterr().err
    assert code == 0, (words, err)
    assert page.read_bytes() == first
    return words


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder holding decks whose names start with `-`, as the current folder."""
    shutil.copy(WEAK, tmp_path / "-weak.toml")
    shutil.copy(DEFAULT, tmp_path / "-o x.toml")  # reads as the -o option, twice over, unquoted
    shutil.copytree(ROOT / "card_db" / "sengoku", tmp_path / "--db it's")
    (tmp_path / "-pool.txt").write_text("Kagetora Lv4\nSoma Lv4\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_goldfish_page_command(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = run_sengoku("goldfish", "--runs", "60", "--turns", "4", "--jobs", "1", "--opponent", "-o x.toml",
                       "--db", "--db it's", "--html", "-page.html", "--", "-weak.toml")
    assert code == 0, capsys.readouterr().err
    words = _again(folder / "-page.html", capsys)
    assert "-weak.toml" in words and "-o x.toml" in words and "--db it's" in words


def test_compare_page_command(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = run_sengoku("compare", "--runs", "60", "--turns", "4", "--jobs", "1", "--db", "--db it's",
                       "--html", "-page.html", "--", "-weak.toml", "-o x.toml")
    assert code == 0, capsys.readouterr().err
    words = _again(folder / "-page.html", capsys)
    assert words[-2:] == ["-weak.toml", "-o x.toml"]


def test_tune_page_command(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = run_sengoku("tune", "--budget", "3000", "--check", "0", "--jobs", "1", "--pool", "-pool.txt",
                       "--opponent", "-o x.toml", "--db", "--db it's", "--html", "-page.html", "--", "-weak.toml")
    assert code == 0, capsys.readouterr().err
    words = _again(folder / "-page.html", capsys)
    assert words[-1] == "-weak.toml" and "-pool.txt" in words


def test_an_ordinary_path_keeps_the_usual_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copy(WEAK, tmp_path / "weak deck.toml")
    monkeypatch.chdir(tmp_path)
    assert run_sengoku("goldfish", "weak deck.toml", "--runs", "30", "--turns", "3", "--jobs", "1",
                       "--html", "page.html") == 0
    words = _again(tmp_path / "page.html", capsys)
    assert words[:3] == ["sengoku", "goldfish", "weak deck.toml"] and "--" not in words
