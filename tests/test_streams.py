"""Output streams: full disk, closed streams, a pipe closed early, an ASCII-only encoding.

Each runs `python -m sengoku` in a real process, since the point is what the process does
with its real file descriptors and at exit. The contract: one line on stderr and exit 2 for a
write error, a quiet exit 141 for a closed pipe, and a machine format that is complete or absent.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sengoku.cli.streams import ascii_json, ascii_xml
from sengoku.paths import data_dir

DECK = str(data_dir("decklists") / "default.toml")


def run(*args: str, env: dict[str, str] | None = None, **kw) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "sengoku", *args], capture_output=kw.pop("capture", True),
                          env={**os.environ, **(env or {})}, timeout=60, **kw)


def one_line_error(stderr: bytes) -> str:
    text = stderr.decode()
    assert "Traceback" not in text and "Exception ignored" not in text, text
    lines = [line for line in text.splitlines() if line.startswith("error:")]
    assert len(lines) == 1, text
    return lines[0]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("args", [["cards"], ["cards", "--json"], ["validate", DECK, "-o", "sarif"]])
def test_a_full_disk_is_one_line_and_exit_2(args: list[str]) -> None:
    with open("/dev/full", "w") as full:
        r = run(*args, stdout=full, capture=False, stderr=subprocess.PIPE)
    assert r.returncode == 2
    assert "No space left on device" in one_line_error(r.stderr)


def test_closed_stdout_is_one_line_and_exit_2() -> None:
    r = subprocess.run([sys.executable, "-m", "sengoku", "cards", "--json"], stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, timeout=60, preexec_fn=lambda: os.close(1))
    assert r.returncode == 2
    assert "standard output" in one_line_error(r.stderr)


def test_closed_stdout_fails_only_a_command_that_writes_to_it(tmp_path: Path) -> None:
    deck = tmp_path / "deck.toml"
    deck.write_text('[[main]]\nname = "Soma"\nlevel = 1\ncount = 3\n', encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "sengoku", "fmt", str(deck)], stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, timeout=60, preexec_fn=lambda: os.close(1))
    assert r.returncode == 0, r.stderr


@pytest.mark.parametrize("command", ["fmt", "import"])
def test_closed_stdin_is_one_line_and_exit_2(command: str) -> None:
    r = subprocess.run([sys.executable, "-m", "sengoku", command, "-"], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=60, preexec_fn=lambda: os.close(0))
    assert (r.returncode, r.stdout) == (2, b"")
    assert "standard input is closed" in one_line_error(r.stderr)


@pytest.mark.parametrize("args", [["cards"], ["cards", "--json"], ["validate", DECK, "-o", "json"]])
def test_a_pipe_closed_early_is_a_quiet_141(args: list[str]) -> None:
    """`sengoku cards | head -0`: the reader is gone before the first write (no race: it closes
    its end before Python has even started)."""
    p = subprocess.Popen([sys.executable, "-m", "sengoku", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdout.close()
    err = p.stderr.read()
    p.wait(timeout=60)
    assert p.returncode == 141
    assert b"Traceback" not in err and b"Exception ignored" not in err and b"error" not in err


@pytest.fixture
def non_ascii_deck(tmp_path: Path) -> Path:
    deck = tmp_path / "デッキ—Ｓ.toml"  # non-ASCII in the path, so every report carries some
    deck.write_text('name = "Bannières"\n\n[[main]]\nname = "Ｓｏｍａ"\nlevel = 1\ncount = 4\n', encoding="utf-8")
    return deck


@pytest.mark.parametrize("output", ["json", "sarif"])
def test_json_reports_stay_whole_on_an_ascii_stream(non_ascii_deck: Path, output: str) -> None:
    r = run("validate", str(non_ascii_deck), "-o", output, env={"PYTHONIOENCODING": "ascii"})
    assert r.returncode == 1, r.stderr
    assert r.stdout.isascii()
    doc = json.loads(r.stdout)
    utf8 = json.loads(run("validate", str(non_ascii_deck), "-o", output, env={"PYTHONIOENCODING": "utf-8"}).stdout)
    assert doc == utf8  # the same document, only escaped


def test_junit_stays_whole_on_an_ascii_stream(non_ascii_deck: Path) -> None:
    r = run("validate", str(non_ascii_deck), "-o", "junit", env={"PYTHONIOENCODING": "ascii"})
    assert r.returncode == 1 and r.stdout.isascii()
    root = ET.fromstring(r.stdout)
    assert any(str(non_ascii_deck.name) in (case.get("name") or "") for case in root.iter("testcase"))


@pytest.mark.parametrize("args", [["cards", "--json"], ["games", "--json"], ["formats", "--json"],
                                  ["db", "check", "--json"]])
def test_every_json_command_is_whole_on_an_ascii_stream(args: list[str]) -> None:
    r = run(*args, env={"PYTHONIOENCODING": "ascii"})
    assert r.returncode == 0, r.stderr
    json.loads(r.stdout)


def test_text_reports_escape_what_an_ascii_stream_cannot_hold(non_ascii_deck: Path) -> None:
    r = run("validate", str(non_ascii_deck), env={"PYTHONIOENCODING": "ascii"})
    assert r.returncode == 1 and b"Traceback" not in r.stderr
    assert b"\\u30c7" in r.stdout  # the path's first character, as a backslash escape


def test_toml_to_an_ascii_stream_is_refused_not_mangled(non_ascii_deck: Path) -> None:
    r = run("fmt", "-", env={"PYTHONIOENCODING": "ascii"}, input=non_ascii_deck.read_bytes())
    assert (r.returncode, r.stdout) == (2, b"")
    assert "encoding" in one_line_error(r.stderr)


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.text(),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
                           max_leaves=12)


@settings(max_examples=200, deadline=None)
@given(json_values)
def test_ascii_json_is_the_same_document(value) -> None:  # type: ignore[no-untyped-def]
    text = ascii_json(json.dumps(value, ensure_ascii=False, indent=2))
    assert text.isascii() and json.loads(text) == value


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc"))))
def test_ascii_xml_is_the_same_document(value: str) -> None:
    elem = ET.Element("case", name=value)
    elem.text = value
    text = ascii_xml(ET.tostring(elem, encoding="unicode"))
    back = ET.fromstring(text)
    assert text.isascii() and back.get("name") == value and (back.text or "") == value
