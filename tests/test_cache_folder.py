"""Where the cache lives (`sengoku.pass_cache.cache_root`): the XDG Base Directory rules, and no
cache at all rather than one in a made-up place when there is no home folder."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from sengoku.pass_cache import cache_root

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch):
    for name in ("SENGOKU_CACHE_DIR", "SENGOKU_NO_CACHE", "XDG_CACHE_HOME", "HOME"):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


@pytest.mark.parametrize("variables, expected", [
    ({"HOME": "/home/ana"}, "/home/ana/.cache/sengoku"),
    ({"HOME": "/home/ana", "XDG_CACHE_HOME": "/var/cache/ana"}, "/var/cache/ana/sengoku"),
    ({"HOME": "/home/ana", "XDG_CACHE_HOME": ""}, "/home/ana/.cache/sengoku"),  # empty: as if unset
    ({"HOME": "/home/ana", "XDG_CACHE_HOME": "cache"}, "/home/ana/.cache/sengoku"),  # relative: ignored (XDG)
    ({"HOME": "/home/ana", "SENGOKU_CACHE_DIR": "/tmp/c", "XDG_CACHE_HOME": "/x"}, "/tmp/c"),
    ({"HOME": ""}, None),  # no home: no cache, not /.cache/sengoku
    ({"HOME": "", "XDG_CACHE_HOME": "relative"}, None),
    ({"HOME": "."}, None),  # a relative home would put the cache below wherever sengoku runs
    ({"HOME": "", "XDG_CACHE_HOME": "/var/cache/ana"}, "/var/cache/ana/sengoku"),  # XDG's own folder needs no home
    ({"HOME": "/home/ana", "SENGOKU_NO_CACHE": "1"}, None),
])
def test_the_cache_folder_follows_the_xdg_rules(env: pytest.MonkeyPatch, variables: dict, expected: str | None) -> None:
    for name, value in variables.items():
        env.setenv(name, value)
    assert cache_root() == (None if expected is None else Path(expected))


def test_an_empty_home_runs_without_a_cache_and_writes_nothing(tmp_path: Path) -> None:
    """End to end: with HOME="" a run succeeds and leaves no cache anywhere it could be."""
    env = {k: v for k, v in os.environ.items() if k not in ("SENGOKU_CACHE_DIR", "XDG_CACHE_HOME", "SENGOKU_NO_CACHE")}
    env.update(HOME="", XDG_CACHE_HOME="cache")  # both unusable: relative
    before = os.path.exists("/.cache/sengoku")
    done = subprocess.run([sys.executable, "-m", "sengoku", "validate", str(ROOT / "decklists" / "default.toml")],
                          env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert list(tmp_path.iterdir()) == []  # no ./cache, no ./.cache
    assert os.path.exists("/.cache/sengoku") == before  # and not /.cache/sengoku
