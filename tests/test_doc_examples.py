"""Every shell example of the README and the docs runs, exits as the page says, and prints what
the page shows (the conventions: tests/doc_examples.py)."""

from __future__ import annotations

import importlib.util
import re

import pytest

from doc_examples import PAGES, ROOT, examples, matches, problems

EXAMPLES = examples()


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.name for e in EXAMPLES])
def test_the_example_does_what_the_page_says(example) -> None:
    missing = [m for m in example.needs if importlib.util.find_spec(m) is None]
    if missing:
        pytest.skip(f"needs {', '.join(missing)}")
    found = problems(example)
    assert not found, "\n\n".join(found) + "\n(python tests/doc_examples.py --update rewrites blocks without …)"


def test_the_readme_tours_validate_goldfish_and_compare() -> None:
    readme = [e for e in EXAMPLES if e.page.name == "README.md"]
    commands = " ".join(c.line for e in readme for c in e.commands)
    for word in ("sengoku validate", "sengoku goldfish", "sengoku compare"):
        assert word in commands, word
    assert all(c.shown for e in readme for c in e.commands)  # real output shown with each


def test_no_sengoku_command_hides_in_a_block_that_is_not_run() -> None:
    left = [f"{page.relative_to(ROOT)}: {line.strip()}" for page in PAGES
            for block in re.findall(r"```(?:sh|bash|shell)\n(.*?)```", page.read_text(encoding="utf-8"), re.S)
            for line in block.splitlines() if re.match(r"\s*(\$ )?sengoku ", line)]
    assert left == []


@pytest.mark.parametrize(("shown", "printed", "varies", "expected"), [
    (["a 1", "b"], ["a 1", "b"], False, True),
    (["a 1"], ["a 2"], False, False),
    (["a 1.5%  │"], ["a 12.25%   │"], True, True),  # a number is a number, spaces are spaces
    (["a 1"], ["b 1"], True, False),  # but the words stay
    (["┏━━┓"], ["┏━━━━━┓"], True, True),
    (["head", "…", "tail"], ["head", "x", "y", "tail"], False, True),
    (["head", "…", "tail"], ["head", "tail"], False, True),
    (["head", "…"], ["head"], False, True),
    (["head", "…", "tail"], ["head", "x"], False, False),
    (["x"], ["x", "extra"], False, False),  # nothing left out unless `…` says so
])
def test_matching_by_hand(shown, printed, varies, expected) -> None:
    assert matches(shown, printed, varies) is expected
