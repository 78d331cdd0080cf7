"""What a LocalCluster's worker processes do once, when they start (imported only with `--cluster local:N`).

A worker of the local pool is forked from a process that moved every object it held out of the
collector's reach first (`gc.freeze`, `goldfish.play.pool`), so the collector's full passes
during its games walk only what the games made. A LocalCluster's worker is a new process: Dask,
its event loop and sengoku's engine, tens of thousands of objects that live as long as it does,
and every full pass during the games walked them all again. `FrozenHeap` moves them out of
reach once the engine is imported, as the local pool's fork does.
"""

from __future__ import annotations

import gc
from typing import Any

from distributed.diagnostics.plugin import WorkerPlugin

import sengoku.tune.work  # noqa: F401  (the engine and the tune's work: imported before the heap is frozen)


class FrozenHeap(WorkerPlugin):
    """Each worker (and one that a nanny restarts) collects once, then freezes what is left (`gc.freeze`)."""

    idempotent = True
    name = "sengoku-frozen-heap"

    def setup(self, worker: Any) -> None:
        gc.collect()
        gc.freeze()
