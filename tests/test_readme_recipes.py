"""The README's own recipes work as written: set-up commands, the CI recipe, the pre-commit hooks."""

from __future__ import annotations

import re
import subprocess
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _sh_blocks() -> list[str]:
    return re.findall(r"```sh\n(.*?)```", README, re.S)


def test_the_test_command_is_what_ci_runs_first_and_keeps_its_own_venv() -> None:
    quick, test = (line for block in _sh_blocks()[:2] for line in block.splitlines() if line.strip())
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    first_step = next(line for line in ci.splitlines() if "pytest" in line and not line.startswith("#"))
    # the README's command, but for the files CI runs once, on the compiled wheel's pass instead
    assert first_step == test.replace("python3 -m venv", "$PY -m venv") + ' "${compiled_only[@]/#/--ignore=}"'
    compiled_only = re.search(r"^compiled_only=\(([^)]*)\)$", ci, re.M).group(1).split()  # (over lines)
    assert compiled_only and all((ROOT / name).exists() for name in compiled_only), compiled_only  # files or folders
    assert '"${compiled_only[@]/#/$repo/}"' in ci.split(first_step, 1)[1]  # run there, after the wheel is built
    venv = re.compile(r"-m venv (\S+)")
    assert venv.search(quick).group(1) != venv.search(test).group(1)  # the test install must not replace the compiled one


def test_getting_started_gives_the_readmes_two_commands() -> None:
    page = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    assert re.findall(r"```sh\n(.*?)```", page, re.S)[:2] == _sh_blocks()[:2]


def test_fmt_check_passes_on_the_bundled_decklists(cli) -> None:
    code, out, err = cli("fmt", "--check", str(ROOT / "decklists"))
    assert code == 0, out + err


def _hook(hook_id: str) -> dict[str, str]:
    text = (ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")
    block = text.split(f"- id: {hook_id}\n", 1)[1].split("\n- id:", 1)[0]
    return {k.strip(): v.strip() for k, _, v in (line.partition(":") for line in block.splitlines()) if v}


def _tracked_toml() -> list[str]:
    out = subprocess.run(["git", "ls-files", "*.toml"], cwd=ROOT, capture_output=True, text=True, check=False).stdout
    return out.split() or [str(p.relative_to(ROOT)) for p in ROOT.rglob("*.toml") if ".venv" not in p.parts]


def test_the_validate_hook_skips_this_repositorys_other_toml_files(cli) -> None:
    """What pre-commit hands `sengoku validate` with the hook's default `files` here: the
    repository's TOML files that are not decklists are skipped with a note, not failed."""
    pattern = re.compile(_hook("sengoku-validate")["files"])
    others = [ROOT / f for f in _tracked_toml()
              if pattern.search(f) and not f.startswith(("decklists/", "tests/"))]
    assert ROOT / "pyproject.toml" in others
    code, out, err = cli("validate", *map(str, others))
    assert code == 0 and out == "", err
    assert err.count("skipped, not a decklist") == len(others)


def test_the_fmt_hook_leaves_pyproject_out() -> None:
    hook = _hook("sengoku-fmt")
    assert re.search(hook["exclude"], "pyproject.toml") and re.search(hook["exclude"], "sub/pyproject.toml")
    assert not re.search(hook["exclude"], "decklists/deck.toml")


def test_pyproject_is_still_a_toml_file() -> None:
    assert "project" in tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
