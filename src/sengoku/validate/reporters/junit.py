"""JUnit XML: one test case per decklist file, failing when the file does not pass.

CI systems (GitLab, Jenkins, Azure) show these as test results. A failing case has one
`<failure>` listing every violation; warnings of a passing file go to `<system-out>`. Each case
carries the deck's name and deck hash as `<property>` elements (when known).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any, TextIO

from sengoku.display import printable
from sengoku.validate.reporters.text import location


def _line(path: str | None, v: Any) -> str:
    cards = f" [{', '.join(v.cards)}]" if v.cards else ""
    return printable(f"{location(path, v.line, v.column)} {v.severity} {v.rule} {v.message}{cards}")


def write(run: Any, stream: TextIO) -> None:
    """Write the run as a JUnit XML document."""
    summary = run.summary()
    suites = ET.Element("testsuites", name="sengoku validate", tests=str(summary["files"]),
                        failures=str(summary["failed"]), errors="0")
    suite = ET.SubElement(suites, "testsuite", name="sengoku validate", tests=str(summary["files"]),
                          failures=str(summary["failed"]), errors="0", skipped="0")
    for result in run.results:
        case = ET.SubElement(suite, "testcase", classname=f"sengoku.validate.{result.game}",
                             name=printable(result.path or "<decklist>"))  # XML 1.0 forbids control characters
        known = [(k, v) for k, v in (("deck_name", result.name), ("deck_hash", result.deck_hash)) if v]
        if known:
            props = ET.SubElement(case, "properties")
            for key, value in known:
                ET.SubElement(props, "property", name=key, value=printable(value))
        failing = [v for v in result.violations if v.severity == "error" or run.strict]
        if not result.passed(run.strict):
            first = failing[0]
            failure = ET.SubElement(case, "failure", type=first.rule,
                                    message=printable(f"{len(failing)} problem(s); first: {first.rule}: {first.message}"))
            failure.text = "\n".join(_line(result.path, v) for v in failing)
        rest = [v for v in result.violations if v not in failing]
        if rest:
            ET.SubElement(case, "system-out").text = "\n".join(_line(result.path, v) for v in rest)
    ET.indent(suites)
    stream.write('<?xml version="1.0" encoding="UTF-8"?>\n')
    stream.write(ET.tostring(suites, encoding="unicode"))
    stream.write("\n")
