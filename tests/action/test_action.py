"""The GitHub Action: action.yml against GitHub's metadata schema, and its step (`python -m
sengoku.cli.action`) run here with the inputs a workflow would give it."""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml

from markdown_table import HEADER, parse, shown  # tests/markdown_table.py

ROOT = Path(__file__).resolve().parents[2]
STEP = [sys.executable, "-m", "sengoku.cli.action"]  # what action.yml runs, with the venv's Python
SCHEMA = Path(__file__).with_name("schema") / "github-action.json"
VALID = ROOT / "decklists" / "default.toml"
INVALID = ROOT / "decklists" / "invalid" / "copy-limit.toml"
WARNS = ROOT / "decklists" / "invalid" / "nameless-cannot-grow.toml"


def action() -> dict:
    return yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))


def test_action_yml_follows_githubs_action_metadata_schema() -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft7Validator.check_schema(schema)
    jsonschema.Draft7Validator(schema).validate(action())
    broken = {**action(), "runs": {"using": "composite", "steps": [{"run": "echo"}]}}  # a run step needs a shell
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft7Validator(schema).validate(broken)


def test_the_action_takes_its_inputs_as_data_and_runs_the_script() -> None:
    meta = action()
    assert list(meta["inputs"]) == ["paths", "format", "strict", "output"]
    assert meta["runs"]["using"] == "composite"
    steps = meta["runs"]["steps"]
    install = next(s for s in steps if s.get("name") == "Install sengoku")
    assert '"$GITHUB_ACTION_PATH"' in install["run"]  # sengoku from the action's own checkout
    validate = steps[-1]
    assert validate["run"] == '"$SENGOKU_PYTHON" -m sengoku.cli.action'
    assert validate["env"]["SENGOKU_PYTHON"] == "${{ runner.temp }}/sengoku-venv/bin/python"  # where it was installed
    assert {f"SENGOKU_{name.upper()}": f"${{{{ inputs.{name} }}}}" for name in meta["inputs"]}.items() \
        <= validate["env"].items()
    # no input is pasted into a script's text, where a crafted path would run as a command
    assert not [s for s in steps if "inputs." in s.get("run", "")]


def run_action(tmp_path: Path, **inputs: str) -> tuple[int, str, str, Path]:
    summary = tmp_path / "step-summary.md"
    summary.write_text("earlier step\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SENGOKU_", "GITHUB_"))}
    env.update({"GITHUB_STEP_SUMMARY": str(summary), **{f"SENGOKU_{k.upper()}": v for k, v in inputs.items()}})
    done = subprocess.run(STEP, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    return done.returncode, done.stdout, done.stderr, summary


def test_errors_fail_the_job_with_a_summary_table_and_annotations(tmp_path: Path) -> None:
    code, out, err, summary = run_action(tmp_path, paths=f"{VALID} {INVALID}", output="report.json")
    assert code == 1
    text = summary.read_text(encoding="utf-8")
    assert text.startswith("earlier step\n## sengoku validate\n")  # appended, not replaced
    header, *rows = parse(text).rows
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert header == HEADER
    assert [(r[0], r[1].split()[1], r[5]) for r in rows] == [
        (x["path"], "valid" if x["valid"] else "invalid", x["deck_hash"]) for x in report["results"]]
    annotations = [line for line in out.splitlines() if line.startswith("::")]
    assert len(annotations) == 2 and all(line.startswith(f"::error file={INVALID},") for line in annotations)
    assert stat.S_IMODE((tmp_path / "report.json").stat().st_mode) == 0o666 & ~current_umask()
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary file left


def current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_valid_decks_pass_and_strict_fails_warnings(tmp_path: Path) -> None:
    assert run_action(tmp_path, paths=f"{VALID}\n{WARNS}\n")[0] == 0
    code, out, _, summary = run_action(tmp_path, paths=f"{VALID}\n{WARNS}\n", strict="true")
    assert code == 1 and "(strict: warnings fail)" in summary.read_text(encoding="utf-8")
    assert "::warning " in out


def test_paths_one_per_line_may_hold_spaces_and_reports_by_extension(tmp_path: Path) -> None:
    folder = tmp_path / "spring open"
    folder.mkdir()
    shutil.copy(VALID, folder / "deck one.toml")
    for name, check in (("sheets.html", lambda t: t.startswith("<!DOCTYPE html>") and "Player's signature" in t),
                        ("report.sarif", lambda t: json.loads(t)["version"] == "2.1.0"),
                        ("report.xml", lambda t: t.startswith("<?xml") and "<testcase" in t),
                        ("summary.md", lambda t: t.startswith("## sengoku validate"))):
        code, _, err, _ = run_action(tmp_path, paths=f"{folder}\n", output=name)
        assert code == 0, err
        assert check((tmp_path / name).read_text(encoding="utf-8")), name


@pytest.mark.parametrize("inputs, says", [
    ({"paths": "no-such-folder"}, "no-such-folder"),
    ({"paths": str(VALID), "strict": "yes"}, "strict must be true or false"),
    ({"paths": str(VALID), "output": "report.pdf"}, "must end in .json"),
])
def test_unusable_inputs_exit_2_and_say_why_in_the_summary(tmp_path: Path, inputs: dict, says: str) -> None:
    code, _, err, summary = run_action(tmp_path, **inputs)
    assert code == 2 and says in err
    assert says in shown(summary.read_text(encoding="utf-8"))


def test_a_path_that_looks_like_an_option_is_a_path(tmp_path: Path) -> None:
    shutil.copy(VALID, tmp_path / "--strict")
    code, out, err, summary = run_action(tmp_path, paths="--strict")
    assert code == 0, err
    assert re.search(r"^\| --strict \| ✅ valid", summary.read_text(encoding="utf-8"), re.M)


def test_the_readme_workflow_uses_the_actions_inputs_and_markdown() -> None:
    readme = (ROOT / "docs" / "formats-and-ci.md").read_text(encoding="utf-8")
    workflows = [yaml.safe_load(block) for block in re.findall(r"```yaml\n(.*?)```", readme, re.S) if "jobs:" in block]
    uses = [step for w in workflows for step in w["jobs"]["validate"]["steps"]
            if step.get("uses", "").startswith("sengoku-yugi/sengoku@")]
    assert len(uses) == 1 and set(uses[0]["with"]) <= set(action()["inputs"])
    runs = [step.get("run", "") for w in workflows for step in w["jobs"]["validate"]["steps"]]
    assert any("-o markdown" in run and "$GITHUB_STEP_SUMMARY" in run for run in runs)


# --- the action's own lines: inputs quoted in the summary stay text (GitHub's renderer) ---

HOSTILE = "<img src=x onerror=alert(1)> [a](https://example.com) www.example.com user@example.com"


@pytest.mark.parametrize("inputs, quoted", [
    ({"paths": HOSTILE}, HOSTILE.split()[0]),  # a path that does not exist: the message quotes it
    ({"paths": f"{HOSTILE}\n"}, str(Path(HOSTILE))),  # one path per line: the whole line (as a path)
    ({"paths": str(VALID), "strict": HOSTILE}, HOSTILE),
    ({"paths": str(VALID), "output": f"{HOSTILE} http://example.com/x.pdf"}, "http://example.com/x.pdf"),
])
def test_an_input_quoted_in_the_summary_is_no_link_and_no_html(tmp_path: Path, inputs: dict, quoted: str) -> None:
    code, _, err, summary = run_action(tmp_path, **inputs)
    text = summary.read_text(encoding="utf-8")
    parsed = parse(text)
    assert code == 2 and "could not run" in shown(text) and quoted in shown(text)  # reads as given
    assert parsed.links == [] and set(parsed.tags) <= {"h2", "p"}  # no <a>, <img> or other tag
    assert err.startswith("error: ") and "Traceback" not in err


# --- the report file follows the command line's rules ---

def _reports() -> list[str]:
    return ["report.json", "report.sarif", "report.xml", "report.md", "sheets.html"]


@pytest.mark.parametrize("name", _reports())
def test_a_run_that_cannot_start_keeps_the_existing_report(tmp_path: Path, name: str) -> None:
    report = tmp_path / name
    report.write_text("last week's report\n", encoding="utf-8")
    code, _, err, summary = run_action(tmp_path, paths="no-such-folder", output=name)
    assert code == 2 and "no-such-folder" in err and "no-such-folder" in shown(summary.read_text(encoding="utf-8"))
    assert report.read_text(encoding="utf-8") == "last week's report\n"  # kept, not replaced by an empty file
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([name, "step-summary.md"])  # nothing else left


@pytest.mark.parametrize("name", _reports())
def test_a_report_path_naming_a_folder_is_refused(tmp_path: Path, name: str) -> None:
    (tmp_path / name).mkdir()
    code, out, err, summary = run_action(tmp_path, paths=str(VALID), output=name)
    assert code == 2 and f"{name}: is a folder" in err
    assert "is a folder" in shown(summary.read_text(encoding="utf-8"))
    assert list((tmp_path / name).iterdir()) == []  # no hidden temporary file inside
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
    assert out == ""  # refused before any decklist was read


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
@pytest.mark.parametrize("name", _reports())
def test_a_fifo_report_is_refused_and_left_a_fifo(tmp_path: Path, name: str) -> None:
    os.mkfifo(tmp_path / name)
    code, _, err, summary = run_action(tmp_path, paths=str(VALID), output=name)
    assert code == 2 and "named pipe (FIFO)" in err and "named pipe (FIFO)" in shown(summary.read_text(encoding="utf-8"))
    assert stat.S_ISFIFO((tmp_path / name).lstat().st_mode)


@pytest.mark.parametrize("name", _reports())
def test_a_read_only_report_is_refused_and_kept(tmp_path: Path, name: str) -> None:
    report = tmp_path / name
    report.write_text("signed off\n", encoding="utf-8")
    report.chmod(0o444)
    code, _, err, summary = run_action(tmp_path, paths=str(VALID), output=name)
    assert code == 2 and "is read-only" in err and "is read-only" in shown(summary.read_text(encoding="utf-8"))
    assert report.read_text(encoding="utf-8") == "signed off\n" and stat.S_IMODE(report.stat().st_mode) == 0o444


@pytest.mark.parametrize("name", ["sheets.html", "report.json"])
def test_a_report_that_cannot_be_written_fails_the_step_and_the_summary_says_so(tmp_path: Path, unwritable_folder: Path,
                                                                              name: str) -> None:
    """A folder that takes no file is found before any decklist is read (a write that fails later, say on a
    full disk, is said first in the summary, above the decks' table)."""
    output = unwritable_folder / name
    code, out, err, summary = run_action(tmp_path, paths=str(VALID), output=str(output))
    text = shown(summary.read_text(encoding="utf-8"))
    assert code == 2 and f"error: {output}: cannot write in its folder {output.parent}" in err
    assert f"{output}: cannot write in its folder" in text and "refused before any work" in text
    assert out == "" and "1 file(s)" not in text  # refused before any decklist was read
    assert not output.exists()
