"""docs/trace.md shows a real trace: the output of the command it names, byte for byte."""

from __future__ import annotations

import json
import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "trace.md"
COMMAND = "sengoku goldfish --runs 1000 --trace fastest"


def test_the_pages_trace_is_what_its_command_prints(cli) -> None:
    text = DOC.read_text(encoding="utf-8")
    assert f"```sh\n{COMMAND}\n```" in text
    shown = re.search(r"```text\n(.*?)```", text, re.S).group(1)
    r = cli(*COMMAND.split()[1:], "--jobs", "1")
    assert r.code == 0, r.err
    assert shown == r.out, f"docs/trace.md's trace is stale: paste the output of `{COMMAND}` into it"


def test_the_pages_attack_event_is_the_traces_first_attack(cli) -> None:
    text = DOC.read_text(encoding="utf-8")
    shown = json.loads(re.search(r"```json\n(.*?)```", text, re.S).group(1))
    r = cli(*COMMAND.split()[1:], "--jobs", "1", "--json")
    assert r.code == 0, r.err
    first = next(e for e in map(json.loads, r.out.splitlines()) if e["event"] == "attack")
    assert shown == first, f"docs/trace.md's attack event is stale: the first attack event of `{COMMAND} --json`"
