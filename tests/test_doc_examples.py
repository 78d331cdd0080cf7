"""Every shell example of the README and the docs pages runs, exits as the page says, and prints
exactly what the page shows, figures included (the conventions, and the script that rewrites the
examples from their commands: scripts/update_examples.py)."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("update_examples", ROOT / "scripts" / "update_examples.py")
update_examples = importlib.util.module_from_spec(_spec)
sys.modules["update_examples"] = update_examples  # dataclasses look their module up
_spec.loader.exec_module(update_examples)

EXAMPLES = update_examples.examples()
FIX = "\n(python scripts/update_examples.py rewrites the examples from what their commands print)"


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.name for e in EXAMPLES])
def test_the_example_does_what_the_page_says(example) -> None:
    missing = example.missing()
    if missing:
        pytest.skip(f"needs {', '.join(missing)}")
    found = update_examples.problems(example)
    assert not found, "\n\n".join(found) + FIX


SESSIONS = update_examples.sessions()


@pytest.mark.parametrize("session", SESSIONS, ids=[s.name for s in SESSIONS])
def test_the_pages_python_prints_what_the_page_shows(session) -> None:
    found = update_examples.session_problems(session)
    assert not found, "\n\n".join(found) + FIX


def test_the_api_page_runs_the_public_api() -> None:
    api = next(s for s in SESSIONS if s.page.name == "api.md")
    code = "\n".join(line for _, _, statements in api.blocks for st in statements for line in st.source)
    for name in ("validate_file", "validate_paths", "load_decklist", "validate_deck", "load_card_db", "check_card_db",
                 "find_cards", "load_format", "fmt_decklist", "import_text", "goldfish", "compare", "engine_build",
                 "compile_deck", "GameRunner"):
        assert f"{name}(" in code, name
    assert "```python" not in api.page.read_text(encoding="utf-8")  # every Python example is run and checked


def test_every_generated_part_of_a_page_is_up_to_date() -> None:
    stale = [page.name for page in update_examples.PAGES
             if update_examples.generated(text := page.read_text(encoding="utf-8")) != text]
    assert stale == [], "python scripts/update_examples.py rewrites them"
    reference = (ROOT / "docs" / "api-reference.md").read_text(encoding="utf-8")
    assert "::: sengoku.goldfish" in reference  # the function, where the package callable as it sends it


def test_the_readme_tours_validate_goldfish_and_compare() -> None:
    readme = [e for e in EXAMPLES if e.page.name == "README.md"]
    commands = " ".join(c.line for e in readme for c in e.commands)
    for word in ("sengoku validate", "sengoku goldfish", "sengoku compare"):
        assert word in commands, word
    assert all(c.shown for e in readme for c in e.commands)  # real output shown with each


def test_no_sengoku_command_hides_in_a_block_that_is_not_run() -> None:
    left = [f"{page.relative_to(ROOT)}: {line.strip()}" for page in update_examples.PAGES
            for block in re.findall(r"```(?:sh|bash|shell)\n(.*?)```", page.read_text(encoding="utf-8"), re.S)
            for line in block.splitlines() if re.match(r"\s*(\$ )?sengoku ", line)]
    assert left == []


STALE_PAGE = """# A page

```console
$ sengoku validate decklists/default.toml
decklists/default.toml valid (sengoku-yugi, standard, 53 cards)
1 file(s): 1 valid, 0 invalid; 0 error(s), 0 warning(s)
```

<!-- example: exit 1 -->
```console
$ sengoku goldfish decklists/default.toml --runs 300 --turns 4 --seed 3 | head -3
Goldfish Sample Standard: Four Banners — 300 runs × 4 turns, going first, policy greedy, standard mode, seed 3
…
Kill turn: mean 1.00, p50 1 over the games won (1.0% won within 4 turns)
```
"""


def test_the_script_rewrites_a_stale_page_once_and_the_check_then_passes(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(STALE_PAGE, encoding="utf-8")
    script = [sys.executable, str(ROOT / "scripts" / "update_examples.py")]

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([*script, *args, str(page)], capture_output=True, text=True, timeout=300)

    check = run("--check")
    assert check.returncode == 1 and "53 cards" in check.stderr and "exited 0, the page says 1" in check.stderr
    assert page.read_text(encoding="utf-8") == STALE_PAGE  # --check changes nothing
    assert run().returncode == 1  # a block whose exit code is not the page's is left for a person
    assert page.read_text(encoding="utf-8") == STALE_PAGE.replace("53 cards", "54 cards")  # the other is rewritten
    page.write_text(STALE_PAGE.replace("<!-- example: exit 1 -->\n", ""), encoding="utf-8")
    assert run().returncode == 0
    written = page.read_text(encoding="utf-8")
    assert "(sengoku-yugi, standard, 54 cards)" in written
    printed = update_examples.run(update_examples.examples([page])[1])[0][1]
    assert len(printed) == 3 and printed[2].startswith("Kill turn: mean ")
    assert f"seed 3\n…\n{printed[2]}\n```" in written  # the figures the command prints, the elision kept
    assert run("--check").returncode == 0
    assert run().returncode == 0 and page.read_text(encoding="utf-8") == written  # a second run changes nothing


@pytest.mark.parametrize(("shown", "printed", "expected"), [
    (["a 1", "b"], ["a 1", "b"], True),
    (["a 1"], ["a 2"], False),  # a figure is compared as it is
    (["a 1.5%  │"], ["a 1.5%   │"], False),  # and so are the spaces
    (["┏━━┓"], ["┏━━━━━┓"], False),
    (["2 decks × 2000 runs in 1.53 s"], ["2 decks × 2000 runs in 12.5 s"], True),  # a wall time is masked
    (["2 decks × 2000 runs in 1.53 s"], ["2 decks × 2001 runs in 1.53 s"], False),  # only the time
    (["9 games in 1.0 s (9 games/s, up to 2 job(s), pure-Python engine)"],
     ["9 games in 2.0 s (4 games/s, up to 8 job(s), compiled engine)"], True),
    (["run 3 traced: won on turn 3; 0.12 s"], ["run 3 traced: won on turn 3; 0.40 s"], True),
    (["run 3 traced: won on turn 3; 0.12 s"], ["run 3 traced: won on turn 4; 0.12 s"], False),
    (["head", "…", "tail"], ["head", "x", "y", "tail"], True),
    (["head", "…", "tail"], ["head", "tail"], True),
    (["head", "…"], ["head"], True),
    (["head", "…", "tail"], ["head", "x"], False),
    (["x"], ["x", "extra"], False),  # nothing left out unless `…` says so
])
def test_matching_by_hand(shown, printed, expected) -> None:
    assert update_examples.matches(shown, printed) is expected


@pytest.mark.parametrize(("shown", "printed", "expected"), [
    # without `…`, the whole output; a line differing only in a masked part keeps its old text
    (["a 1", "in 1.5 s"], ["a 2", "b", "in 9.9 s"], ["a 2", "b", "in 1.5 s"]),
    # with `…`, each shown line is found by its words and takes the new figures
    # (of the lines of the same words, the one sharing the most figures: turn 3's row stays turn 3's)
    (["Kill turn", "…", "│ 3 │ 67.5% │", "…", "in 1.5 s"],
     ["Kill turn", "│ 1 │ 0.0% │", "│ 3 │ 86.2% │", "│ 4 │ 13.9% │", "x", "in 2.5 s"],
     ["Kill turn", "…", "│ 3 │ 86.2% │", "…", "in 1.5 s"]),
    (["a", "…", "│ 3 │", "…"], ["a", "│ 1 │", "│ 2 │"], ["a", "…", "│ 1 │", "…"]),  # or else the first
    (["Kill turn: mean 3.33", "…"], ["Kill turn: mean 3.14", "more"], ["Kill turn: mean 3.14", "…"]),
    (["Kill turn", "…"], ["Renamed", "Kill turn"], None),  # the first shown line is the first printed
    (["gone", "…"], ["other"], None),
])
def test_refilling_by_hand(shown, printed, expected) -> None:
    new = update_examples.refill(shown, printed)
    assert new == expected
    if new is not None:
        assert update_examples.matches(new, printed)  # what it writes passes the check
        assert update_examples.refill(new, printed) == new  # and a second run changes nothing
