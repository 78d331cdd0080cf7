"""The GitHub Action's step (action.yml): validate decklists, then the job summary, the annotations
and a report file, from one run of the checks.

Run as `python -m sengoku.cli.action`. The inputs arrive as environment variables, never pasted
into a script's text (a path is data):

    SENGOKU_PATHS   decklist files or folders: one per line, or separated by spaces (default: .)
    SENGOKU_FORMAT  tournament format for every decklist (empty: each decklist's own)
    SENGOKU_STRICT  true: warnings fail too (default false)
    SENGOKU_OUTPUT  also write a report to this file, its kind from the extension: .json, .sarif,
                    .xml (JUnit), .md (Markdown), .html (registration sheets)
    GITHUB_STEP_SUMMARY  the job summary file the Markdown table is appended to (none: left out)

Every checked file goes to each reporter as it comes: the `-o markdown` table (for the summary),
the `-o github` annotations (on stdout, in the log), the report file's. The rules are the
command line's (`sengoku.writes`): a report path that is a folder, a FIFO, a device or a
read-only file is refused before any decklist is read; the report is written whole at the end
or not at all, so an existing report is kept when the run cannot finish or the write fails.
Whatever stops the action is said on stderr and in the summary, in text that stays text there
(`sengoku.display.markdown_text`). The exit code is `sengoku validate`'s: 0 valid, 1 a deck
breaks a rule, 2 the input or the report file cannot be used.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Mapping
from typing import Any

from sengoku.cli import streams
from sengoku.display import markdown_text, printable, printable_lines
from sengoku.errors import DataError, SengokuError
from sengoku.writes import append_text, check_outputs, write_atomically

KINDS = {".json": "json", ".sarif": "sarif", ".xml": "junit", ".md": "markdown", ".markdown": "markdown",
         ".html": "html", ".htm": "html"}
HEADING = "## sengoku validate\n\n"


def split_paths(text: str) -> list[str]:
    """One path per line when there are several lines (names may hold spaces), else split on spaces."""
    if "\n" in text:
        paths = [line.strip() for line in text.splitlines()]
        paths = [p for p in paths if p]
    else:
        paths = text.split()
    return paths or ["."]


def report_kind(output: str) -> str:
    """Return the report kind an output file's extension names; raise DataError for any other."""
    kind = KINDS.get(os.path.splitext(output)[1].lower())
    if kind is None:
        raise DataError(None, f"output {output!r} must end in .json, .sarif, .xml, .md or .html")
    return kind


def _strict(value: str) -> bool:
    if value not in ("true", "false", ""):
        raise DataError(None, f"strict must be true or false, not {value!r}")
    return value == "true"


def _append(summary: str | None, *parts: str | Iterable[str]) -> bool:
    """Append Markdown (strings, or chunks of a document) to the job summary; return False, having
    said why on stderr, when it cannot be written. No summary file: nothing to do."""
    if summary is None:
        return True
    try:
        append_text(summary, (chunk for part in parts for chunk in ((part,) if isinstance(part, str) else part)))
    except OSError as exc:
        _say(f"error: {printable(summary)}: cannot write the job summary: {exc.strerror or exc}")
        return False
    return True


def _say(line: str) -> None:
    sys.stderr.write(line + "\n")
    sys.stderr.flush()


def run(env: Mapping[str, str]) -> int:
    """Run the action with the inputs in `env`; return the exit code."""
    summary = env.get("GITHUB_STEP_SUMMARY") or None
    try:
        return _run(env, summary)
    except SengokuError as exc:
        message = str(exc)
        _say(f"error: {printable_lines(message)}")
        _append(summary, f"{HEADING}⛔ The action could not run: {markdown_text(message)}\n")
        return 2


def _run(env: Mapping[str, str], summary: str | None) -> int:
    # deferred: only the action needs these, and the layers below are imported on use as in the CLI
    from sengoku.cli.validate import check_all, say_skipped, summary_line, validate_inputs
    from sengoku.validate.api import iter_paths
    from sengoku.validate.reporters import get_reporter
    from sengoku.validate.reporters.registration import Report as RegistrationSheets

    strict = _strict(env.get("SENGOKU_STRICT", ""))
    output = env.get("SENGOKU_OUTPUT", "")
    kind = report_kind(output) if output else None
    paths, format = split_paths(env.get("SENGOKU_PATHS", "")), env.get("SENGOKU_FORMAT") or None
    if output:  # refused before any decklist is read, as `--html` is on the command line
        check_outputs({"output": output}, validate_inputs(paths, None, format), replace=True)
    results = iter_paths(paths, format=format)
    table = get_reporter("markdown")(None, strict)  # type: ignore[arg-type]  # a document: spooled
    annotations = get_reporter("github")(sys.stdout, strict)
    report: Any = None
    if kind == "html":
        report = RegistrationSheets(None, strict)
    elif kind is not None:
        report = get_reporter(kind)(None, strict)  # type: ignore[arg-type]
    tally, skipped = check_all(results, [table, annotations] + ([report] if report is not None else []), strict)
    annotations.finish(tally).close()
    sys.stdout.flush()
    code = tally.exit_code
    failed = ""
    if report is not None:
        document = report.finish(tally)
        try:
            write_atomically(output, document.chunks(), replace=True)
        except SengokuError as exc:  # the old report kept: said here, first in the summary, and the step fails
            _say(f"error: {printable_lines(str(exc))}")
            failed = f"⛔ The report file was not written: {markdown_text(str(exc))}\n\n"
            code = 2
        finally:
            document.close()
    page = table.finish(tally)
    try:
        if not _append(summary, failed, page.chunks()):
            code = 2
    finally:
        page.close()
    _say(summary_line(tally, say_skipped(skipped))
         + (f"; report written to {printable(output)}" if report is not None and not failed else ""))
    return code


def main() -> None:
    """Run the action with this process's environment; exit with its code, never a traceback."""
    streams.guard_standard_streams()
    previous = streams.install_signal_handlers()
    try:
        code = run(os.environ)
    except OSError as exc:  # stdout (the log): say so, fail the step
        _say(streams.write_error_message(exc))
        code = 2
    except KeyboardInterrupt:  # the job cancelled: no traceback in the log, no report half written
        code = streams.EXIT_INTERRUPTED
    except streams.Terminated:
        code = streams.EXIT_TERMINATED
    finally:
        streams.restore_signal_handlers(previous)
    sys.exit(code)


if __name__ == "__main__":
    main()
