"""The CLI's frame: version, help, module entry point, exit codes."""

import subprocess
import sys

import sengoku


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sengoku", *args], capture_output=True, text=True)


def test_version_matches_package() -> None:
    out = run("--version")
    assert out.returncode == 0
    assert out.stdout.strip() == f"sengoku {sengoku.__version__} (rules engine: {sengoku.engine_build()})"


def test_help_lists_commands() -> None:
    out = run("--help")
    assert out.returncode == 0
    assert "db" in out.stdout


def test_missing_database_is_exit_2_without_traceback(tmp_path) -> None:
    out = run("db", "check", str(tmp_path / "nope.json"))
    assert out.returncode == 2
    assert "nope.json" in out.stderr and "no such card database file" in out.stderr
    assert "Traceback" not in out.stderr
