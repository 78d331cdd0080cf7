"""The one pool of local worker processes that goldfish, compare and tune play in.

Forked where the platform allows (workers inherit the compiled tables instead of unpickling
them), with every object alive at the fork moved out of the collector's reach (`gc.freeze`:
otherwise each worker's collections walk, and so copy-on-write copy, the parent's whole heap;
measured: 10000 greedy games on 2 workers took 0.77-0.89 s without it, 0.45-0.53 s with it).
Signals are the parent's to handle, and a worker ends when its parent is gone.
"""

from __future__ import annotations

import gc
import os
import signal
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from sengoku.goldfish.play.parent_watch import end_with_parent

# In a worker: what its pool shares with every task (set once, by the initializer, inherited through the fork).
_SHARED: Any = None
# The stop signals a worker must not take with the parent's handlers (held back from the fork to the initializer).
_STOPS = {getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)}


def _init_worker(shared: Any, parent: int) -> None:
    global _SHARED
    _SHARED = shared
    end_with_parent(parent)  # a parent killed outright (SIGKILL) cannot end its workers: they end themselves
    # Ctrl-C and SIGHUP reach the whole process group, and the parent unwinds and ends the pool; SIGTERM
    # (how the pool ends a worker) must simply end it, not run a handler inherited through the fork.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):  # a stop signal held back since the fork now gets these dispositions
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOPS)


def shared() -> Any:
    """In a worker: what its pool was started with (`ProcessPool(jobs, shared)`)."""
    return _SHARED


class ProcessPool:
    """`jobs` local worker processes, started once; `imap` runs a function over items in their order.

    `shared` reaches every worker once, at its start (`shared()`), not with each task.
    """

    def __init__(self, jobs: int, shared: Any = None) -> None:
        # deferred: start-up time; only more than one job starts worker processes
        import multiprocessing as mp

        method = "fork" if "fork" in mp.get_all_start_methods() else None
        # The stop signals are held back while the workers start: a worker inherits the parent's
        # handlers (the tune's only notes a signal), so a SIGTERM that reached it before its initializer
        # (a pool closed at once, on a loaded machine) was noted and lost, and the pool's end waited for
        # it forever. Held back, it stays pending until the initializer has set the worker's own
        # dispositions; the parent gets any that came meanwhile once the pool is started.
        held = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS) if hasattr(signal, "pthread_sigmask") else None
        gc.freeze()
        try:
            self._pool = mp.get_context(method).Pool(jobs, initializer=_init_worker, initargs=(shared, os.getpid()))
        finally:
            gc.unfreeze()
            if held is not None:
                signal.pthread_sigmask(signal.SIG_SETMASK, held)
        self.workers = jobs

    def imap(self, function: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]:
        """Yield `function(item)` for each item, in the items' order whatever order the workers finish in."""
        return self._pool.imap(function, items)

    def close(self, quietly: bool = False) -> None:
        """End the workers. After a stop signal (`quietly`) in two seconds at most: `timeout` sends SIGTERM
        to the whole process group, and a worker it ended while waiting for a task leaves the pool's queue
        lock taken, which the pool's own ending then waits for forever; so the workers left are killed."""
        ender = threading.Thread(target=self._end, daemon=True)
        ender.start()
        ender.join(2.0 if quietly else None)
        if ender.is_alive():
            # deferred: only a pool that could not end needs it
            import multiprocessing as mp

            for child in mp.active_children():
                child.kill()

    def _end(self) -> None:
        self._pool.terminate()
        self._pool.join()

    def __enter__(self) -> ProcessPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
