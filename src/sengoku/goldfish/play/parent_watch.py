"""A worker process ends when the process that started it is gone.

A parent killed with SIGKILL runs no clean-up: its pool never tells the workers to stop, and
each would play its chunk to the end (minutes at 10 million runs) for a result nobody reads.
Two guards, set up once per worker:

- on Linux, the kernel sends the worker SIGKILL the moment its parent ends
  (`prctl(PR_SET_PDEATHSIG)`), at no cost while the parent lives;
- everywhere, a daemon thread asks every `POLL_S` seconds whether the worker's parent is still
  the process that started it (an orphan is adopted by another process: init or a subreaper),
  and ends the worker if not.

The thread also covers what the first guard misses: a parent that was already gone when the
worker set the signal up.
"""

from __future__ import annotations

import os
import signal
import sys
import threading

POLL_S = 0.25  # how often the fallback looks: a worker outlives its parent by at most this, plus a game
_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def end_with_parent(parent_pid: int) -> None:
    """Make this process end when `parent_pid`, the process that started it, ends."""
    _kernel_signal()
    if os.getppid() != parent_pid:  # gone before the signal was set up
        _end()
    threading.Thread(target=_watch, args=(parent_pid,), name="sengoku-parent-watch", daemon=True).start()


def _kernel_signal() -> bool:
    """Ask Linux to send SIGKILL when the parent ends; False where that cannot be asked."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes  # deferred: only a worker process needs it, once

        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def _watch(parent_pid: int, poll_s: float = POLL_S) -> None:
    stop = threading.Event()
    while not stop.wait(poll_s):
        if os.getppid() != parent_pid:
            _end()


def _end() -> None:
    # SIGKILL, as the kernel would: no handler, no clean-up of a pool that is no longer anyone's
    os.kill(os.getpid(), signal.SIGKILL)
