"""Run every shell example of the README and the docs pages, and write what it prints into the page.

    python scripts/update_examples.py           # rewrite every example's output from its commands
    python scripts/update_examples.py --check   # change nothing; exit 1 when a page shows other output

Run it whenever a change alters what a command prints (a policy, a report, a message): it is how
the pages keep showing what the commands print. tests/test_doc_examples.py runs the same check.

An example is a fenced `console` block. Each line starting with `$ ` is a command, run by bash
from a scratch folder that holds the repository's `decklists/`, `card_db/` and `schemas/`, with
the `sengoku` of this Python first on PATH; the lines after it, up to the next command, are what
it prints: stdout, then stderr. The output shown is compared exactly, figures included: the
commands use fixed seeds, so a newcomer who runs one gets what the page shows. Only the parts of a
line that change from one run or machine to the next are left out of the comparison (MASKS: a
wall time, a speed, the number of cores, which build of the engine runs); the page keeps the ones
it was written with.

A line holding only `…` stands for lines left out. The lines between two `…` are shown lines of
the output, in order: the script finds them again in what the command prints now (matching the
text with each figure taken as any figure) and writes the new figures in. A block without `…`
shows the whole output and is rewritten whole. When the shown lines cannot be found any more (a
heading renamed, a line gone), the script says so and leaves the block for a person to edit.

An HTML comment on the line before the block changes how it is judged, several at once separated
by `;`:

- `<!-- example: exit N -->`: every command of the block exits N (otherwise 0 is expected);
- `<!-- example: output not shown -->`: only the exit code is checked;
- `<!-- example: needs MODULE -->`: skipped unless MODULE can be imported (an optional extra).

A `pycon` block holds Python statements (`>>> `, continued by `... `), each followed by what the
interpreter shows for it: the value's repr, what it prints, or for an exception
`Traceback (most recent call last):`, `  ...` and its last line. The blocks of a page run in
order in one namespace, in a scratch folder like the shell's, and are compared and rewritten the
same way.

A part of a page between `<!-- generated: NAME -->` and `<!-- end generated -->` is written from
the file it describes (GENERATED: the GitHub Action's inputs and outputs, from action.yml; the
Python API reference's list of public names, from `sengoku.__all__`), and checked and rewritten
with the examples.

`sh` blocks hold set-up and benchmark commands (installs, timings), which are not run here; a
`sengoku` command belongs in a `console` block (tests/test_doc_examples.py checks that none is
left in an `sh` block). Blocks whose commands are the same are run once (the tune example of the
README is the one of docs/tune.md).

A small collector rather than sybil or pytest-examples: those run Python examples (pytest-examples
also formats them), while these are shell sessions whose output is refilled by matching.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import importlib.util
import io
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

# What may differ between two runs of the same seeded command, and nothing else: each pattern
# keeps the words around the varying figure, so a changed report still shows as a difference.
MASKS = [
    (re.compile(r"\bin \d+(?:\.\d+)? s\b"), "in <time> s"),  # "2000 runs × 8 turns in 1.53 s"
    (re.compile(r"; \d+(?:\.\d+)? s$"), "; <time> s"),  # a trace's closing line
    (re.compile(r"\b[\d,]+(?:\.\d+)? games/s\b"), "<speed> games/s"),
    (re.compile(r"\bup to \d+ job\(s\)"), "up to <cores> job(s)"),  # --jobs defaults to the cores
    (re.compile(r"\bon \d+ local process(?:es)?\b"), "on <cores> local processes"),
    (re.compile(r"\b(?:pure-Python|compiled) engine\b"), "<build> engine"),
]
_NUMBER = re.compile(r"[-+]?\d[\d,]*(?:\.\d+)?(?:e[-+]?\d+)?")
_RULES = re.compile(r"([━─═\-])\1+")


_GENERATED = re.compile(r"(<!-- generated: (?P<name>[\w-]+) -->\n)(?P<body>.*?)(<!-- end generated -->)", re.S)


def _cell(text: str) -> str:
    """A Markdown table cell that reads the same on GitHub and on the site: one line, `*` and `|` escaped."""
    return " ".join(str(text).split()).replace("*", "\\*").replace("|", "\\|")


def action_reference() -> str:
    """The GitHub Action's inputs and outputs as action.yml declares them."""
    import yaml  # the test extra's; only this part needs it

    action = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    lines = ["| input | required | default | meaning |", "| --- | --- | --- | --- |"]
    for name, spec in action.get("inputs", {}).items():
        default = spec.get("default", "")
        lines.append(f"| `{name}` | {'yes' if spec.get('required') else 'no'} | "
                     f"{f'`{default}`' if default != '' else '(empty)'} | {_cell(spec.get('description', ''))} |")
    outputs = action.get("outputs", {})
    if outputs:
        lines += ["", "| output | meaning |", "| --- | --- |"]
        lines += [f"| `{name}` | {_cell(spec.get('description', ''))} |" for name, spec in outputs.items()]
    else:
        lines += ["", "The action sets no outputs: what it found is its exit code (a failed step fails the job), "
                      "the job summary, the annotations and the `output` file."]
    return "\n".join(lines) + "\n"


def api_reference() -> str:
    """A mkdocstrings directive for each public name of `sengoku`, at the place it is defined."""
    import sengoku

    lines = []
    for name in sengoku.__all__:
        if name == "__version__":
            continue
        value = getattr(sengoku, name)
        if isinstance(value, type(sengoku)):  # a package callable as its function (sengoku.goldfish, .tune)
            value = getattr(value, name)
        lines += [f"::: {value.__module__}.{value.__qualname__}", ""]
    return "\n".join(lines)


GENERATED = {"action-reference": action_reference, "api-reference": api_reference}


def generated(text: str) -> str:
    """The page's text with every generated part written anew."""
    return _GENERATED.sub(lambda m: m.group(1) + GENERATED[m.group("name")]() + m.group(4), text)


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
    output_shown: bool = True
    needs: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        page = self.page.relative_to(ROOT) if self.page.is_relative_to(ROOT) else self.page
        return f"{page}:{self.line}"

    def missing(self) -> list[str]:
        """The optional modules the example needs and this Python lacks."""
        return [m for m in self.needs if importlib.util.find_spec(m) is None]


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


_RUNS: dict[tuple[str, ...], list[tuple[int, list[str]]]] = {}


def run(example: Example) -> list[tuple[int, list[str]]]:
    """Run the example's commands in one scratch folder; return each one's exit code and output lines.

    A block whose commands are those of a block already run in this process is not run again:
    the commands are seeded and start from the same files, so they print the same.
    """
    key = tuple(command.line for command in example.commands)
    if key in _RUNS:
        return _RUNS[key]
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
    _RUNS[key] = results
    return results


def masked(line: str) -> str:
    """The line with the parts that vary between runs of the same command replaced by names."""
    line = line.rstrip()
    for pattern, name in MASKS:
        line = pattern.sub(name, line)
    return line


def _loose(line: str) -> str:
    """The line as the shown lines are found by: every figure a `#`, runs of spaces and rules as one."""
    line = _RULES.sub(r"\1", _NUMBER.sub("#", masked(line)))
    return re.sub(r" +", " ", line)


def _score(shown: str, printed: str) -> int:
    """How well a printed line stands for a shown one of the same words: the same line but for MASKS
    beats any other; otherwise, the figures they have in common, place by place."""
    if masked(shown) == masked(printed):
        return 1000
    return sum(a == b for a, b in zip(_NUMBER.findall(shown), _NUMBER.findall(printed)))


def _place(shown: list[str], printed: list[str]) -> list[int] | None:
    """The index in `printed` of each shown line that is not `…`, or None when they cannot be placed.

    Shown lines between two `…` are consecutive printed lines with the same words (`_loose`); a
    `…` stands for any number of lines, none too; the first printed lines are anchored to the first
    shown ones and the last to the last unless a `…` stands there. Of the placements, the one whose
    lines are most alike (`_score`) wins, then the earliest: the exact one when there is one.
    """
    segments: list[list[str]] = [[]]
    for line in shown:
        if line.strip() == ELLIPSIS:
            segments.append([])
        else:
            segments[-1].append(line)
    free_start, free_end = len(segments) > 1 and not segments[0], len(segments) > 1 and not segments[-1]
    segments = [s for s in segments if s]
    n = len(printed)
    if not segments:
        return [] if free_start or free_end or n == 0 else None
    loose = [_loose(line) for line in printed]
    best: dict[int, tuple[int, list[int]]] = {-1: (0, [])}  # end of the placed lines -> (score, places)
    for i, segment in enumerate(segments):
        keys = [_loose(line) for line in segment]
        starts = range(n - len(segment) + 1)
        if i == 0 and not free_start:
            starts = range(1) if n >= len(segment) else range(0)
        if i == len(segments) - 1 and not free_end:
            starts = [p for p in starts if p == n - len(segment)]
        after: dict[int, tuple[int, list[int]]] = {}
        for start in starts:
            if loose[start:start + len(segment)] != keys:
                continue
            before = [v for end, v in best.items() if end <= start]
            if not before:
                continue
            score, places = max(before, key=lambda v: v[0])  # max keeps the first of equals: the earliest
            gain = sum(_score(line, printed[start + j]) for j, line in enumerate(segment))
            after[start + len(segment)] = (score + gain, places + list(range(start, start + len(segment))))
        if not after:
            return None
        best = after
    return max(best.values(), key=lambda v: v[0])[1]


def matches(shown: list[str], printed: list[str]) -> bool:
    """Tell whether the printed lines are what the page shows: exactly, but for the MASKS."""
    places = _place(shown, printed)
    lines = [line for line in shown if line.strip() != ELLIPSIS]
    return places is not None and all(masked(s) == masked(printed[p]) for s, p in zip(lines, places))


def refill(shown: list[str], printed: list[str]) -> list[str] | None:
    """The lines the page should show after a command that printed `printed`; None if they cannot be placed.

    Without `…` that is the whole output; with it, each shown line is replaced by the printed line
    it is found at. A line that differs from the printed one only where MASKS apply is kept, so
    that a second run changes nothing.
    """
    if matches(shown, printed):
        return shown
    if not any(line.strip() == ELLIPSIS for line in shown):
        new = list(printed)
        ops = difflib.SequenceMatcher(None, [masked(s) for s in shown], [masked(p) for p in printed], autojunk=False)
        for tag, i1, i2, j1, _ in ops.get_opcodes():
            if tag == "equal":
                new[j1:j1 + i2 - i1] = shown[i1:i2]
        return new
    places = _place(shown, printed)
    if places is None:
        return None
    at = iter(places)
    return [line if line.strip() == ELLIPSIS else _kept(line, printed[next(at)]) for line in shown]


def _kept(shown: str, printed: str) -> str:
    return shown if masked(shown) == masked(printed) else printed


def problems(example: Example) -> list[str]:
    """Return what is wrong with the example when run (nothing: it does what the page says)."""
    found = []
    for command, (code, printed) in zip(example.commands, run(example)):
        if code != example.exit:
            found.append(f"$ {command.line}\n  exited {code}, the page says {example.exit}\n  "
                         + "\n  ".join(printed[-15:]))
        elif example.output_shown and not matches(command.shown, printed):
            diff = difflib.unified_diff(command.shown, printed, "the page shows", "the command prints", lineterm="")
            found.append(f"$ {command.line}\n  " + "\n  ".join(diff))
    return found


def updated_body(example: Example) -> str | None:
    """The block's body with what its commands print now; None if a shown line cannot be placed."""
    if not example.output_shown:
        return None
    body = []
    for command, (_, printed) in zip(example.commands, run(example)):
        new = refill(command.shown, printed)
        if new is None:
            return None
        body.append(f"$ {command.line}\n" + "".join(line + "\n" for line in new))
    return "".join(body)


_PYCON = re.compile(r"```pycon\n(?P<body>.*?)```", re.S)


@dataclass
class Statement:
    source: list[str]  # its lines, with their `>>> ` and `... ` prompts
    shown: list[str] = field(default_factory=list)  # what the page shows it prints


@dataclass
class Session:
    """The `pycon` blocks of one page: Python statements run in order in one namespace."""
    page: Path
    blocks: list[tuple[int, int, list[Statement]]]  # (start, end) of each body, its statements

    @property
    def name(self) -> str:
        page = self.page.relative_to(ROOT) if self.page.is_relative_to(ROOT) else self.page
        return f"{page} (Python)"


def sessions(pages: list[Path] = PAGES, text: str | None = None) -> list[Session]:
    """The pages' Python sessions (of one page's `text` as it stands, when given)."""
    found = []
    for page in pages:
        blocks = []
        for match in _PYCON.finditer(page.read_text(encoding="utf-8") if text is None else text):
            statements: list[Statement] = []
            for line in match.group("body").splitlines():
                if line.startswith(">>> ") or line == ">>>":
                    statements.append(Statement([line]))
                elif statements and (line.startswith("... ") or line == "...") and not statements[-1].shown:
                    statements[-1].source.append(line)
                elif statements:
                    statements[-1].shown.append(line)
            blocks.append((match.start("body"), match.end("body"), statements))
        if blocks:
            found.append(Session(page, blocks))
    return found


def run_session(session: Session) -> list[list[list[str]]]:
    """Run the page's statements in a scratch folder; return what each prints, block by block.

    As the interpreter shows it: a value's repr, what it prints, or an exception's last line after
    `Traceback (most recent call last):` and `  ...`.
    """
    folder, here, namespace = _scratch(), Path.cwd(), {"__name__": "__main__"}
    printed_all = []
    try:
        os.chdir(folder)
        for _, _, statements in session.blocks:
            printed_block = []
            for statement in statements:
                source = "\n".join(line[4:] for line in statement.source) + "\n"
                out = io.StringIO()
                with contextlib.redirect_stdout(out):
                    try:
                        exec(compile(source, str(session.page), "single"), namespace)  # noqa: S102 - the project's own pages
                    except Exception as exc:  # shown as the interpreter shows it
                        print(f"Traceback (most recent call last):\n  ...\n{type(exc).__module__}.{type(exc).__qualname__}: {exc}")
                printed_block.append([line.rstrip() for line in out.getvalue().splitlines()])
            printed_all.append(printed_block)
    finally:
        os.chdir(here)
        shutil.rmtree(folder, ignore_errors=True)
    return printed_all


def session_problems(session: Session) -> list[str]:
    found = []
    for (_, _, statements), printed_block in zip(session.blocks, run_session(session)):
        for statement, printed in zip(statements, printed_block):
            if not matches(statement.shown, printed):
                diff = difflib.unified_diff(statement.shown, printed, "the page shows", "Python prints", lineterm="")
                found.append("\n".join(statement.source) + "\n  " + "\n  ".join(diff))
    return found


def updated_session(session: Session, text: str) -> str:
    """The page's text with each statement's output as Python prints it now."""
    for (start, end, statements), printed_block in reversed(list(zip(session.blocks, run_session(session)))):
        body = "".join("".join(line + "\n" for line in s.source + refill(s.shown, p))
                       for s, p in zip(statements, printed_block))
        text = text[:start] + body + text[end:]
    return text


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 when an example differs")
    parser.add_argument("pages", nargs="*", type=Path, help="only these pages (default: README.md, docs/*.md)")
    args = parser.parse_args()
    failed = 0
    for page in [p.resolve() for p in args.pages] or PAGES:
        text = page.read_text(encoding="utf-8")
        for example in reversed(examples([page])):  # from the end: a rewrite keeps earlier offsets valid
            missing = example.missing()
            if missing:
                print(f"skipped {example.name}: needs {', '.join(missing)}", file=sys.stderr)
                continue
            found = problems(example)
            if not found:
                continue
            exits_right = all(code == example.exit for code, _ in run(example))
            body = updated_body(example) if exits_right and not args.check else None
            if body is None:
                failed += 1
                why = "" if args.check or not exits_right else " (the shown lines are not in the output: edit the block)"
                print(f"{example.name}{why}:\n" + "\n\n".join(found) + "\n", file=sys.stderr)
                continue
            text = text[:example.start] + body + text[example.end:]
            print(f"updated {example.name}")
        for session in sessions([page], text):  # the page's Python, in the text as the shell examples left it
            found = session_problems(session)
            if found and args.check:
                failed += 1
                print(f"{session.name}:\n" + "\n\n".join(found) + "\n", file=sys.stderr)
            elif found:
                text = updated_session(session, text)
                print(f"updated {session.name}")
        if generated(text) != text:  # after the examples, whose offsets are the page's as read
            if args.check:
                failed += 1
                print(f"{page.name}: a generated part is out of date", file=sys.stderr)
            else:
                text = generated(text)
                print(f"updated {page.name}'s generated parts")
        if not args.check and text != page.read_text(encoding="utf-8"):
            temporary = page.with_name(f".{page.name}.update")
            temporary.write_text(text, encoding="utf-8")
            os.replace(temporary, page)  # the page whole, old or new
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
