"""Helpers shared by the test folders: an in-process CLI run, a scratch card database, a cache folder and a
folder no output can be written in."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from cli_run import run_sengoku  # tests/cli_run.py
from sengoku.paths import data_dir

BUNDLED = data_dir("card_db") / "sengoku"


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]):
    """Run `sengoku ARGS` in this process (as the console script does); return (code, stdout, stderr)."""
    def run(*args: str) -> tuple[int, str, str]:
        code = run_sengoku(*args)
        out = capsys.readouterr()
        return code, out.out, out.err

    return run


@pytest.fixture
def scratch_db(tmp_path: Path) -> Path:
    """A copy of the bundled card database with an empty formats/ folder."""
    folder = tmp_path / "db"
    folder.mkdir()
    shutil.copy(BUNDLED / "cards.json", folder / "cards.json")
    (folder / "formats").mkdir()
    return folder


@pytest.fixture
def unwritable_folder(tmp_path: Path):
    """A folder that exists but where no file can be made: one without write permission (given back after
    the test), or for the superuser, who writes in any folder, /proc."""
    if os.geteuid() != 0:
        folder = tmp_path / "locked"
        folder.mkdir()
        folder.chmod(0o555)
        yield folder
        folder.chmod(0o755)
    elif Path("/proc/self").is_dir():
        yield Path("/proc")
    else:
        pytest.skip("the superuser writes in any folder, and there is no /proc here")


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache folder of this test's own, with the cache on (SENGOKU_NO_CACHE unset).

    (It takes the name of pytest's own `cache` fixture, which no test here uses.)
    """
    folder = tmp_path / "cache"
    monkeypatch.setenv("SENGOKU_CACHE_DIR", str(folder))
    monkeypatch.delenv("SENGOKU_NO_CACHE", raising=False)
    return folder


@pytest.fixture(autouse=True, scope="session")
def _own_cache_folder(tmp_path_factory: pytest.TempPathFactory):
    """Keep the checked-files memory (sengoku.pass_cache) of test runs out of ~/.cache."""
    import os

    old = os.environ.get("SENGOKU_CACHE_DIR")
    os.environ["SENGOKU_CACHE_DIR"] = str(tmp_path_factory.mktemp("sengoku-cache"))
    yield
    if old is None:
        os.environ.pop("SENGOKU_CACHE_DIR", None)
    else:
        os.environ["SENGOKU_CACHE_DIR"] = old
