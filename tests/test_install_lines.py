"""No install line of the README or the docs turns the quick start's compiled engine into pure Python.

The quick start installs sengoku into `.venv` as a regular, compiled package, and the tour then
activates it. An editable install (`pip install -e`) or one with SENGOKU_PURE_PYTHON=1 builds the
engine as plain Python source, at about half the speed: such a line must name the pip of another
environment (`.venv-test/bin/pip`, `.venv-docs/bin/pip`), never `.venv`'s, and never a bare `pip`,
which after the tour's `. .venv/bin/activate` is `.venv`'s.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_FENCE = re.compile(r"```[a-z]*\n(.*?)```", re.S)
_INLINE = re.compile(r"(`+)(.+?)\1")


def install_commands(text: str) -> list[str]:
    """Every `pip install` command of a page: from its code blocks and its inline code."""
    found = []
    for block in _FENCE.findall(text):
        found += [line for line in block.splitlines() if "pip install" in line]
    found += [m.group(2) for m in _INLINE.finditer(_FENCE.sub("", text)) if "pip install" in m.group(2)]
    commands = []
    for line in found:
        line = line.split(" #", 1)[0].removeprefix("$ ").strip().removeprefix("- run:").strip()
        commands += [part.strip() for part in re.split(r"&&|;|\|\|?", line) if "pip install" in part]
    return commands


def degrades_the_compiled_engine(command: str) -> bool:
    """Tell whether the command could install sengoku as pure Python into `.venv`."""
    words = shlex.split(command)
    pip = words[words.index("install") - 1]
    if pip == "pip" and words[words.index("install") - 2:words.index("install") - 1] == ["-m"]:
        pip = words[words.index("install") - 3]  # python -m pip install: the python names the environment
    pure = any(w in ("-e", "--editable") or w.startswith("--editable=") for w in words) \
        or "SENGOKU_PURE_PYTHON=1" in words
    if not pure:
        return False
    environment = Path(pip).parent.parent.as_posix() if "/" in pip else None  # .venv-docs/bin/pip -> .venv-docs
    return environment in (None, ".venv", "./.venv")


@pytest.mark.parametrize(("command", "degrades"), [
    (".venv/bin/pip install -q .", False),  # the quick start: compiled
    (".venv-test/bin/pip install -q -e '.[test]'", False),
    (".venv-docs/bin/pip install -q -e '.[docs]'", False),
    ("pip install -e '.[docs]'", True),  # after `. .venv/bin/activate`: .venv's pip
    (".venv/bin/pip install -e .", True),
    ("python -m pip install --editable .", True),
    (".venv/bin/python -m pip install -e .", True),
    ("SENGOKU_PURE_PYTHON=1 .venv/bin/pip install .", True),
    ("pip install 'sengoku[cluster]'", False),  # the installed sengoku stays; only the extra's packages come
])
def test_the_rule_by_hand(command: str, degrades: bool) -> None:
    assert degrades_the_compiled_engine(command) is degrades


def test_no_install_line_of_the_readme_or_the_docs_degrades_dot_venv() -> None:
    commands = {page.relative_to(ROOT).as_posix(): install_commands(page.read_text(encoding="utf-8"))
                for page in PAGES}
    assert ".venv/bin/pip install -q ." in commands["README.md"]  # the quick start's compiled install
    assert any(".venv-docs/bin/pip install" in c for c in commands["README.md"])  # the docs' own environment
    bad = [(page, c) for page, found in commands.items() for c in found if degrades_the_compiled_engine(c)]
    assert bad == []


def test_the_readme_serves_the_docs_from_their_own_environment() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    line = next(line for block in _FENCE.findall(readme) for line in block.splitlines() if "mkdocs serve" in line)
    assert line == "python3 -m venv .venv-docs && .venv-docs/bin/pip install -q -e '.[docs]' && .venv-docs/bin/mkdocs serve"
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "$PY -m venv .venv-docs && .venv-docs/bin/pip install -q -e '.[docs]'" in ci  # CI's docs tools: the same
