"""`sengoku validate` end to end: exit codes, stdout/stderr split, no tracebacks, lazy imports."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEFAULT = ROOT / "decklists" / "default.toml"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sengoku", "validate", *args], capture_output=True, text=True,
                          cwd=ROOT)


def test_valid_files_exit_0_with_summary_on_stderr() -> None:
    out = run("decklists/default.toml", "decklists/ultimate.toml")
    assert out.returncode == 0
    assert out.stdout.splitlines() == ["decklists/default.toml valid (sengoku-yugi, standard, 54 cards)",
                                       "decklists/ultimate.toml valid (sengoku-yugi, ultimate, 64 cards)"]
    assert "2 file(s): 2 valid, 0 invalid" in out.stderr


def test_a_folder_with_errors_exits_1_and_reports_every_file() -> None:
    out = run("decklists/invalid", "-o", "json")
    assert out.returncode == 1 and "Traceback" not in out.stderr
    data = json.loads(out.stdout)
    names = [Path(r["path"]).name for r in data["results"]]
    assert names == sorted(p.name for p in (ROOT / "decklists" / "invalid").glob("*.toml"))


def test_warnings_pass_unless_strict() -> None:
    path = "decklists/invalid/nameless-cannot-grow.toml"
    assert run(path).returncode == 0
    out = run(path, "--strict")
    assert out.returncode == 1 and "--strict" in out.stderr


def test_usage_errors_exit_2_without_traceback(tmp_path: Path) -> None:
    for args in (["nope.toml"], [str(tmp_path)], ["decklists/default.toml", "-o", "yaml"],
                 ["decklists/default.toml", "--as-of", "yesterday", "--format", "sample-championship"],
                 ["decklists/default.toml", "--db", str(tmp_path / "none.json")],
                 ["decklists/default.toml", "--format", "no-such-format"], []):
        out = run(*args)
        assert out.returncode == 2, (args, out.stderr)
        assert "Traceback" not in out.stderr and out.stderr.strip()


def test_bad_files_exit_1_never_traceback(tmp_path: Path) -> None:
    (tmp_path / "bin.toml").write_bytes(bytes(range(256)))
    (tmp_path / "empty.toml").write_text("")
    (tmp_path / "dup.toml").write_text('[[main]]\nname = "a"\nname = "b"\n')
    out = run(str(tmp_path))
    assert out.returncode == 1 and "Traceback" not in out.stderr
    assert out.stdout.count(" error syntax ") == 3


def test_format_and_as_of_options() -> None:
    early = run("decklists/default.toml", "--format", "sample-championship", "--as-of", "2026-02-01")
    assert early.returncode == 1 and " error restricted " in early.stdout
    late = run("decklists/default.toml", "--format", "sample-championship", "--as-of", "2026-08-01")
    assert late.returncode == 0


def test_help_explains_every_option() -> None:
    out = subprocess.run([sys.executable, "-m", "sengoku", "validate", "--help"], capture_output=True, text=True,
                         env={"COLUMNS": "200", "PATH": ""})
    assert out.returncode == 0
    for option in ("--db", "--format", "--as-of", "--strict", "--output", "text", "json", "github", "junit",
                   "sarif"):
        assert option in out.stdout


def test_cli_start_up_imports_no_heavy_module() -> None:
    # `sengoku --help` must start fast: the validator, jsonschema and tomllib load only when used.
    code = ("import sys, sengoku.cli as c; c._register(); "
            "heavy = [m for m in ('jsonschema', 'sengoku.validate.api', 'sengoku.validate.deck_check', "
            "'sengoku.decklist.read') if m in sys.modules]; print(heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr
