"""What the tune tests share: small pools (fast races), and one Dask LocalCluster on loopback per session."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WEAKENED = ROOT / "decklists" / "tune" / "no-level4.toml"
# CI installs the cluster extra and sets this, so that a Dask that failed to install fails the
# cluster tests instead of skipping them.
CLUSTER_REQUIRED = os.environ.get("SENGOKU_REQUIRE_CLUSTER") == "1"


@pytest.fixture(scope="session")
def level4_pool(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two of the Level 4 cards the weakened deck lost: about 50 candidates, so that a 12,000-game tune can
    prove one change (seed 3). (With the default policy's Release and charge changes, one Level 4 copy is worth
    about 0.1 turns here; among ~150 candidates a 40,000-game budget proved none.)"""
    path = tmp_path_factory.mktemp("pool") / "pool.txt"
    path.write_text("Kagetora Lv4\nSoma Lv4\n", encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def dask_scheduler() -> Iterator[str]:
    """The address of a LocalCluster of two worker processes on 127.0.0.1, for the whole session."""
    try:
        from dask.distributed import LocalCluster
    except ImportError:
        if CLUSTER_REQUIRED:
            pytest.fail("SENGOKU_REQUIRE_CLUSTER=1 but dask.distributed is not installed (pip install 'sengoku[cluster]')")
        pytest.skip("dask.distributed is not installed (the optional cluster extra)")
    from sengoku.tune.executors import LOCAL_SCHEDULER  # its HTTP routes on a port of the system's choosing

    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                           dashboard_address=None, scheduler_kwargs=LOCAL_SCHEDULER)
    try:
        yield cluster.scheduler_address
    finally:
        cluster.close()
