"""The Python API page (docs/api.md) runs as written, and its comments say what the values are.

The section is executed in a folder holding the files it names (copies of the bundled data), with
the run counts cut down so that it takes seconds; then the names it binds are checked against what
its comments promise.
"""

from __future__ import annotations

import re
import subprocess
import sys
import shutil
from pathlib import Path

import pytest

import sengoku

ROOT = Path(__file__).resolve().parents[1]
API_PAGE = ROOT / "docs" / "api.md"


def api_section() -> str:
    text = API_PAGE.read_text(encoding="utf-8")
    return text.split("```python\n", 1)[1].split("```", 1)[0]  # the page's first Python block


@pytest.fixture(scope="module")
def ran(tmp_path_factory: pytest.TempPathFactory) -> dict:
    here = tmp_path_factory.mktemp("api")
    shutil.copy(ROOT / "decklists" / "default.toml", here / "deck.toml")
    shutil.copy(ROOT / "decklists" / "default.toml", here / "theirs.toml")
    shutil.copy(ROOT / "decklists" / "compare" / "no-level4.toml", here / "deck-v2.toml")
    shutil.copytree(ROOT / "decklists", here / "decklists")
    shutil.copytree(ROOT / "card_db", here / "card_db")
    shutil.copy(ROOT / "card_db" / "sengoku" / "cards.json", here / "my_cards.json")
    (here / "list.txt").write_text("3 SY1-003\n", encoding="utf-8")
    code = api_section()
    assert re.search(r"runs=\d", code), "the section no longer sets run counts"
    code = re.sub(r"runs=[\d_]+", "runs=60", code)  # seconds, not minutes, on the pure-Python build
    namespace: dict = {}
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(here)
        exec(compile(code, str(API_PAGE), "exec"), namespace)  # noqa: S102 - the project's own docs
    return namespace


def test_the_validation_half_gives_what_its_comments_say(ran: dict) -> None:
    assert ran["report"].problems == [] and ran["report"].files == ["my_cards.json"]
    assert ran["result"].changed is False  # fmt_decklist's (the last `result`): the bundled deck is canonical
    assert ran["problems"] == [] and ran["fmt"].in_force("2026-03-01") is not None
    assert ran["board"].perimeter and ran["deck"].entries
    assert ran["valid"].valid and ran["valid"].sections
    results = ran["run"].results  # the bundled decklists hold invalid examples on purpose
    assert ran["run"].exit_code == 1 and any(r.valid for r in results) and not all(r.valid for r in results)
    assert {c["level"] for c in ran["soma_l3"]} == {3} and all("soma" in c["name"].lower() for c in ran["soma_l3"])
    assert len(ran["cards"]) == len(ran["db"].cards)
    assert ran["imported"].problems == []
    assert 'name = "Soma"\nlevel = 3\ncount = 3' in ran["imported"].toml


def test_the_goldfish_half_gives_what_its_comments_say(ran: dict) -> None:
    gf = ran["gf"]
    assert set(gf.curve[2]["ap_main"]) >= {"mean", "p10", "p50", "p90"}
    assert 0 <= gf.curve[2]["games"] <= 60
    by_4 = gf.kill_turn["by_turn"][3]["cumulative"]["fraction"]
    assert gf.kill_turn["by_turn"][3]["turn"] == 4 and 0 <= by_4 <= 1
    assert ran["cmp"].decks[1].kill_turn["mean"] is not None
    assert ran["cmp"].verdicts()[0]["deck"] == "deck-v2.toml"
    assert ran["game"].turns  # the engine's own game record
    assert sengoku.engine_build() in ("compiled with mypyc", "pure Python")


@pytest.mark.parametrize("program", [
    # a submodule imported first: Python binds `sengoku.goldfish` to the package
    "import sengoku.goldfish.result, sengoku\nprint(sengoku.goldfish(runs=7, turns=1).runs)",
    # the function used first, a submodule imported afterwards, then both again
    "import sengoku\nprint(sengoku.goldfish(runs=7, turns=1).runs)\nimport sengoku.goldfish.play.simulate as s\n"
    "from sengoku import goldfish\nprint(goldfish(runs=7, turns=1).runs, s.__name__)",
])
def test_sengoku_goldfish_is_the_function_whatever_was_imported_before(program: str) -> None:
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[0] == "7"
    assert done.stdout.split("\n")[1] in ("", "7 sengoku.goldfish.play.simulate")
