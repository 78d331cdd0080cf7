"""The CLI's frame: version, help, module entry point, exit codes."""

import ast
import subprocess
import sys
from pathlib import Path

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


def _run_reporting_modules(*args: str) -> tuple[str, list[str]]:
    """Run `sengoku ARGS` in a fresh Python; return its output and the typer and sengoku.cli
    modules it had imported when it exited."""
    code = (f"import sys; sys.argv = ['sengoku', *{list(args)!r}]\n"
            "from sengoku.cli import main\n"
            "try:\n    main()\n"
            "except SystemExit:\n"
            "    print(sorted(m for m in sys.modules if m == 'typer' or m.startswith('sengoku.cli.')), file=sys.stderr)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    return out.stdout, ast.literal_eval(out.stderr.strip())


def test_version_imports_neither_typer_nor_the_commands() -> None:
    stdout, modules = _run_reporting_modules("--version")
    assert stdout.startswith("sengoku ") and modules == ["sengoku.cli.streams"]


def test_help_lists_commands() -> None:
    out = run("--help")
    assert out.returncode == 0
    assert "db" in out.stdout


def test_missing_database_is_exit_2_without_traceback(tmp_path) -> None:
    out = run("db", "check", str(tmp_path / "nope.json"))
    assert out.returncode == 2
    assert "nope.json" in out.stderr and "no such card database file" in out.stderr
    assert "Traceback" not in out.stderr


def test_every_command_has_its_module_named() -> None:
    """`COMMAND_MODULES` names each command of the application, and the module that registers it."""
    import typer

    from sengoku.cli import COMMAND_MODULES, _register

    group = typer.main.get_command(_register())
    assert sorted(group.commands) == sorted(COMMAND_MODULES)  # type: ignore[attr-defined]
    src = Path(sengoku.__file__).parent / "cli"
    for name, module in COMMAND_MODULES.items():
        text = (src / f"{module}.py").read_text(encoding="utf-8")
        assert f'command("{name}"' in text or f'name="{name}"' in text, (name, module)


def test_a_named_command_imports_no_other_command_module() -> None:
    """`sengoku goldfish --help` pays for its own command only (start-up time); the help is whole."""
    stdout, modules = _run_reporting_modules("goldfish", "--help")
    assert "--opponent-defends" in stdout
    from sengoku.cli import COMMAND_MODULES

    imported = {m.rsplit(".", 1)[1] for m in modules if m.startswith("sengoku.cli.")}
    assert imported & set(COMMAND_MODULES.values()) == {"goldfish"}
    assert {"root", "streams", "play_options"} <= imported


def test_an_unknown_command_is_still_told_apart_from_every_command() -> None:
    out = run("goldfsh")
    assert out.returncode == 2 and "No such command 'goldfsh'" in out.stderr


def test_the_overview_lists_every_command_without_importing_one() -> None:
    """`sengoku --help` is printed from `COMMAND_SUMMARIES` (start-up time): the same text as the
    help of the application with every command registered, and no command module imported."""
    stdout, modules = _run_reporting_modules("--help")
    from sengoku.cli import COMMAND_MODULES

    assert not {m.rsplit(".", 1)[1] for m in modules if m.startswith("sengoku.cli.")} & set(COMMAND_MODULES.values())
    full = subprocess.run([sys.executable, "-c", "import sys, sengoku.cli as c; sys.argv = ['sengoku', '--help']; "
                           "c._register(['every command'])()"], capture_output=True, text=True)
    assert stdout == full.stdout and "validate" in stdout
    bare = run()  # no arguments at all: the same overview, on stderr (click's usage-error path)
    assert stdout.replace("sengoku", "python -m sengoku", 1) in (bare.stdout, bare.stderr)


def test_every_command_has_its_summary_and_the_summary_is_its_own() -> None:
    import typer

    from sengoku.cli import COMMAND_MODULES, COMMAND_SUMMARIES, _register

    assert sorted(COMMAND_SUMMARIES) == sorted(COMMAND_MODULES)
    group = typer.main.get_command(_register(["every command"]))
    for name, summary in COMMAND_SUMMARIES.items():
        first_paragraph = (group.commands[name].help or "").split("\n\n")[0]  # type: ignore[attr-defined]
        assert " ".join(first_paragraph.split()) == summary, name


def test_no_help_text_holds_rich_markup() -> None:
    """Help is printed plain (typer's rich help imports rich, markdown-it and pygments first), so
    markup such as `[b]...[/b]` would show as written."""
    import re

    import typer

    from sengoku.cli import _register

    group = typer.main.get_command(_register(["every command"]))
    texts = []
    for command in [group, *group.commands.values()]:  # type: ignore[attr-defined]
        for sub in [command, *getattr(command, "commands", {}).values()]:
            texts.append(sub.help or "")
            texts += [getattr(p, "help", None) or "" for p in sub.params]
    assert not [t for t in texts if re.search(r"\[/?(b|i|bold|dim|red|green|yellow|cyan)\]", t)]


def test_validate_of_a_checked_database_imports_no_pydantic() -> None:
    """The validator reads cards as plain dicts; once the card database passed its checks, a
    `validate` run does not import pydantic and the card models (most of its start-up before)."""
    deck = str(Path(__file__).resolve().parents[1] / "decklists" / "default.toml")
    code = (f"import sys; sys.argv = ['sengoku', 'validate', {deck!r}]\n"
            "from sengoku.cli import main\n"
            "try:\n    main()\n"
            "except SystemExit as exc:\n"
            "    print(exc.code, 'pydantic' in sys.modules, 'sengoku.carddb.models' in sys.modules, file=sys.stderr)")
    subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)  # the first run checks and remembers
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stderr.strip().splitlines()[-1] == "0 False False", out.stderr
