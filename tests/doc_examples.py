"""The shell examples of the README and the docs pages: found, run, and compared with what they show.

    python tests/doc_examples.py            # run every example; print the ones that differ
    python tests/doc_examples.py --update   # write what the commands print now into the blocks

An example is a fenced `console` block. Each line starting with `$ ` is a command, run by bash
from a scratch folder that holds the repository's `decklists/`, `card_db/` and `schemas/`, with
the `sengoku` of this Python first on PATH; the lines after it, up to the next command, are what
it prints: stdout, then stderr, as a terminal shows them for these commands. An HTML comment on
the line before the block changes how it is judged, several at once separated by `;`:

- `<!-- example: exit N -->`: every command of the block exits N (otherwise 0 is expected);
- `<!-- example: figures vary -->`: the output holds figures of a simulation, which change when
  the engine, a policy or the random streams do: every number is compared as "a number", runs
  of spaces and of table-rule characters as one, the rest of the text exactly;
- `<!-- example: output not shown -->`: only the exit code is checked;
- `<!-- example: needs MODULE -->`: skipped unless MODULE can be imported (an optional extra).

A line holding only `…` stands for any number of lines. `sh` blocks hold set-up and benchmark
commands (installs, timings), which are not run here; a `sengoku` command belongs in a `console`
block (tests/test_doc_examples.py checks that none is left in an `sh` block).

A small collector rather than sybil or pytest-examples: those run Python examples (pytest-examples
also formats them), while these are shell sessions whose output holds simulation figures; the
rules above take about a hundred lines, and no dependency.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
ELLIPSIS = "…"
_BLOCK = re.compile(r"(?:<!-- example: (?P<marks>[^>]*?) -->\n)?```console\n(?P<body>.*?)```", re.S)
_NUMBER = re.compile(r"[-+]?\d[\d,]*(?:\.\d+)?")
_RULES = re.compile(r"([━─═\-])\1+")


@dataclass
class Command:
    line: str  # the command, without "$ "
    shown: list[str] = field(default_factory=list)  # the output lines the page shows after it


@dataclass
class Example:
    page: Path
    line: int  # of the opening fence
    start: int  # offsets of the block's body in the page's text
    end: int
    commands: list[Command]
    exit: int = 0
    varies: bool = False
    output_shown: bool = True
    needs: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def examples(pages: list[Path] = PAGES) -> list[Example]:
    found = []
    for page in pages:
        text = page.read_text(encoding="utf-8")
        for match in _BLOCK.finditer(text):
            commands: list[Command] = []
            for raw in match.group("body").splitlines():
                if raw.startswith("$ "):
                    commands.append(Command(raw[2:]))
                elif commands:
                    commands[-1].shown.append(raw)
            example = Example(page, text.count("\n", 0, match.start("body")), match.start("body"),
                              match.end("body"), commands)
            for mark in filter(None, (m.strip() for m in (match.group("marks") or "").split(";"))):
                if mark.startswith("exit "):
                    example.exit = int(mark.split()[1])
                elif mark == "figures vary":
                    example.varies = True
                elif mark == "output not shown":
                    example.output_shown = False
                elif mark.startswith("needs "):
                    example.needs.append(mark.split()[1])
                else:
                    raise ValueError(f"{example.name}: unknown example mark {mark!r}")
            found.append(example)
    return found


def _scratch() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="sengoku-doc-"))
    for name in ("decklists", "card_db", "schemas"):
        shutil.copytree(ROOT / name, folder / name)
    return folder


def run(example: Example) -> list[tuple[int, list[str]]]:
    """Run the example's commands in one scratch folder; return each one's exit code and output lines."""
    folder = _scratch()
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
           "COLUMNS": "200", "NO_COLOR": "1", "SENGOKU_CACHE_DIR": str(folder / ".cache")}
    env.pop("SENGOKU_DB", None)
    results = []
    try:
        for command in example.commands:
            done = subprocess.run(["bash", "-c", command.line], cwd=folder, env=env, capture_output=True,
                                  text=True, timeout=600)
            lines = (done.stdout + done.stderr).splitlines()
            results.append((done.returncode, [line.rstrip() for line in lines]))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return results


def _normal(line: str, varies: bool) -> str:
    line = line.rstrip()
    if varies:
        line = _RULES.sub(r"\1", _NUMBER.sub("#", line))
        line = re.sub(r" +", " ", line)
    return line


def matches(shown: list[str], printed: list[str], varies: bool) -> bool:
    """Tell whether the printed lines are what the page shows (`…` standing for any lines)."""
    pattern = "".join(r"(?:[^\n]*\n)*?" if line.strip() == ELLIPSIS else re.escape(_normal(line, varies)) + r"\n"
                      for line in shown)
    return re.fullmatch(pattern, "".join(_normal(line, varies) + "\n" for line in printed)) is not None


def problems(example: Example) -> list[str]:
    """Return what is wrong with the example when run (nothing: it does what the page says)."""
    found = []
    for command, (code, printed) in zip(example.commands, run(example)):
        if code != example.exit:
            found.append(f"$ {command.line}\n  exited {code}, the page says {example.exit}\n  "
                         + "\n  ".join(printed[-15:]))
        elif example.output_shown and not matches(command.shown, printed, example.varies):
            found.append(f"$ {command.line}\n  printed:\n  " + "\n  ".join(printed)
                         + "\n  the page shows:\n  " + "\n  ".join(command.shown))
    return found


def update(example: Example) -> bool:
    """Write what the commands print now into the example's block (not one holding `…`); return whether it changed."""
    if not example.output_shown or any(ELLIPSIS in line for c in example.commands for line in c.shown):
        return False
    body = "".join(f"$ {command.line}\n" + "".join(line + "\n" for line in printed)
                   for command, (_, printed) in zip(example.commands, run(example)))
    text = example.page.read_text(encoding="utf-8")
    if text[example.start:example.end] == body:
        return False
    example.page.write_text(text[:example.start] + body + text[example.end:], encoding="utf-8")
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--update", action="store_true", help="write the current output into the blocks")
    args = parser.parse_args()
    failed = 0
    for page in PAGES:
        for example in reversed(examples([page])):  # from the end: an update keeps earlier offsets valid
            if any(importlib.util.find_spec(m) is None for m in example.needs):
                continue
            if args.update:
                if update(example):
                    print(f"updated {example.name}")
                continue
            for problem in problems(example):
                failed += 1
                print(f"{example.name}: {problem}\n")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
