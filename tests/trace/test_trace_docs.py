"""docs/trace.md shows a real trace: the output of the command it names, byte for byte.

(tests/test_doc_examples.py runs the page's examples too, with figures compared as "a number";
here the trace itself must be exactly what the command prints, numbers included.)
"""

from __future__ import annotations

import json
import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "trace.md"
COMMAND = "sengoku goldfish --runs 1000 --trace fastest"
UPDATE = f"paste the output of `{COMMAND}` (and the first attack event of its --json) into docs/trace.md"


def test_the_pages_trace_is_what_its_command_prints(cli) -> None:
    text = DOC.read_text(encoding="utf-8")
    shown = re.search(rf"```console\n\$ {COMMAND}\n(.*?)```", text, re.S).group(1).splitlines(keepends=True)
    r = cli(*COMMAND.split()[1:], "--jobs", "1")
    assert r.code == 0, r.err
    assert "".join(shown[:-1]) == r.out, f"docs/trace.md's trace is stale: {UPDATE}"
    summary = r"run (\d+) \(the fastest of 1,000 games\) traced: won on turn (\d+); [\d.]+ s\n"
    assert re.fullmatch(summary, shown[-1]) and re.fullmatch(summary, r.err.splitlines(keepends=True)[-1])
    assert re.fullmatch(summary, shown[-1]).groups() == re.fullmatch(summary, r.err.splitlines(keepends=True)[-1]).groups()


def test_the_pages_attack_event_is_the_traces_first_attack(cli) -> None:
    text = DOC.read_text(encoding="utf-8")
    shown = json.loads(re.search(r"```json\n(.*?)```", text, re.S).group(1))
    r = cli(*COMMAND.split()[1:], "--jobs", "1", "--json")
    assert r.code == 0, r.err
    first = next(e for e in map(json.loads, r.out.splitlines()) if e["event"] == "attack")
    assert shown == first, f"docs/trace.md's attack event is stale: {UPDATE}"
