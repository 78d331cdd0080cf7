"""docs/trace.md shows a real trace: the output of the command it names, byte for byte."""

from __future__ import annotations

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
