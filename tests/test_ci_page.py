"""The CI page (docs/formats-and-ci.md) pins what exists and lists what action.yml declares.

There are no release tags, so a pin of a version tag (`@v0.4.0`, `rev: v0.4.0`) names nothing;
the page states the version it describes, which must be the package's; the Action's inputs and
outputs are generated from action.yml (scripts/update_examples.py) and must be up to date; every
address of the repository is the one pyproject.toml declares.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import yaml

from sengoku.version import __version__

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "formats-and-ci.md"
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_spec = importlib.util.spec_from_file_location("update_examples", ROOT / "scripts" / "update_examples.py")
update_examples = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("update_examples", update_examples)
_spec.loader.exec_module(update_examples)

REPOSITORY = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["urls"]["Repository"]


def test_the_page_describes_the_packages_version() -> None:
    stated = re.findall(r"this page describes sengoku (\d[\w.]*) \(`sengoku --version`\)", PAGE.read_text(encoding="utf-8"))
    assert stated == [__version__]


def test_no_page_pins_a_tag_that_the_repository_lacks() -> None:
    done = subprocess.run(["git", "tag", "--list"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    tags = set(done.stdout.split()) if done.returncode == 0 else set()
    pins = [(page.name, pin) for page in PAGES
            for pin in re.findall(r"(?:sengoku@|rev: )(v\d[\w.]*)", page.read_text(encoding="utf-8"))]
    assert [(page, pin) for page, pin in pins if pin not in tags] == []


def test_the_actions_inputs_and_outputs_on_the_page_are_action_ymls() -> None:
    text = PAGE.read_text(encoding="utf-8")
    assert "<!-- generated: action-reference -->" in text
    assert update_examples.generated(text) == text, "python scripts/update_examples.py rewrites the table"
    action = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    table = text.split("<!-- generated: action-reference -->", 1)[1]
    for name in action["inputs"]:
        assert f"| `{name}` |" in table, name
    assert ("no outputs" in table) == (not action.get("outputs"))


def test_every_address_of_the_repository_is_pyprojects() -> None:
    mkdocs = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert re.search(r"^repo_url: (\S+)$", mkdocs, re.M).group(1) == REPOSITORY
    owner_name = REPOSITORY.removeprefix("https://github.com/")
    workflows = [yaml.safe_load(block) for block in re.findall(r"```yaml\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S)]
    hooks = [repo["repo"] for w in workflows if "repos" in w for repo in w["repos"]]
    uses = [step["uses"] for w in workflows if "jobs" in w for job in w["jobs"].values() for step in job["steps"]
            if "sengoku" in step.get("uses", "")]
    installs = re.findall(r"git\+(https://\S+?)@", PAGE.read_text(encoding="utf-8"))
    assert hooks == [REPOSITORY] and installs == [REPOSITORY]
    assert [u.split("@")[0] for u in uses] == [owner_name]
    assert f"`uses: {owner_name}@<ref>`" in (ROOT / "action.yml").read_text(encoding="utf-8")
