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


def test_version_line_is_the_same_through_the_root_option() -> None:
    # `--version` alone is answered before typer is imported; with other words, typer's
    # root option answers: both print the same line.
    alone, mixed = run("--version"), run("--version", "validate")
    assert mixed.returncode == 0 and mixed.stdout == alone.stdout


def test_version_imports_neither_typer_nor_the_commands() -> None:
    code = ("import sys; sys.argv = ['sengoku', '--version']\n"
            "from sengoku.cli import main\n"
            "try:\n    main()\n"
            "except SystemExit:\n"
            "    print(sorted(m for m in sys.modules if m == 'typer' or m.startswith('sengoku.cli.')), file=sys.stderr)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.startswith("sengoku ") and out.stderr.strip() == "['sengoku.cli.streams']"


def test_help_lists_commands() -> None:
    out = run("--help")
    assert out.returncode == 0
    assert "db" in out.stdout


def test_missing_database_is_exit_2_without_traceback(tmp_path) -> None:
    out = run("db", "check", str(tmp_path / "nope.json"))
    assert out.returncode == 2
    assert "nope.json" in out.stderr and "no such card database file" in out.stderr
    assert "Traceback" not in out.stderr
