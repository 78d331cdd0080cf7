"""A LocalCluster (`--cluster local:N`) keeps to ports of its own: another Dask on the machine changes nothing."""

from __future__ import annotations

import errno
import gc
import os
import socket
import sys
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

from sengoku.tune.executors import DaskCluster

CLUSTER_REQUIRED = os.environ.get("SENGOKU_REQUIRE_CLUSTER") == "1"  # as in CI
DASK_HTTP_PORT = 8787  # where Dask's scheduler serves its HTTP routes unless told otherwise


@pytest.fixture
def port_8787_taken() -> Iterator[None]:
    """Port 8787 of 127.0.0.1 held by a listening socket (or already held by another process)."""
    holder = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        holder.bind(("127.0.0.1", DASK_HTTP_PORT))
        holder.listen(1)
    except OSError as exc:
        if exc.errno != errno.EADDRINUSE:
            raise
    try:
        yield
    finally:
        holder.close()


def test_a_local_cluster_does_not_reach_for_port_8787(port_8787_taken: None) -> None:
    try:
        import dask.distributed  # noqa: F401
    except ImportError:
        if CLUSTER_REQUIRED:
            pytest.fail("SENGOKU_REQUIRE_CLUSTER=1 but dask.distributed is not installed")
        pytest.skip("dask.distributed is not installed (the optional cluster extra)")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        cluster = DaskCluster("local:1")
        try:
            server = cluster._cluster.scheduler.http_server  # the scheduler runs in this process
            ports = {s.getsockname()[1] for s in server._sockets.values()}
        finally:
            cluster.close()
    assert DASK_HTTP_PORT not in ports
    assert ports and all(p > 0 for p in ports)
    said = [str(w.message) for w in caught if "8787" in str(w.message)]
    assert not said, said


def _memory_monitor_ms(dask_worker: Any) -> float:
    return float(dask_worker.periodic_callbacks["memory_monitor"].callback_time)


def _tick_ms(server: Any) -> float:
    return float(server.periodic_callbacks["tick"].callback_time)


def test_a_local_cluster_spends_nothing_on_what_a_tune_does_not_use() -> None:
    """Set in this process, the settings reach the scheduler, the nannies and (through them) the worker processes."""
    pytest.importorskip("dask.distributed")
    cluster = DaskCluster("local:2")
    try:
        scheduler = cluster._cluster.scheduler
        assert "stealing" not in scheduler.extensions  # no task is left to steal: the executor sends as workers free up
        assert not scheduler.extensions["amm"].running  # the deck being changed is on every worker on purpose
        assert cluster.client.direct_to_workers  # results come from the workers, not through the scheduler
        # each worker's memory read once a second, by itself and by its nanny
        assert set(cluster.client.run(_memory_monitor_ms).values()) == {1000.0}
        assert {_memory_monitor_ms(n) for n in cluster._cluster.workers.values()} == {1000.0}
        assert not any(cluster.client.run(lambda dask_worker: dask_worker.profile_recent["count"]).values())
        # every process's event loop watched every 2 s, not every 20 ms
        assert set(cluster.client.run(lambda dask_worker: _tick_ms(dask_worker)).values()) == {2000.0}
        assert {_tick_ms(n) for n in cluster._cluster.workers.values()} | {_tick_ms(scheduler)} == {2000.0}
        # each worker's heap frozen, with the engine imported, as a local pool's forked workers are
        frozen = cluster.client.run(gc.get_freeze_count)
        assert len(frozen) == 2 and all(count > 0 for count in frozen.values()), frozen
        assert all(cluster.client.run(lambda: "sengoku.engine" in sys.modules).values())
    finally:
        cluster.close()
