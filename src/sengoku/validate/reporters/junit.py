"""JUnit XML: one test case per decklist file, failing when the file does not pass.

CI systems (GitLab, Jenkins, Azure) show these as test results. A failing case has one
`<failure>` listing every violation; warnings of a passing file go to `<system-out>`. Each case
carries the deck's name and deck hash as `<property>` elements (when known).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any, TextIO

from sengoku.display import printable
from sengoku.validate.reporters.spool import Document, Spool
from sengoku.validate.reporters.text import location


def _line(path: str | None, v: Any) -> str:
    cards = f" [{', '.join(v.cards)}]" if v.cards else ""
    return printable(f"{location(path, v.line, v.column)} {v.severity} {v.rule} {v.message}{cards}")


def _case(result: Any, strict: bool) -> ET.Element:
    """Return one decklist's test case."""
    case = ET.Element("testcase", classname=f"sengoku.validate.{result.game}",
                      name=printable(result.path or "<decklist>"))  # XML 1.0 forbids control characters
    known = [(k, v) for k, v in (("deck_name", result.name), ("deck_hash", result.deck_hash)) if v]
    if known:
        props = ET.SubElement(case, "properties")
        for key, value in known:
            ET.SubElement(props, "property", name=key, value=printable(value))
    failing = [v for v in result.violations if v.severity == "error" or strict]
    if not result.passed(strict):
        first = failing[0]
        failure = ET.SubElement(case, "failure", type=first.rule,
                                message=printable(f"{len(failing)} problem(s); first: {first.rule}: {first.message}"))
        failure.text = "\n".join(_line(result.path, v) for v in failing)
    rest = [v for v in result.violations if v not in failing]
    if rest:
        ET.SubElement(case, "system-out").text = "\n".join(_line(result.path, v) for v in rest)
    return case


_HOLE = "sengoku-spooled-test-cases"  # the test cases' place in the document, until they are copied in
_CASE_INDENT = "\n    "  # what ET.indent puts between the test cases of <testsuites><testsuite>


class Report:
    """Spool each file's test case, indented as in the whole document; write it all at the end."""

    def __init__(self, out: TextIO, strict: bool = False):
        self.strict = strict
        self._cases = Spool()

    def add(self, result: Any) -> None:
        case = _case(result, self.strict)
        ET.indent(case, level=2)
        self._cases.write(("" if self._cases.empty else _CASE_INDENT) + ET.tostring(case, encoding="unicode"))

    def finish(self, tally: Any) -> Document:
        summary = tally.summary()
        suites = ET.Element("testsuites", name="sengoku validate", tests=str(summary["files"]),
                            failures=str(summary["failed"]), errors="0")
        suite = ET.SubElement(suites, "testsuite", name="sengoku validate", tests=str(summary["files"]),
                              failures=str(summary["failed"]), errors="0", skipped="0")
        if not self._cases.empty:
            ET.SubElement(suite, _HOLE)
        ET.indent(suites)
        before, _, after = ET.tostring(suites, encoding="unicode").partition(f"<{_HOLE} />")
        return Document(['<?xml version="1.0" encoding="UTF-8"?>\n', before, self._cases, after, "\n"])
